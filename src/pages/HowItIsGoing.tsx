import { Box, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCanAccess, useGetList, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router';
import { api } from '../providers/http';
import { ReportChart } from '../engine/react/ReportChart';
import type { ReportAnswer } from '../../core/contracts/reports';
import { clientReport } from '../../core/resources/reports';
import { NO_VALUE, PERIOD_PRESETS, type PeriodPreset } from '../../core/engine/reports';
import { addDaysToDate, formatDisplayDate, startOfWeekMonday } from '../../core/domain/time/agencyTime';
import { PeriodDates } from '../engine/react/PeriodDates';

/** The dashboard's business unit, in the address (`/home?business_unit_id=3`, or `none`): kept on reload. */
const UNIT = 'business_unit_id';

/**
 * The business unit the figures are of: every unit (all), one, or the clients in none. Offered to those who may list
 * the units (admins and consultants); the figures' request names it, and so does the link to the report.
 */
function UnitChoice({ value, onChange }: { value: string; onChange: (v: string | null) => void }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'business_units', action: 'list' });
  const { data = [] } = useGetList(
    'business_units',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: !!canAccess },
  );
  if (!canAccess || (!data.length && !value)) return null;
  return (
    <TextField
      select
      size="small"
      label={translate('app.how_it_is_going.business_unit')}
      value={value}
      onChange={(e) => onChange(e.target.value || null)}
      sx={{ minWidth: 200, mb: 1.5 }}
      name={UNIT}
    >
      <MenuItem value="">{translate('app.how_it_is_going.all_units')}</MenuItem>
      {data.map((u) => (
        <MenuItem key={u.id} value={String(u.id)}>
          {u.name}
        </MenuItem>
      ))}
      <MenuItem value={NO_VALUE}>{translate('app.how_it_is_going.no_unit')}</MenuItem>
    </TextField>
  );
}

/** The dashboard's weekly figures: the Client Report by week, one request; over the last 12 weeks unless asked. */
export const HOW_IT_IS_GOING_QUERY = 'group=week&period=last_12_weeks&sort=week&order=asc&per_page=100';

/**
 * The periods the figures may be of, as the reports name them: the last 12 weeks (the default), this and last week,
 * this and last month, this tax year, or from and to (custom). In the address (`period`, `from`, `to`).
 */
const PERIODS: readonly PeriodPreset[] = [
  'last_12_weeks',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'this_tax_year',
  'custom',
];

/** Weeks the charts draw at most: the figures are one page of the report's weeks (per_page=100). */
const MAX_WEEKS = 100;

/** The weeks (Monday to Sunday) a period touches. */
function weeksOf(from: string, to: string): number {
  let n = 0;
  for (let m = startOfWeekMonday(from); m <= to; m = addDaysToDate(m, 7)) n += 1;
  return n;
}

/** The figures' query for the address's period and unit: the default's, with the asked period in its place. */
export function howItIsGoingQuery(params: URLSearchParams): string {
  const q = new URLSearchParams(HOW_IT_IS_GOING_QUERY);
  const period = params.get('period');
  if (period && PERIODS.includes(period as PeriodPreset)) {
    q.set('period', period);
    if (period === 'custom') for (const k of ['from', 'to']) q.set(k, params.get(k) ?? '');
  }
  const unit = params.get(UNIT);
  if (unit) q.set(UNIT, unit);
  return q.toString();
}

/** Each chart: the measures drawn and how. A chart whose measures the caller does not receive is left out. */
const CHARTS: { measures: string[]; kind: 'bar' | 'line'; title: string }[] = [
  { measures: ['fill_rate'], kind: 'line', title: 'app.how_it_is_going.fill_rate' },
  { measures: ['hours'], kind: 'bar', title: 'app.how_it_is_going.hours' },
  { measures: ['charge'], kind: 'bar', title: 'app.how_it_is_going.charge' },
  { measures: ['margin'], kind: 'bar', title: 'app.how_it_is_going.margin' },
  { measures: ['margin_pct'], kind: 'line', title: 'app.how_it_is_going.margin_pct' },
];

