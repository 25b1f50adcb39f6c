import type {
  DaysPast,
  ReportCondition,
  ReportDeclaration,
  ReportDimension,
  ReportMeasure,
  ReportPathFilter,
  ReportSummary,
} from '../engine/reports';
import { ISSUED_STATES } from './invoices/resource';
import { COMPLIANCE } from './candidates/resource';
import { AWR_QUALIFYING_WEEKS, REFERENCE_WEEKS } from '../domain/booking/checks';
import { OPEN_STATES } from '../domain/invoicing/settlement';

/*
 * The declared reports (issue 34; types and rules in core/engine/reports.ts). Each is served at
 * GET /api/reports/{name}?group=a,b&period=…&from&to&<filters>&sort&order&page&per_page (and /export?format=csv|xlsx)
 * by server/engine/reports.ts, through the base resource's list WHERE: the caller's agency and row scope, the read
 * policy, the filters. A measure made of a field the caller may not read (pay, margin) is absent from the answer.
 *
 * Shifts are the base of the activity reports: a shift is the unit a client requests and the agency fills, and it
 * carries its quoted hours, charge, pay and margin (priced when created and when someone is booked). A shift is:
 *   requested  not deleted and not cancelled (open, assigned or closed): the demand that stood;
 *   filled     assigned or closed: someone is booked (the fill rate is filled ÷ requested);
 *   late-cancelled  cancelled with a late-cancellation charge to the client (above 0).
 * Hours, charge, pay and margin are summed over filled shifts only: an open shift's quote is no income.
 */

const LIVE: ReportCondition[] = [{ field: 'deleted_at', isNull: true }];
const REQUESTED: ReportCondition[] = [{ field: 'status', in: ['open', 'assigned', 'closed'] }];
const FILLED: ReportCondition[] = [{ field: 'status', in: ['assigned', 'closed'] }];
const CANCELLED: ReportCondition[] = [{ field: 'status', in: ['cancelled'] }];

/*
 * Business units (issue 34): a shift's or an invoice's unit is its client's (`client_id.business_unit_id`), read as
 * the client is now, not as it was when the shift was worked; a client in no unit is counted under "No business
 * unit". Every report over rows with a client filters by unit (`business_unit_id=<id>`, or `none`).
 */
const NO_UNIT = 'No business unit';
const byUnit: ReportDimension = {
  id: 'business_unit',
  label: 'Business unit',
  field: 'client_id.business_unit_id',
  emptyLabel: NO_UNIT,
};
const unitFilter: ReportPathFilter[] = [
  { id: 'business_unit_id', path: 'client_id.business_unit_id', emptyLabel: NO_UNIT },
];

const byDate = (field: string): ReportDimension[] => [
  { id: 'day', label: 'Day', field, bucket: 'day' },
  { id: 'week', label: 'Week beginning', field, bucket: 'week' },
  { id: 'month', label: 'Month', field, bucket: 'month' },
];

/** What was asked for and what the agency filled: the fill rate is filled ÷ requested. */
const fill: ReportMeasure[] = [
  { id: 'requested', label: 'Shifts requested', kind: 'count', where: REQUESTED },
  { id: 'filled', label: 'Shifts filled', kind: 'count', where: FILLED },
  {
    id: 'fill_rate',
    label: 'Fill rate',
    kind: 'ratio',
    numerator: 'filled',
    denominator: 'requested',
    format: 'percent',
  },
];
const filledMoney: ReportMeasure[] = [
  { id: 'hours', label: 'Hours', kind: 'sum', field: 'hours', where: FILLED, format: 'hours' },
  { id: 'charge', label: 'Charge', kind: 'sum', field: 'charge', where: FILLED, format: 'money' },
];
const margin: ReportMeasure[] = [
  { id: 'margin', label: 'Margin', kind: 'sum', field: 'margin', where: FILLED, format: 'money' },
  { id: 'margin_pct', label: 'Margin %', kind: 'ratio', numerator: 'margin', denominator: 'charge', format: 'percent' },
];

