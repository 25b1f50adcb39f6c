import { Box, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCanAccess, useGetList, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router';
import { api } from '../providers/http';
import { ReportChart } from '../engine/react/ReportChart';
import type { ReportAnswer } from '../../core/contracts/reports';
import { clientReport } from '../../core/resources/reports';
import { NO_VALUE } from '../../core/engine/reports';

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

/** The dashboard's weekly figures: the Client Report by week over the last 12 weeks, one request. */
export const HOW_IT_IS_GOING_QUERY = 'group=week&period=last_12_weeks&sort=week&order=asc&per_page=100';

/** Each chart: the measures drawn and how. A chart whose measures the caller does not receive is left out. */
const CHARTS: { measures: string[]; kind: 'bar' | 'line'; title: string }[] = [
  { measures: ['fill_rate'], kind: 'line', title: 'app.how_it_is_going.fill_rate' },
  { measures: ['hours'], kind: 'bar', title: 'app.how_it_is_going.hours' },
  { measures: ['charge'], kind: 'bar', title: 'app.how_it_is_going.charge' },
  { measures: ['margin'], kind: 'bar', title: 'app.how_it_is_going.margin' },
  { measures: ['margin_pct'], kind: 'line', title: 'app.how_it_is_going.margin_pct' },
];

/**
 * "How it is going" on the agency dashboard (issue 34): fill rate, hours, charge, margin £ and % by week over 12
 * weeks, drawn from the declared Client Report (client_activity) by the reports' own chart, each with its table view;
 * of every business unit, or of the one chosen (the report's own unit filter).
 * Loaded (its chunk and its request) after the Needs doing figures.
 */
export function HowItIsGoing() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const unit = params.get(UNIT) ?? '';
  const query = unit ? `${HOW_IT_IS_GOING_QUERY}&${UNIT}=${encodeURIComponent(unit)}` : HOW_IT_IS_GOING_QUERY;
  const weekly = useQuery({
    queryKey: ['home', 'how_it_is_going', unit],
    retry: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api<ReportAnswer>(`/reports/${clientReport.name}?${query}`, { signal }),
  });
  const heading = (
    <>
      <Typography variant="subtitle1" component="h2" id="how-it-is-going" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('app.how_it_is_going.title')}
      </Typography>
      <UnitChoice
        value={unit}
        onChange={(v) =>
          setParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              if (v) next.set(UNIT, v);
              else next.delete(UNIT);
              return next;
            },
            { replace: true },
          )
        }
      />
    </>
  );
  if (!weekly.data)
    return (
      <Box component="section" aria-labelledby="how-it-is-going" sx={{ mb: 3 }}>
        {heading}
        <Typography color="text.secondary" role="status">
          {weekly.isError ? translate('app.report.failed') : translate('app.report.loading')}
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