/**
 * "How it is going" on the agency dashboard (issue 34): fill rate, hours, charge, margin £ and % by week over the
 * last 12 weeks or the period chosen, drawn from the declared Client Report (client_activity) by the reports' own
 * chart, each with its table view; of every business unit, or of the one chosen (the report's own unit filter).
 * Loaded (its chunk and its request) after the Needs doing figures.
 */
export function HowItIsGoing() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const unit = params.get(UNIT) ?? '';
  const query = howItIsGoingQuery(params);
  const period = new URLSearchParams(query).get('period') as PeriodPreset;
  const [from, to] = [params.get('from'), params.get('to')];
  // A custom period longer than the figures' page of weeks is not asked: its later weeks would draw as empty.
  const tooLong = period === 'custom' && !!from && !!to && from <= to && weeksOf(from, to) > MAX_WEEKS;
  const weekly = useQuery({
    enabled: !tooLong,
    queryKey: ['home', 'how_it_is_going', query],
    retry: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api<ReportAnswer>(`/reports/${clientReport.name}?${query}`, { signal }),
  });
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes))
          if (v) next.set(k, v);
          else next.delete(k);
        return next;
      },
      { replace: true },
    );
  const heading = (
    <>
      <Typography variant="subtitle1" component="h2" id="how-it-is-going" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('app.how_it_is_going.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, alignItems: 'flex-start' }}>
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
                    from: params.get('from') ?? weekly.data?.period?.from ?? null,
                    to: params.get('to') ?? weekly.data?.period?.to ?? null,
                  }
                : // The default stays out of the address.
                  { period: e.target.value === PERIODS[0] ? null : e.target.value, from: null, to: null },
            )
          }
          sx={{ minWidth: 170, mb: 1.5 }}
          name="period"
        >
          {PERIOD_PRESETS.filter((p) => PERIODS.includes(p.id)).map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
        {period === 'custom' && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, mb: 1.5 }}>
            <PeriodDates params={params} set={set} />
          </Box>
        )}
        <UnitChoice value={unit} onChange={(v) => set({ [UNIT]: v })} />
      </Box>
      {weekly.data?.period && (
        <Typography variant="body2" sx={{ mb: 1.5 }} data-testid="how-it-is-going-period">
          {translate('app.report.period_line', {
            what: weekly.data.period.label,
            from: formatDisplayDate(weekly.data.period.from),
            to: formatDisplayDate(weekly.data.period.to),
          })}
        </Typography>
      )}
    </>
  );
  if (tooLong)
    return (
      <Box component="section" aria-labelledby="how-it-is-going" sx={{ mb: 3 }}>
        {heading}
        <Typography color="text.secondary" role="status">
          {translate('app.how_it_is_going.too_long', { weeks: MAX_WEEKS })}
        </Typography>
      </Box>
    );
  if (!weekly.data)
    return (
      <Box component="section" aria-labelledby="how-it-is-going" sx={{ mb: 3 }}>
        {heading}
        <Typography color="text.secondary" role="status">
          {weekly.isError
            ? weekly.error instanceof Error
              ? weekly.error.message
              : translate('app.report.failed')
            : translate('app.report.loading')}
        </Typography>
      </Box>
    );
  const received = new Set(weekly.data.measures.map((m) => m.id));
  return (
    <Box component="section" aria-labelledby="how-it-is-going" sx={{ mb: 3 }} data-testid="how-it-is-going">
      {heading}
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))', mb: 1 }}
      >
        {CHARTS.filter((c) => c.measures.every((m) => received.has(m))).map((c) => (
          <Paper key={c.title} variant="outlined" sx={{ p: 2, minWidth: 0 }}>
            <ReportChart
              answer={weekly.data}
              dimension="week"
              measures={c.measures}
              kind={c.kind}
              title={translate(c.title)}
              height={200}
            />
          </Paper>
        ))}
      </Box>
      <Typography variant="body2">
        <Link to={`/report/ClientReport?${query}`}>{translate('app.how_it_is_going.open_report')}</Link>
      </Typography>
    </Box>
  );
}