/**
 * The shift reports' daily summary (migration 143, `shift_days`; by month, 147, `shift_months`): live shifts by the
 * agency's day of their start, client, site, job role, status, who asked for a cancellation and whether it was
 * charged, with their count and the sums of paid minutes (hours), charge, pay, margin and cancellation charges. The
 * client, business unit and spend reports (and the dashboard's How it is going) read it: a year is then a few
 * thousand rows, not a million shifts. The staff report groups by staff member, which it does not keep: it reads
 * shiftStaffMonths.
 */
export const shiftDays: ReportSummary = {
  table: 'shift_days',
  resource: 'shifts',
  where: LIVE,
  day: 'start_at',
  keys: ['client_id', 'site_id', 'job_role_id', 'status', 'cancel_requested_by'],
  splits: [{ column: 'cancellation_charged', condition: { field: 'cancellation_charge', gt: 0 } }],
  sums: ['paid_minutes', 'charge', 'pay', 'margin', 'cancellation_charge'],
  linear: ['hours'],
  // Migration 147: a year's whole months are twelve rows per key, not 365.
  months: 'shift_months',
};

/**
 * The staff report's monthly summary (migration 148, `shift_staff_months`): booked live shifts by the agency's month of
 * their start, staff member, status, who asked for a cancellation and whether it was charged. By month only, and
 * without client or job role: a staff member works about one shift a day, often for several clients in a month, so
 * with either it would be nearly a row per shift. The staff report and its standing view by staff member (or month)
 * read a period's whole months from it and its ragged ends from shifts; by client or job role, or filtered by them or
 * a business unit, they read shifts.
 */
export const shiftStaffMonths: ReportSummary = {
  table: 'shift_staff_months',
  resource: 'shifts',
  where: [...LIVE, { field: 'candidate_id', isNull: false }],
  day: 'start_at',
  keys: ['candidate_id', 'status', 'cancel_requested_by'],
  splits: shiftDays.splits,
  sums: shiftDays.sums,
  linear: shiftDays.linear,
  grain: 'month',
};

/** Every summary the database keeps for the reports: a report reads the first that serves it. */
export const REPORT_SUMMARIES: readonly ReportSummary[] = [shiftDays, shiftStaffMonths];

/** ClientReport: per client, site and job role, what was asked for and what the agency filled and earned. */
export const clientReport: ReportDeclaration = {
  name: 'client_activity',
  label: 'Client report',
  description: 'Shifts by when they start: requested, filled, hours, charge, margin and late cancellations.',
  resource: 'shifts',
  roles: ['admin', 'consultant', 'manager', 'viewer'],
  exportRoles: ['admin', 'consultant', 'manager'],
  where: LIVE,
  period: { field: 'start_at', label: 'Shifts starting', default: 'this_month' },
  dimensions: [
    { id: 'client', label: 'Client', field: 'client_id' },
    { id: 'site', label: 'Site', field: 'site_id' },
    { id: 'job_role', label: 'Job role', field: 'job_role_id' },
    byUnit,
    ...byDate('start_at'),
  ],
  defaultGroup: ['client'],
  measures: [
    ...fill,
    ...filledMoney,
    ...margin,
    {
      id: 'late_cancellations',
      label: 'Late cancellations',
      kind: 'count',
      where: [...CANCELLED, { field: 'cancellation_charge', gt: 0 }],
    },
    {
      id: 'late_cancellation_charges',
      label: 'Late-cancellation charges',
      kind: 'sum',
      field: 'cancellation_charge',
      where: CANCELLED,
      format: 'money',
    },
  ],
  filters: ['client_id', 'site_id', 'job_role_id'],
  pathFilters: unitFilter,
  defaultSort: { by: 'charge', order: 'desc' },
  chart: { dimension: 'week', measures: ['requested', 'filled'], kind: 'bar' },
  route: '/report/ClientReport',
};

/**
 * BusinessUnitReport: per business unit (its clients' shifts), what was asked for, filled and earned: the client
 * report's figures (requested, filled, fill rate, hours, charge, margin, margin %), grouped by unit.
 */
