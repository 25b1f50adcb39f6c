import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/Print';
import { Alert, Box, Button, MenuItem, Paper, Skeleton, TablePagination, TextField, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useGetList, useNotify, usePermissions, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { api } from '../../providers/http';
import { downloadFrom } from '../../providers/download';
import { PageHeader } from '../../pages/PageHeader';
import { PeriodDates } from './PeriodDates';
import { ReportChart } from './ReportChart';
import { ReportTable } from './ReportTable';
import type { ReportAnswer } from '../../../core/contracts/reports';
import { NO_VALUE, periodPresetsOf, type ReportDeclaration } from '../../../core/engine/reports';
import { mayRunReport } from '../../../core/resources/access';
import { declarationByName } from '../../../core/resources/declarations';
import { representRecord } from '../../../core/engine/exportFormat';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime';

/** The report's parameters the screen keeps in the address (bookmarkable, kept on reload); `view` is the screen's. */
const PAGE_SIZES = [25, 50, 100];
/** The files of a report: its groups for a spreadsheet, or printed as a PDF in the agency's letterhead. */
const DOWNLOAD_LABELS = { csv: 'CSV', xlsx: 'Excel', pdf: 'Print' } as const;

/** The query string the API is asked with: the address's, without what only the screen reads (`view`). */
function apiQuery(params: URLSearchParams, changes: Record<string, string | null> = {}) {
  const q = new URLSearchParams(params);
  q.delete('view');
  for (const [k, v] of Object.entries(changes))
    if (v === null) q.delete(k);
    else q.set(k, v);
  return q.toString();
}

/**
 * A declared filter on a reference: a choice of the records the caller may list, and of the rows with none when the
 * report offers it (`empty`: "No business unit", value `none`).
 */
function ReferenceFilter({
  source,
  label,
  reference,
  empty,
  value,
  onChange,
}: {
  source: string;
  label: string;
  reference: string;
  empty?: string;
  value: string;
  onChange: (v: string | null) => void;
}) {
  const translate = useTranslate();
  const decl = declarationByName.get(reference);
  const { data = [] } = useGetList(reference, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: decl?.defaultSort.field ?? 'id', order: decl?.defaultSort.order ?? 'ASC' },
  });
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value || null)}
      sx={{ minWidth: 180 }}
      name={source}
    >
      <MenuItem value="">{translate('app.report.all')}</MenuItem>
      {data.map((r) => (
        <MenuItem key={r.id} value={String(r.id)}>
          {representRecord(decl, r)}
        </MenuItem>
      ))}
      {empty && <MenuItem value={NO_VALUE}>{empty}</MenuItem>}
    </TextField>
  );
}

/**
 * A declared report's screen (issue 34): its period (presets, or from and to with the product's date picker), its
 * grouping, its filters, all in the address; a chart of its declared measures along its chart dimension (with a table
 * view and a description); the groups as a table, sortable and paged on the server, with the totals row; CSV and
 * XLSX of the same parameters.
 */
