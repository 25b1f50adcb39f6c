import { Box, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { ReportAnswer, ReportMeasureInfo, ReportRow } from '../../../core/contracts/reports';
import { bucketName, formatReportValue, reportCell } from '../../../core/engine/reportFormat';
import { addDaysToDate, addMonthsToDate, startOfWeekMonday } from '../../../core/domain/time/agencyTime';
import { ReportTable } from './ReportTable';

/** Buckets a chart draws at most (a day chart over a tax year stays a table). */
const MAX_BUCKETS = 120;

/**
 * The rows of a date dimension with every bucket of the period, an empty one as zeros (a week nobody worked is a
 * gap on the chart, not a missing bar); other dimensions' rows as they are.
 */
export function everyBucket(answer: ReportAnswer, dimension: string): ReportRow[] {
  const dim = answer.group.find((d) => d.id === dimension);
  // A report as of today has no period to fill with buckets.
  if (!dim?.bucket || !answer.period) return answer.data;
  const byKey = new Map(answer.data.map((r) => [String(r[dimension]), r]));
  const first =
    dim.bucket === 'week'
      ? startOfWeekMonday(answer.period.from)
      : dim.bucket === 'month'
        ? `${answer.period.from.slice(0, 7)}-01`
        : answer.period.from;
  const out: ReportRow[] = [];
  for (let d = first; d <= answer.period.to && out.length < MAX_BUCKETS;) {
    out.push(
      byKey.get(d) ?? {
        [dimension]: d,
        ...Object.fromEntries(answer.measures.map((m) => [m.id, m.format === 'percent' ? null : 0])),
      },
    );
    d =
      dim.bucket === 'week'
        ? addDaysToDate(d, 7)
        : dim.bucket === 'month'
          ? addMonthsToDate(d, 1)
          : addDaysToDate(d, 1);
  }
  return out;
}

/** A measure's value as the chart's axis reads it: as the report's files write it (pounds, per cent, hours). */
const chartValue = (m: ReportMeasureInfo, row: ReportRow) => {
  const v = reportCell(
    { id: m.id, label: m.label, kind: m.format === 'count' ? 'count' : 'sum', format: m.format },
    row,
  );
  return v === '' ? null : Number(v);
};

/**
 * A declared report drawn as a chart (bars or a line per measure along one dimension), with its table view and a
 * description in words: the chart itself is a picture (hidden from screen readers); the description says what it
 * shows and the table view gives every value.
 */
export function ReportChart({
  answer,
  dimension,
  measures,
  kind,
  title,
  height = 260,
}: {
  answer: ReportAnswer;
  dimension: string;
  measures: readonly string[];
  kind: 'bar' | 'line';
  title: string;
  height?: number;
}) {
  const translate = useTranslate();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const id = useId();
  const dim = answer.group.find((d) => d.id === dimension) ?? answer.dimensions.find((d) => d.id === dimension);
  const drawn = answer.measures.filter((m) => measures.includes(m.id));
  if (!dim || drawn.length === 0) return null;
  const rows = everyBucket(answer, dimension);
  const names = rows.map((r) =>
    r[dimension] === null ? translate('app.report.none') : bucketName(dim.bucket, String(r[dimension])),
  );
  const description = translate('app.report.chart_description', {
    kind: translate(kind === 'bar' ? 'app.report.bar_chart' : 'app.report.line_chart'),
    measures: drawn.map((m) => m.label).join(translate('app.report.and')),
    dimension: dim.label.toLowerCase(),
    count: rows.length,
    from: answer.period?.from ?? answer.as_of,
    to: answer.period?.to ?? answer.as_of,
  });
  const series = drawn.map((m) => ({
    id: m.id,
    label:
      m.format === 'money' ? `${m.label} (£)` : m.format === 'percent' ? `${m.label.replace(/ %$/, '')} (%)` : m.label,
    data: rows.map((r) => chartValue(m, r)),
    // The tooltip says the row's own value as the table does (£1,234.50, 87.5%).
    valueFormatter: (_v: number | null, { dataIndex }: { dataIndex: number }) =>
      formatReportValue(m.format, rows[dataIndex]?.[m.id]),
  }));
  const xAxis = [{ scaleType: 'band' as const, data: names, id: 'x' }];
  return (
    <Box component="figure" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} sx={{ m: 0, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <Typography id={`${id}-title`} variant="subtitle2" component="h3">
          {title}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_e, v) => v && setView(v)}
          aria-label={translate('app.report.view_as', { title })}
        >
          <ToggleButton value="chart">{translate('app.report.chart')}</ToggleButton>
          <ToggleButton value="table">{translate('app.report.table')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Typography id={`${id}-desc`} component="figcaption" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {description}
      </Typography>
      {view === 'chart' ? (
        <Box aria-hidden="true" sx={{ width: '100%', minWidth: 0 }}>
          {kind === 'bar' ? (
            <BarChart height={height} xAxis={xAxis} series={series} skipAnimation disableKeyboardNavigation />
          ) : (
            <LineChart
              height={height}
              xAxis={xAxis}
              series={series.map((s) => ({ ...s, connectNulls: false }))}
              skipAnimation
              disableKeyboardNavigation
            />
          )}
        </Box>
      ) : (
        <ReportTable label={title} dimensions={[dim]} measures={drawn} rows={rows} />
      )}
    </Box>
  );
}