export const businessUnitReport: ReportDeclaration = {
  name: 'business_unit_activity',
  label: 'Business unit report',
  description:
    'Shifts by when they start, by the business unit of their client: requested, filled, fill rate, hours, charge and margin.',
  resource: 'shifts',
  roles: ['admin', 'consultant'],
  exportRoles: ['admin', 'consultant'],
  where: LIVE,
  period: { field: 'start_at', label: 'Shifts starting', default: 'this_month' },
  dimensions: [byUnit, { id: 'client', label: 'Client', field: 'client_id' }, ...byDate('start_at')],
  defaultGroup: ['business_unit'],
  measures: [...fill, ...filledMoney, ...margin],
  filters: ['client_id'],
  pathFilters: unitFilter,
  defaultSort: { by: 'charge', order: 'desc' },
  chart: { dimension: 'week', measures: ['hours'], kind: 'bar' },
  route: '/report/BusinessUnitReport',
};

/**
 * StaffReport: per staff member, the shifts they were booked on: worked, cancelled, cancelled at their own request,
 * and no-shows (a booking they did not turn up for, cancelled as one). Where each of them stands (compliance, AWR,
 * working time) is the report's second view, staffStandingReport.
 */
/** The AWR count is of a staff member's shifts at a client in a job role, by when they start. */
const AWR_FIELDS = ['shifts.candidate_id', 'shifts.client_id', 'shifts.job_role_id', 'shifts.start_at'];
const YES_NO = [
  { id: 'yes', name: 'Yes' },
  { id: 'no', name: 'No' },
];

export const staffReport: ReportDeclaration = {
  name: 'staff_activity',
  label: 'Staff report',
  description: 'Shifts booked to each staff member: worked or booked, hours, charge, pay, margin and cancellations.',
  resource: 'shifts',
  roles: ['admin', 'consultant'],
  exportRoles: ['admin', 'consultant'],
  where: [...LIVE, { field: 'candidate_id', isNull: false }],
  period: { field: 'start_at', label: 'Shifts starting', default: 'this_month' },
  dimensions: [
    { id: 'staff', label: 'Staff member', field: 'candidate_id' },
    { id: 'client', label: 'Client', field: 'client_id' },
    { id: 'job_role', label: 'Job role', field: 'job_role_id' },
    ...byDate('start_at'),
  ],
  defaultGroup: ['staff'],
  measures: [
    { id: 'shifts', label: 'Shifts', kind: 'count', where: FILLED },
    ...filledMoney,
    { id: 'pay', label: 'Pay', kind: 'sum', field: 'pay', where: FILLED, format: 'money' },
    ...margin,
    { id: 'cancellations', label: 'Cancellations', kind: 'count', where: CANCELLED },
    // Cancellations asked for by the staff member (cancel_requested_by worker).
    {
      id: 'staff_cancellations',
      label: 'Asked by staff',
      kind: 'count',
      where: [...CANCELLED, { field: 'cancel_requested_by', in: ['worker'] }],
    },
    // Bookings the staff member did not turn up for (cancelled as a no-show).
    {
      id: 'no_shows',
      label: 'No-shows',
      kind: 'count',
      where: [...CANCELLED, { field: 'cancel_requested_by', in: ['no_show'] }],
    },
  ],
  filters: ['client_id', 'job_role_id', 'candidate_id'],
  pathFilters: unitFilter,
  defaultSort: { by: 'hours', order: 'desc' },
  chart: { dimension: 'week', measures: ['hours'], kind: 'bar' },
  route: '/report/StaffReport',
};

/**
 * The StaffReport's second view: where each staff member booked in the period stands (docs/decisions.md "Issue 34 —
 * the staff report's compliance, AWR and working time"), beside their shifts and hours: their compliance today; the
 * Agency Workers Regulations count of the client and job role where it is highest, as of the period's end, and the
 * Monday equal treatment applies from (awrWeeks, awrQualifyingDate); their average weekly hours over the 17 weeks to
 * the period's end (the booking check's averageWeeklyHours); and whether they opted out of the 48-hour week. A view
 * of its own, so that each table fits a laptop's width.
 */
