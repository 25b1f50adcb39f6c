import type { Role } from './types';
import { addDaysToDate, addMonthsToDate, isPlainDate, startOfWeekMonday } from '../domain/time/agencyTime';

/*
 * Reports as declarations (issue 34): a report is data, like a resource. It names a base resource, the dimensions
 * its rows may be grouped by, the measures summed or counted over the base rows, the base resource's filters it
 * passes on, and the date field its period narrows. The server serves every declared report at
 * GET /api/reports/{name} (and /export) through the base resource's own list WHERE (server/engine/reports.ts):
 * the caller's agency and row scope, the read policy, the filters. A measure built from a field the caller may not
 * read is absent from the answer, as the field is from a list.
 */

/** How a dimension groups a date or date-time field: by day, by week (Monday) or by month, on the agency's clock. */
export type DateBucket = 'day' | 'week' | 'month';

export interface ReportDimension {
  id: string;
  label: string;
  /**
   * A field of the base resource: a reference (grouped by the record, named by its representation), a date, or a
   * plain value (a choice, named by its choice's name; a number, named by its value).
   */
  field: string;
  /**
   * For a reference reached through one of the base row's references (`client_id.business_unit_id`: the shift's
   * client's unit): the name of the group whose value is empty (shifts of clients in no unit).
   */
  emptyLabel?: string;
  /** For a date or date-time field: the bucket. Its rows are named by the bucket's first day (yyyy-MM-dd). */
  bucket?: DateBucket;
  /** For a number of basis points (a VAT rate): its rows are named as a percentage (2000 is "20%"). */
  basisPoints?: boolean;
}

/** A plain dimension's name for a value: a choice's name, basis points as a percentage, else the value as text. */
export function plainName(
  d: Pick<ReportDimension, 'basisPoints'>,
  choices: readonly { id: string; name: string }[] | undefined,
  value: string | number | null,
): string | null {
  if (value === null) return null;
  if (d.basisPoints) return `${Number(value) / 100}%`;
  return choices?.find((c) => c.id === String(value))?.name ?? String(value);
}

/**
 * One of a report's base row sets, when its rows are more than one resource's (the VAT by rate: issued invoices'
 * lines and credit notes' lines). Each is its resource's list rows (the caller's scope and read policy), under its
 * own conditions and its own date for the period; the report's dimensions and measures name fields every source
 * has. A condition's field or the period's date may be reached through a reference of the row
 * (`invoice_id.state`: the line's invoice's state), read within the caller's scope of that record.
 */
export interface ReportSource {
  resource: string;
  where?: readonly ReportCondition[];
  /** The date the period narrows: a date field, or a date reached through a reference (`credit_note_id.issue_date`). */
  period?: string;
}

/**
 * A condition a measure counts under: the field is one of `in`, is above `gt`, or is empty (`isNull`); or, for a date
 * field, lies `daysPast.min` to `daysPast.max` days before the agency's today (both inclusive, either open): a due
 * date of today is 0 days past, yesterday's 1 (an age bucket of a debt; a date to come is negative).
 */
export interface ReportCondition {
  field: string;
  in?: readonly string[];
  gt?: number;
  isNull?: boolean;
  daysPast?: DaysPast;
}

/** A range of whole days before the agency's today, inclusive; an open end is absent. */
export interface DaysPast {
  min?: number;
  max?: number;
}

/** How many days a date is before the agency's today: 0 for today, 1 for yesterday, −1 for tomorrow. */
export function daysPastOf(date: string, today: string): number {
  if (!isPlainDate(date) || !isPlainDate(today)) throw new RangeError(`Not a date (yyyy-MM-dd): ${date}, ${today}`);
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000);
}

/** Whether a date lies within a `daysPast` range of the agency's today (what the report's SQL counts, in words). */
export const withinDaysPast = (range: DaysPast, date: string, today: string) => {
  const days = daysPastOf(date, today);
  return (range.min === undefined || days >= range.min) && (range.max === undefined || days <= range.max);
};

/** How a measure's values read: pence, hours, a count, a fraction shown as a percentage. */
export type MeasureFormat = 'money' | 'hours' | 'count' | 'percent';