export function ReportView({
  report,
  title,
  views,
}: {
  report: ReportDeclaration;
  title: string;
  /** A choice between the screen's reports (the Invoice Report's tabs), under the title. */
  views?: ReactNode;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { permissions } = usePermissions<{ loginType: 'agency' | 'client'; role: string; privileges?: string[] }>();
  const [params, setParams] = useSearchParams();
  const [busy, setBusy] = useState<string | null>(null);
  const set = (changes: Record<string, string | null>) =>
    setParams((prev) => {
      const next = new URLSearchParams(apiQuery(prev, changes));
      // The screen's own choice of report stays in the address.
      if (prev.get('view')) next.set('view', prev.get('view')!);
      // A new question starts at its first page.
      if (!('page' in changes)) next.delete('page');
      return next;
    });
  const query = apiQuery(params);
  const answer = useQuery({
    queryKey: ['report', report.name, query],
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: ({ signal }) => api<ReportAnswer>(`/reports/${report.name}?${query}`, { signal }),
  });
  const chartQuery = report.chart
    ? apiQuery(params, {
        group: report.chart.dimension,
        sort: report.chart.dimension,
        order: 'asc',
        page: null,
        per_page: '100',
      })
    : '';
  const chart = useQuery({
    queryKey: ['report', report.name, 'chart', chartQuery],
    enabled: !!report.chart,
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: ({ signal }) => api<ReportAnswer>(`/reports/${report.name}?${chartQuery}`, { signal }),
  });
  const data = answer.data;
  const period = params.get('period') ?? report.period?.default;
  const base = declarationByName.get(report.resource);
  const mayExport = !!permissions && mayRunReport(permissions, report, 'export');

  const download = async (format: 'csv' | 'xlsx' | 'pdf') => {
    setBusy(format);
    try {
      await downloadFrom(`/reports/${report.name}/export?${apiQuery(params, { page: null, per_page: null, format })}`);
    } catch (e) {
      notify(e instanceof Error ? e.message : translate('app.report.export_failed'), { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const groups = params.get('group')?.split(',') ?? data?.group.map((g) => g.id) ?? [...report.defaultGroup];
  const dimensionChoice = (value: string, onChange: (v: string) => void, label: string, optional: boolean) => (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 170 }}
    >
      {optional && <MenuItem value="">{translate('app.report.nothing_more')}</MenuItem>}
      {(data?.dimensions ?? []).map((d) => (
        <MenuItem key={d.id} value={d.id}>
          {d.label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box sx={{ minWidth: 0 }}>
      <PageHeader title={title}>
        {mayExport && (
          <Box sx={{ display: 'flex', gap: 1 }}>
            {(['csv', 'xlsx', 'pdf'] as const).map((f) => (
              <Button
                key={f}
                size="small"
                startIcon={f === 'pdf' ? <PrintIcon /> : <DownloadIcon />}
                onClick={() => void download(f)}
                disabled={!!busy || !data}
                aria-busy={busy === f}
              >
                {DOWNLOAD_LABELS[f]}
              </Button>
            ))}
          </Box>
        )}
      </PageHeader>
      {views}
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {report.description}
      </Typography>
      <Paper
        variant="outlined"
        component="form"
        aria-label={translate('app.report.parameters')}
        onSubmit={(e) => e.preventDefault()}
        sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}
      >
        {report.period && (
          <TextField
            select
            size="small"
            label={translate('app.report.period')}
            value={period}
            onChange={(e) =>
              set(
                e.target.value === 'custom'
                  ? {
                      period: 'custom',
                      from: data?.period?.from ?? params.get('from'),
                      to: data?.period?.to ?? params.get('to'),
                    }
                  : { period: e.target.value, from: null, to: null },
              )
            }
            sx={{ minWidth: 170 }}
          >
            {periodPresetsOf(report).map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        {period === 'custom' && <PeriodDates params={params} set={set} />}
        {dimensionChoice(
          groups[0] ?? '',
          (v) => set({ group: [v, ...groups.slice(1).filter((g) => g !== v)].join(','), sort: null, order: null }),
          translate('app.report.group_by'),
          false,
        )}
        {dimensionChoice(
          groups[1] ?? '',
          (v) => set({ group: (v ? [groups[0], v] : [groups[0]]).join(','), sort: null, order: null }),
          translate('app.report.then_by'),
          true,
        )}
        {(data?.filters ?? []).map((f) => {
          const reference = f.reference ?? base?.fields.find((x) => x.source === f.id)?.reference;
          return reference ? (
            <ReferenceFilter
              key={f.id}
              source={f.id}
              label={f.label}
              reference={reference}
              empty={f.empty}
              value={params.get(f.id) ?? ''}
              onChange={(v) => set({ [f.id]: v })}
            />
          ) : null;
        })}
      </Paper>
      {answer.isError && (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={<Button onClick={() => void answer.refetch()}>{translate('app.report.retry')}</Button>}
        >
          {answer.error instanceof Error ? answer.error.message : translate('app.report.failed')}
        </Alert>
      )}
      {!data && !answer.isError && (
        <Box role="status" aria-busy="true">
          <Typography color="text.secondary">{translate('app.report.loading')}</Typography>
          <Skeleton variant="rounded" height={200} />
        </Box>
      )}
      {data && (
        <>
          <Typography variant="body2" sx={{ mb: 2 }} data-testid="report-period">
            {data.period
              ? translate('app.report.period_line', {
                  what: data.period.label,
                  from: formatDisplayDate(data.period.from),
                  to: formatDisplayDate(data.period.to),
                })
              : translate('app.report.as_of_line', { date: formatDisplayDate(data.as_of) })}
          </Typography>
          {report.chart && chart.data && data.chart && (
            <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
              <ReportChart
                answer={chart.data}
                dimension={report.chart.dimension}
                measures={data.chart.measures}
                kind={report.chart.kind}
                title={translate('app.report.chart_title', {
                  measures: chart.data.measures
                    .filter((m) => data.chart!.measures.includes(m.id))
                    .map((m) => m.label)
                    .join(translate('app.report.and')),
                  dimension: chart.data.group[0]?.label.toLowerCase() ?? '',
                })}
              />
            </Paper>
          )}
          <Paper variant="outlined" sx={{ minWidth: 0 }} aria-busy={answer.isFetching}>
            <ReportTable
              label={title}
              dimensions={data.group}
              measures={data.measures}
              details={data.details}
              rows={data.data}
              totals={data.totals}
              sort={{
                by: data.sort,
                order: data.order,
                onSort: (by) =>
                  set({
                    sort: by,
                    order: data.sort === by && data.order === 'asc' ? 'desc' : data.sort === by ? 'asc' : 'desc',
                  }),
              }}
            />
            <TablePagination
              component="div"
              count={data.total_count}
              page={Math.max(0, data.current_page - 1)}
              rowsPerPage={data.per_page}
              rowsPerPageOptions={PAGE_SIZES}
              onPageChange={(_e, p) => set({ page: String(p + 1) })}
              onRowsPerPageChange={(e) => set({ per_page: e.target.value })}
            />
          </Paper>
        </>
      )}
    </Box>
  );
}