export const staffStandingReport: ReportDeclaration = {
  name: 'staff_standing',
  label: 'Staff compliance and working time',
  description:
    'Staff booked in the period: their compliance today, their Agency Workers Regulations count, their average weekly hours over the 17 weeks to the period’s end and the 48-hour opt-out.',
  resource: 'shifts',
  roles: ['admin', 'consultant'],
  exportRoles: ['admin', 'consultant'],
  where: staffReport.where,
  period: staffReport.period,
  dimensions: [{ id: 'staff', label: 'Staff member', field: 'candidate_id' }],
  defaultGroup: ['staff'],
  measures: [
    { id: 'shifts', label: 'Shifts', kind: 'count', where: FILLED },
    { id: 'hours', label: 'Hours', kind: 'sum', field: 'hours', where: FILLED, format: 'hours' },
  ],
  filters: staffReport.filters,
  pathFilters: unitFilter,
  defaultSort: { by: 'staff', order: 'asc' },
  route: '/report/StaffReport?view=staff_standing',
  details: {
    dimension: 'staff',
    columns: [
      {
        id: 'compliance',
        label: 'Compliance at period end',
        format: 'choice',
        choices: COMPLIANCE,
        readFrom: ['candidates.compliance'],
      },
      {
        id: 'awr_weeks',
        label: `AWR weeks (of ${AWR_QUALIFYING_WEEKS})`,
        format: 'count',
        readFrom: AWR_FIELDS,
      },
      { id: 'awr_at', label: 'AWR at', format: 'text', readFrom: AWR_FIELDS },
      { id: 'awr_qualifies_on', label: 'AWR equal treatment from', format: 'date', readFrom: AWR_FIELDS },
      {
        id: 'average_weekly_hours',
        label: `Average weekly hours (${REFERENCE_WEEKS} weeks)`,
        format: 'hours',
        readFrom: ['shifts.candidate_id', 'shifts.start_at', 'shifts.end_at'],
      },
      {
        id: 'opted_out_48h',
        label: 'Opted out of 48 hours',
        format: 'choice',
        choices: YES_NO,
        readFrom: ['candidate_preferences.opted_out_48h'],
      },
    ],
  },
};

/** The StaffReport's views, in the order of its tabs (the first when none is asked). */
export const STAFF_REPORT_VIEWS: readonly ReportDeclaration[] = [staffReport, staffStandingReport];

/**
 * A client's spend (the client dashboard's "spend by week and by site"): the charge of the filled shifts, never pay
 * or margin. Client users read their own client's; the agency reads any client's (filter client_id).
 */
export const clientSpendReport: ReportDeclaration = {
  name: 'client_spend',
  label: 'Spend',
  description: 'The charge of booked and worked shifts, by when they start.',
  resource: 'shifts',
  roles: ['admin', 'consultant', 'manager', 'viewer'],
  exportRoles: ['admin', 'consultant', 'manager'],
  where: LIVE,
  period: { field: 'start_at', label: 'Shifts starting', default: 'last_12_weeks' },
  dimensions: [
    { id: 'week', label: 'Week beginning', field: 'start_at', bucket: 'week' },
    { id: 'month', label: 'Month', field: 'start_at', bucket: 'month' },
    { id: 'site', label: 'Site', field: 'site_id' },
    { id: 'client', label: 'Client', field: 'client_id' },
  ],
  defaultGroup: ['week'],
  measures: [
    { id: 'shifts', label: 'Shifts', kind: 'count', where: FILLED },
    { id: 'hours', label: 'Hours', kind: 'sum', field: 'hours', where: FILLED, format: 'hours' },
    { id: 'charge', label: 'Charge', kind: 'sum', field: 'charge', where: FILLED, format: 'money' },
  ],
  filters: ['client_id', 'site_id'],
  // The agency's unit (its own organisation): offered to those who may list units, never to client users.
  pathFilters: unitFilter,
  defaultSort: { by: 'week', order: 'asc' },
  chart: { dimension: 'week', measures: ['charge'], kind: 'bar' },
};