export type ReportMeasure =
  | { id: string; label: string; kind: 'count'; where?: readonly ReportCondition[]; format?: 'count' }
  | {
      id: string;
      label: string;
      kind: 'sum';
      field: string;
      where?: readonly ReportCondition[];
      format: 'money' | 'hours' | 'count';
    }
  /**
   * A ratio of two of the report's measures, worked out from their sums over the same rows (a group's, or the
   * totals'), never an average of the rows' ratios; null when the denominator is 0. Absent when either is.
   */
  | { id: string; label: string; kind: 'ratio'; numerator: string; denominator: string; format: 'percent' };

export type PeriodPreset =
  | 'this_week'
  | 'last_week'
  | 'this_month'
  | 'last_month'
  | 'this_quarter'
  | 'last_quarter'
  | 'this_tax_year'
  | 'last_12_weeks'
  | 'custom';

export const PERIOD_PRESETS: { id: PeriodPreset; name: string }[] = [
  { id: 'this_week', name: 'This week' },
  { id: 'last_week', name: 'Last week' },
  { id: 'this_month', name: 'This month' },
  { id: 'last_month', name: 'Last month' },
  { id: 'this_quarter', name: 'This quarter' },
  { id: 'last_quarter', name: 'Last quarter' },
  { id: 'last_12_weeks', name: 'Last 12 weeks' },
  { id: 'this_tax_year', name: 'This tax year' },
  { id: 'custom', name: 'Custom' },
];

export interface ReportChart {
  /** The dimension along the chart's axis (the screen groups by it alone to draw). */
  dimension: string;
  /** The measures drawn, as bars or lines. */
  measures: readonly string[];
  kind: 'bar' | 'line';
}

/**
 * A column about the record one of the report's dimensions names (a staff member's compliance today), shown on each
 * row when the report is grouped by that dimension. Not a sum over the rows: the server reads it per record after the
 * groups are counted (server/services/staffReportDetails.ts), so it is not totalled; sorted by, every group's record
 * is read before the page is cut (runReportWithDetails).
 */
export interface ReportDetail {
  id: string;
  label: string;
  /** text; a choice's id (named by `choices`); a date (yyyy-MM-dd); decimal hours; a count. */
  format: 'text' | 'choice' | 'date' | 'hours' | 'count';
  choices?: readonly { id: string; name: string }[];
  /**
   * The fields it is made of, as `resource.field`: a caller who may not read one of them does not receive it (as a
   * measure made of pay is absent for those who may not read pay).
   */
  readFrom: readonly string[];
}

export interface ReportDeclaration {
  /** Its API name: GET /api/reports/{name}. */
  name: string;
  label: string;
  /** One sentence of what a row counts (the screen shows it; the chart's description starts with it). */
  description: string;
  /** The base resource: the report reads its rows as its list would (scope, read policy, filters). */
  resource: string;
  /**
   * Its base rows as the union of several sources (each a resource's list rows, with its own conditions and date),
   * instead of the base resource's alone; the first source is `resource`. Such a report takes no filters.
   */
  sources?: readonly ReportSource[];
  /** Who may read it (and they need `list` of the resource) and who may export it. */
  roles: readonly Role[];
  exportRoles: readonly Role[];
  /** The base rows every figure is counted over (live shifts: not deleted), as conditions. */
  where?: readonly ReportCondition[];
  /**
   * The date field the period narrows (a date or date-time field of the resource, range-filterable). A report
   * without one is as of the agency's today (the aged debt: every invoice still owing, whenever issued).
   */
  period?: {
    /** The date field; a report of several sources says each one's in its source (this is the first's). */
    field: string;
    label: string;
    default: PeriodPreset;
    presets?: readonly PeriodPreset[];
  };
  dimensions: readonly ReportDimension[];
  /** The grouping when none is asked. */
  defaultGroup: readonly string[];
  measures: readonly ReportMeasure[];
  /** The base resource's list filters a caller may narrow it by (client_id, site_id, …). */
  filters: readonly string[];
  /**
   * Filters on a reference reached through one of the base row's references, which the base resource's list does
   * not have (`business_unit_id`: shifts of clients in that unit, `client_id.business_unit_id`).
   */
  pathFilters?: readonly ReportPathFilter[];
  defaultSort: { by: string; order: 'asc' | 'desc' };
  chart?: ReportChart;
  /** Where the screen is (the admin route), for links. */
  route?: string;
  /** Columns about the record a dimension names, on its rows when grouped by it (ReportDetail). */
  details?: { dimension: string; columns: readonly ReportDetail[] };
}

