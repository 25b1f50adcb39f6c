import { formatPounds, penceToPounds } from './money';
import type { ReportDeclaration, ReportDetail, ReportDimension, ReportMeasure } from './reports';

/*
 * How a report's values read, in one place for the screen, its chart and its files (issue 34): money in pounds,
 * hours with two decimals, ratios in per cent, a week by its Monday and a month by its name.
 */

type Dimension = Pick<ReportDimension, 'id' | 'label' | 'bucket'>;
type Column = Dimension | (Pick<ReportMeasure, 'id' | 'label' | 'kind'> & { format?: string });
type Value = string | number | null | undefined;

const isMeasure = (c: Column): c is Pick<ReportMeasure, 'id' | 'label' | 'kind'> & { format?: string } => 'kind' in c;
const formatOf = (m: { kind: string; format?: string }) => (m.kind === 'count' ? 'count' : m.format);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date bucket's name: a day or week by its (first) date, yyyy-MM-dd; a month as 'Nov 2026'. */
export function bucketName(bucket: ReportDimension['bucket'], date: string): string {
  if (bucket !== 'month' || !/^\d{4}-\d\d/.test(date)) return date;
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;
}

/** A file's column header: the label, with its unit (Charge (£), Fill rate (%)). */
export function reportHeader(c: Column): string {
  if (!isMeasure(c)) return c.label;
  const f = formatOf(c);
  return f === 'money' ? `${c.label} (£)` : f === 'percent' ? `${c.label.replace(/ %$/, '')} (%)` : c.label;
}

/**
 * A file's cell, a number a spreadsheet sums where it is one: pounds (12.5), hours, a count, a percentage with one
 * decimal (87.5); a dimension's name as text (an empty group says None).
 */
export function reportCell(c: Column, row: Record<string, Value>): string | number {
  const v = row[c.id];
  if (!isMeasure(c))
    return v === null || v === undefined || v === '' ? 'None' : bucketName((c as Dimension).bucket, String(v));
  if (v === null || v === undefined || v === '') return '';
  const f = formatOf(c);
  const n = Number(v);
  if (f === 'money') return penceToPounds(n);
  if (f === 'percent') return Math.round(n * 1000) / 10;
  return n;
}

type Detail = Pick<ReportDetail, 'id' | 'format'> & { choices?: readonly { id: string; name: string }[] };

/** A detail column's value as the screen and the files read it: a choice by its name, text and dates as they are. */
export function detailText(d: Detail, v: Value): string | number | null {
  if (v === null || v === undefined || v === '') return null;
  if (d.format === 'choice') return d.choices?.find((c) => c.id === String(v))?.name ?? String(v);
  if (d.format === 'hours' || d.format === 'count') return Number(v);
  return String(v);
}

/** A file's cell of a detail column: a number a spreadsheet sums where it is one, else its text (empty for none). */
export const detailCell = (d: Detail, row: Record<string, Value>): string | number => detailText(d, row[d.id]) ?? '';

/**
 * A value as the screen shows it: £1,234.50, hours (37.5), a count (1,200), 87.5%; a ratio with no denominator as a
 * dash.
 */
export function formatReportValue(format: string, v: Value): string {
  if (v === null || v === undefined || v === '') return '–';
  const n = Number(v);
  if (format === 'money') return formatPounds(n);
  if (format === 'percent') return `${(Math.round(n * 1000) / 10).toFixed(1)}%`;
  if (format === 'hours') return String(Number(n.toFixed(2)));
  return n.toLocaleString('en-GB');
}

/**
 * The file's name: `<report>-<from>-to-<to>` (client-report-2026-11-01-to-2026-11-30), or for a report as of a day
 * `<report>-as-of-<day>` (aged-debt-as-of-2026-11-29).
 */
export const reportFileName = (
  report: Pick<ReportDeclaration, 'label'>,
  period: { from: string; to: string } | { asOf: string },
) =>
  `${report.label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${'asOf' in period ? `as-of-${period.asOf}` : `${period.from}-to-${period.to}`}`;