/*
 * The Invoice Report (issue 34; docs/decisions.md "Issue 34 — the invoice report"): the agency's own books, over the
 * invoices list. An invoice's balance is what is left to pay, as the product keeps it: its total, less what credit
 * notes took off (`credited`, negative) and what payments paid (`paid`; a reversed payment's allocation takes it
 * back): balanceOf in core/domain/invoicing/settlement.ts, the list's computed `balance`. Admins and consultants read
 * it (consultants read invoices, and nothing here is pay or margin); client users never (not their report).
 */

/**
 * The aged debt's buckets: days past the due date on the agency's clock. Due today or later is current (not yet
 * overdue, as isOverdue says); a day late is 1–30; 30 days late is still 1–30, 31 is 31–60; 90 is 61–90, 91 over 90.
 */
export const AGE_BUCKETS: readonly { id: string; label: string; daysPast: DaysPast }[] = [
  { id: 'current', label: 'Current', daysPast: { max: 0 } },
  { id: 'days_1_30', label: '1–30 days', daysPast: { min: 1, max: 30 } },
  { id: 'days_31_60', label: '31–60 days', daysPast: { min: 31, max: 60 } },
  { id: 'days_61_90', label: '61–90 days', daysPast: { min: 61, max: 90 } },
  { id: 'days_over_90', label: 'Over 90 days', daysPast: { min: 91 } },
];

/** The bucket of a debt so many days past due (what the SQL's conditions count, in TypeScript). */
export const ageBucketOf = (days: number) =>
  AGE_BUCKETS.find((b) => (b.daysPast.min ?? -Infinity) <= days && days <= (b.daysPast.max ?? Infinity))!.id;

const INVOICE_ROLES = ['admin', 'consultant'] as const;

/**
 * Aged debt: what each client owes today on its issued invoices, by how long past due. As of the agency's today
 * (no period: every invoice still owing, whenever it was issued).
 */
export const agedDebtReport: ReportDeclaration = {
  name: 'aged_debt',
  label: 'Aged debt',
  description:
    'What each client still owes on issued invoices today, after credit notes and payments, by days past the due date.',
  resource: 'invoices',
  roles: INVOICE_ROLES,
  exportRoles: INVOICE_ROLES,
  where: [
    { field: 'state', in: OPEN_STATES },
    { field: 'balance', gt: 0 },
  ],
  dimensions: [
    { id: 'client', label: 'Client', field: 'client_id' },
    { id: 'site', label: 'Site', field: 'site_id' },
  ],
  defaultGroup: ['client'],
  measures: [
    { id: 'invoices', label: 'Invoices', kind: 'count' },
    ...AGE_BUCKETS.map((b): ReportMeasure => ({
      id: b.id,
      label: b.label,
      kind: 'sum',
      field: 'balance',
      where: [{ field: 'due_date', daysPast: b.daysPast }],
      format: 'money',
    })),
    {
      id: 'overdue',
      label: 'Overdue',
      kind: 'sum',
      field: 'balance',
      where: [{ field: 'due_date', daysPast: { min: 1 } }],
      format: 'money',
    },
    { id: 'outstanding', label: 'Outstanding', kind: 'sum', field: 'balance', format: 'money' },
  ],
  filters: ['client_id', 'site_id'],
  pathFilters: unitFilter,
  defaultSort: { by: 'outstanding', order: 'desc' },
  route: '/report/InvoiceReport',
};

/**
 * Invoiced: the invoices issued in a period (by their issue date), what they billed (net, VAT, total), what credit
 * notes have taken off them since (negative), what was paid against them and what is still owed.
 */