/**
 * A report's filter through a reference of the base row: the query parameter `id` names a record of the path's
 * target (a business unit's id), or `none` for rows whose path is empty (`emptyLabel`: "No business unit"). The path
 * is read within the caller's scope of the record it passes through, and offered only to those who may read both
 * fields and list the target.
 */
export interface ReportPathFilter {
  id: string;
  path: string;
  emptyLabel: string;
}

/**
 * A summary the database keeps of a report's base rows (issue 34, docs/decisions.md "Issue 34 — the shift reports'
 * daily summary"): one row per agency, day of `day` on the agency's clock and value of every key, with the count of
 * the rows (`row_count`) and the sum of each summed column, under the same names as the base resource's fields. A
 * report reads it instead of the base rows when everything it asks is a column of it
 * (server/engine/reportSummaries.ts).
 * Its table and triggers are a migration's; a test compares it with `summaryRecountSql` of this declaration.
 */
export interface ReportSummary {
  /** The summary's table. */
  table: string;
  /** The base resource summarised. */
  resource: string;
  /** The rows summarised (the others are not in it): a report must ask these conditions to read it. */
  where: ReportCondition[];
  /** The date-time field whose agency day is the summary's `day` column: a report's period field. */
  day: string;
  /** Fields grouped as they are (references, choices): dimensions, filters, conditions and scope paths over them. */
  keys: string[];
  /**
   * Conditions over a summed field kept as a key column of their own (`cancellation_charged`), so that the condition
   * holds of a row's sum exactly when it holds of each shift summed in it (a sum of charges above 0 is above 0).
   */
  splits: { column: string; condition: ReportCondition }[];
  /** Stored fields summed. */
  sums: string[];
  /** Computed fields that are a multiple of a summed one (hours of paid minutes): summed through their expression. */
  linear: string[];
  /**
   * The same summary by calendar month, in a table of its own whose `day` is the month's first: a report grouped by
   * nothing finer than a month reads a period's whole months from it and only the ragged ends from the days.
   */
  months?: string;
  /**
   * 'month' for a summary kept by calendar month only (its `day` the month's first), where one by day would be
   * nearly a row per base row: a report grouped by nothing finer than a month reads a period's whole months from it
   * and the ragged ends from the base rows; a period without a whole month reads the base rows. By day otherwise.
   */
  grain?: 'day' | 'month';
}

/** The value of a path filter that asks for the rows whose path is empty. */
export const NO_VALUE = 'none';

/** Dimensions a report may be grouped by at once. */
export const MAX_GROUPS = 3;

/** A day in the UK tax year's terms: the year runs from 6 April to 5 April. */
export function taxYearOf(today: string): { from: string; to: string } {
  const y = Number(today.slice(0, 4));
  const start = today >= `${y}-04-06` ? y : y - 1;
  return { from: `${start}-04-06`, to: `${start + 1}-04-05` };
}

/**
 * A period preset as dates (inclusive), from the agency's today: weeks run Monday to Sunday, months are calendar
 * months, quarters calendar quarters (January to March, April to June…, the VAT return periods of the commonest
 * stagger), the tax year 6 April to 5 April, the last 12 weeks end with this week. 'custom' takes from and to.
 * Null when a custom period is incomplete or not a period.
 */