export const invoicedReport: ReportDeclaration = {
  name: 'invoiced',
  label: 'Invoiced',
  description:
    'Invoices issued in the period: net, VAT and total billed, what credit notes took off, what was paid and what is still owed.',
  resource: 'invoices',
  roles: INVOICE_ROLES,
  exportRoles: INVOICE_ROLES,
  where: [{ field: 'state', in: ISSUED_STATES }],
  period: { field: 'issue_date', label: 'Invoices issued', default: 'this_month' },
  dimensions: [
    { id: 'client', label: 'Client', field: 'client_id' },
    { id: 'site', label: 'Site', field: 'site_id' },
    ...byDate('issue_date'),
  ],
  defaultGroup: ['client'],
  measures: [
    { id: 'invoices', label: 'Invoices', kind: 'count' },
    { id: 'net', label: 'Net', kind: 'sum', field: 'net', format: 'money' },
    { id: 'vat', label: 'VAT', kind: 'sum', field: 'vat', format: 'money' },
    { id: 'total', label: 'Invoiced', kind: 'sum', field: 'total', format: 'money' },
    { id: 'credited', label: 'Credited', kind: 'sum', field: 'credited', format: 'money' },
    { id: 'paid', label: 'Paid', kind: 'sum', field: 'paid', format: 'money' },
    { id: 'outstanding', label: 'Outstanding', kind: 'sum', field: 'balance', format: 'money' },
  ],
  filters: ['client_id', 'site_id'],
  pathFilters: unitFilter,
  defaultSort: { by: 'total', order: 'desc' },
  chart: { dimension: 'week', measures: ['total'], kind: 'bar' },
  route: '/report/InvoiceReport?view=invoiced',
};

/**
 * VAT by rate, for the VAT return: by tax point, the lines of invoices issued in the period (any state once issued,
 * by the invoice's issue date) and the lines of credit notes issued in it (by the note's own issue date, negative as
 * kept), per VAT rate and treatment: their net (the return's box 6, net sales, exempt included) and VAT (box 1,
 * output VAT). The periods are calendar quarters by default (the commonest VAT stagger); another stagger is a custom
 * period.
 */
export const vatReport: ReportDeclaration = {
  name: 'vat',
  label: 'VAT by rate',
  description:
    'The lines of invoices issued in the period, less credit notes issued in it, by VAT rate: net sales (box 6) and output VAT (box 1).',
  resource: 'invoice_lines',
  sources: [
    {
      resource: 'invoice_lines',
      where: [{ field: 'invoice_id.state', in: ISSUED_STATES }],
      period: 'invoice_id.issue_date',
    },
    { resource: 'credit_note_lines', period: 'credit_note_id.issue_date' },
  ],
  roles: INVOICE_ROLES,
  exportRoles: INVOICE_ROLES,
  period: {
    field: 'invoice_id.issue_date',
    label: 'Issued (tax point)',
    default: 'this_quarter',
    presets: ['this_quarter', 'last_quarter', 'this_month', 'last_month', 'this_tax_year', 'custom'],
  },
  dimensions: [
    { id: 'rate', label: 'VAT rate', field: 'vat_rate', basisPoints: true },
    { id: 'treatment', label: 'VAT treatment', field: 'vat_treatment' },
  ],
  defaultGroup: ['rate', 'treatment'],
  measures: [
    { id: 'net', label: 'Net sales', kind: 'sum', field: 'net', format: 'money' },
    { id: 'vat', label: 'Output VAT', kind: 'sum', field: 'vat', format: 'money' },
  ],
  filters: [],
  defaultSort: { by: 'rate', order: 'desc' },
  route: '/report/InvoiceReport?view=vat',
};

/** The Invoice Report's views, in the order of its tabs (the first when none is asked). */
export const INVOICE_REPORT_VIEWS: readonly ReportDeclaration[] = [agedDebtReport, invoicedReport, vatReport];

/** Every declared report: the server serves each, the screens draw them. */
export const REPORT_DECLARATIONS: readonly ReportDeclaration[] = [
  clientReport,
  staffReport,
  staffStandingReport,
  businessUnitReport,
  clientSpendReport,
  agedDebtReport,
  invoicedReport,
  vatReport,
];

export const reportByName = new Map(REPORT_DECLARATIONS.map((r) => [r.name, r]));