export function periodOf(
  preset: PeriodPreset,
  today: string,
  custom: { from?: string; to?: string } = {},
): { from: string; to: string } | null {
  const monday = startOfWeekMonday(today);
  const firstOfMonth = `${today.slice(0, 7)}-01`;
  const firstOfQuarter = `${today.slice(0, 4)}-${String(Math.floor((Number(today.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  switch (preset) {
    case 'this_week':
      return { from: monday, to: addDaysToDate(monday, 6) };
    case 'last_week':
      return { from: addDaysToDate(monday, -7), to: addDaysToDate(monday, -1) };
    case 'this_month':
      return { from: firstOfMonth, to: addDaysToDate(addMonthsToDate(firstOfMonth, 1), -1) };
    case 'last_month':
      return { from: addMonthsToDate(firstOfMonth, -1), to: addDaysToDate(firstOfMonth, -1) };
    case 'this_quarter':
      return { from: firstOfQuarter, to: addDaysToDate(addMonthsToDate(firstOfQuarter, 3), -1) };
    case 'last_quarter':
      return { from: addMonthsToDate(firstOfQuarter, -3), to: addDaysToDate(firstOfQuarter, -1) };
    case 'last_12_weeks':
      return { from: addDaysToDate(monday, -77), to: addDaysToDate(monday, 6) };
    case 'this_tax_year':
      return taxYearOf(today);
    case 'custom': {
      const { from, to } = custom;
      if (!isPlainDate(from) || !isPlainDate(to) || from > to) return null;
      return { from, to };
    }
    default:
      return null;
  }
}

export const isPeriodPreset = (v: unknown): v is PeriodPreset => PERIOD_PRESETS.some((p) => p.id === v);

/** The presets a report's period offers in PERIOD_PRESETS' order (its own list, or every one); none without one. */
export const periodPresetsOf = (report: Pick<ReportDeclaration, 'period'>) =>
  report.period ? PERIOD_PRESETS.filter((p) => !report.period!.presets || report.period!.presets.includes(p.id)) : [];

/** The fields a measure is made of: its own, its conditions', and a ratio's measures' fields. */
export function measureFields(report: ReportDeclaration, m: ReportMeasure): string[] {
  if (m.kind === 'ratio')
    return [m.numerator, m.denominator].flatMap((id) => {
      const part = report.measures.find((x) => x.id === id);
      return part ? measureFields(report, part) : [];
    });
  return [...(m.kind === 'sum' ? [m.field] : []), ...(m.where ?? []).map((w) => w.field)];
}

/**
 * The measures a reader receives: those whose every field they may read (a client user gets no pay or margin). A
 * ratio only when both of its parts are received.
 */
export function receivedMeasures(report: ReportDeclaration, mayRead: (field: string) => boolean): ReportMeasure[] {
  return report.measures.filter((m) => measureFields(report, m).every(mayRead));
}

/** What a declaration's mistakes are (checked by the server at start-up and by a unit test). */
export function reportProblems(
  report: ReportDeclaration,
  fieldOf: (name: string) => { type: string; reference?: string } | undefined,
): string[] {
  const out: string[] = [];
  const ids = new Set<string>();
  for (const x of [...report.dimensions, ...report.measures, ...(report.details?.columns ?? [])]) {
    if (ids.has(x.id)) out.push(`${report.name}: ${x.id} is declared twice`);
    ids.add(x.id);
    if (!/^[a-z][a-z0-9_]*$/.test(x.id)) out.push(`${report.name}: ${x.id} is no identifier`);
  }
  for (const d of report.dimensions) {
    const f = fieldOf(d.field);
    const kinds = d.bucket ? ['date', 'datetime'] : d.basisPoints ? ['number'] : ['reference', 'choice', 'number'];
    if (!f) out.push(`${report.name}.${d.id}: no field ${d.field}`);
    else if (!kinds.includes(f.type))
      out.push(
        `${report.name}.${d.id}: ${d.field} is ${f.type}, not a ${d.bucket ? 'date' : d.basisPoints ? 'number' : 'reference, choice or number'}`,
      );
  }
  for (const m of report.measures) {
    if (m.kind === 'ratio') {
      for (const part of [m.numerator, m.denominator]) {
        const p = report.measures.find((x) => x.id === part);
        if (!p || p.kind === 'ratio') out.push(`${report.name}.${m.id}: ${part} is no sum or count of the report`);
      }
      continue;
    }
    for (const field of measureFields(report, m)) if (!fieldOf(field)) out.push(`${report.name}.${m.id}: no ${field}`);
    if (m.kind === 'sum' && !['money', 'number'].includes(fieldOf(m.field)?.type ?? ''))
      out.push(`${report.name}.${m.id}: ${m.field} is not a money or number field`);
  }
  for (const c of report.where ?? []) if (!fieldOf(c.field)) out.push(`${report.name}.where: no field ${c.field}`);
  for (const f of report.pathFilters ?? []) {
    if (!/^[a-z][a-z0-9_]*$/.test(f.id) || report.filters.includes(f.id) || fieldOf(f.id))
      out.push(`${report.name}.pathFilters: ${f.id} is no new parameter`);
    if (!f.path.includes('.') || fieldOf(f.path)?.type !== 'reference')
      out.push(`${report.name}.pathFilters: ${f.path} is no reference through a reference`);
  }
  if (report.details) {
    const d = report.dimensions.find((x) => x.id === report.details!.dimension);
    if (!d || d.bucket || fieldOf(d.field)?.type !== 'reference')
      out.push(`${report.name}.details: ${report.details.dimension} is no dimension of records`);
  }
  for (const d of report.dimensions)
    if (d.emptyLabel && !d.field.includes('.')) out.push(`${report.name}.${d.id}: emptyLabel needs a path`);
  // Days past today are whole days of a date field: a date-time would need the agency's clock first.
  for (const m of report.measures)
    for (const w of (m.kind === 'ratio' ? [] : m.where) ?? [])
      if (w.daysPast && fieldOf(w.field)?.type !== 'date')
        out.push(`${report.name}.${m.id}: ${w.field} is not a date for daysPast`);
  // A report of several sources narrows each by its own date (sourceProblems checks them).
  if (report.period && !report.sources?.length) {
    const pf = fieldOf(report.period.field);
    if (!pf || !['date', 'datetime'].includes(pf.type)) out.push(`${report.name}.period: ${report.period.field}`);
  }
  for (const g of report.defaultGroup)
    if (!report.dimensions.some((d) => d.id === g)) out.push(`${report.name}.defaultGroup: ${g}`);
  if (!ids.has(report.defaultSort.by)) out.push(`${report.name}.defaultSort: ${report.defaultSort.by}`);
  if (report.chart) {
    if (!report.dimensions.some((d) => d.id === report.chart!.dimension))
      out.push(`${report.name}.chart: ${report.chart.dimension}`);
    for (const m of report.chart.measures)
      if (!report.measures.some((x) => x.id === m)) out.push(`${report.name}.chart: ${m}`);
  }
  return out;
}

/**
 * A multi-source report's mistakes: its first source is its resource; every source has each field the report
 * groups or sums by (of the same type as the first's), its conditions' fields and a date for the period (a field
 * or a path through one reference); no filters. `fieldOf(resource, path)` answers a field, through a reference.
 */
export function sourceProblems(
  report: ReportDeclaration,
  fieldOf: (resource: string, path: string) => { type: string } | undefined,
): string[] {
  const sources = report.sources ?? [];
  if (!sources.length) return [];
  const out: string[] = [];
  if (sources[0].resource !== report.resource) out.push(`${report.name}.sources: the first is not ${report.resource}`);
  if (report.filters.length) out.push(`${report.name}.filters: a report of several sources takes none`);
  const used = new Set([
    ...report.dimensions.map((d) => d.field),
    ...report.measures.flatMap((m) => measureFields(report, m)),
  ]);
  for (const s of sources) {
    for (const field of used) {
      const f = fieldOf(s.resource, field);
      if (!f || field.includes('.')) out.push(`${report.name}: ${s.resource} has no ${field}`);
      else if (f.type !== fieldOf(report.resource, field)?.type)
        out.push(`${report.name}: ${s.resource}.${field} is ${f.type}, not as in ${report.resource}`);
    }
    for (const w of s.where ?? [])
      if (!fieldOf(s.resource, w.field)) out.push(`${report.name}: ${s.resource} has no ${w.field}`);
    if (report.period) {
      if (!s.period) out.push(`${report.name}: ${s.resource} has no period`);
      else if (fieldOf(s.resource, s.period)?.type !== 'date')
        out.push(`${report.name}: ${s.resource}.${s.period} is not a date`);
    } else if (s.period) out.push(`${report.name}: ${s.resource} has a period the report has not`);
  }
  return out;
}
