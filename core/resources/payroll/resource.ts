import type { Action, FieldDeclaration as Field, ResourceDeclaration, Role } from '../../engine/types';
import { ADJUSTMENT_KINDS, deductionResources } from './deductions';
import { selfBillingAgreements } from './selfBillingAgreements';

/*
 * Pay runs and payslips (issue 33.2) on the engine for money documents (issue 31), as invoices are: a run's payslips
 * are its lines and a payslip's pay lines are its own, totalled by rollups, locked once the run is approved (the
 * payslips) and finalised (everything), each payslip's PDF kept as finalised. The server only fills what the domain
 * rules decide (core/domain/payroll: payslipOf, taxPeriodOf).
 *
 * Engine routes (these declarations), besides CRUD:
 *   POST /api/pay_runs/actions/generate         { frequency, from, to, candidate_ids?, preview?, background? } the
 *                                               run's payslips; a large run (or background) is a job: 202 { run_id,
 *                                               job_id, staff }
 *   POST /api/pay_runs/:id/actions/resume       a run's job taken up again now (after a killed worker)
 *   POST /api/pay_runs/:id/actions/approve      draft → approved (its payslips can no longer change)
 *   POST /api/pay_runs/:id/actions/finalise     approved → finalised: each payslip finalised, its PDF kept
 *   POST /api/pay_runs/:id/actions/cancel       { reason } draft → cancelled: its lines released for another run
 *   GET  /api/payslips/:id/pdf                  the payslip, as kept at finalising once finalised
 *   GET  /api/pay_runs/:id/files/bureau         an approved or finalised run's files (admins, exports/payroll.ts):
 *   GET  /api/pay_runs/:id/files/bank           the payroll bureau's CSV, the bank payments file (BACS Standard 18),
 *   GET  /api/pay_runs/:id/files/self-billing   the umbrella and limited-company workers' self-billed invoices
 *
 * Who reads what (docs/decisions.md, "Issue 33.2 — pay runs"): the agency's admins do everything; its consultants
 * read runs and payslips (they answer staff's questions about pay) but neither run, approve nor finalise; a staff
 * member reads their own finalised payslips (the phone page); client users never see payroll (403: no role of theirs
 * is granted).
 */

export const PAY_RUN_STATES = [
  { id: 'draft', name: 'Draft' },
  { id: 'approved', name: 'Approved' },
  { id: 'finalised', name: 'Finalised' },
  { id: 'cancelled', name: 'Cancelled' },
];

export const PAY_FREQUENCIES = [
  { id: 'weekly', name: 'Weekly' },
  { id: 'monthly', name: 'Monthly' },
];

/**
 * The payroll report's tabs (/report/PayrollReport/…): what was paid (finalised runs), what is about to be (approved),
 * what is still being prepared (drafts). A cancelled run's payslips pay nothing and are in none.
 */
export const PAYROLL_REPORT_TABS = [
  { id: 'finalised', label: 'Finalised', filter: { run_state: 'finalised' }, path: '/report/PayrollReport/finalised' },
  { id: 'approved', label: 'Approved', filter: { run_state: 'approved' }, path: '/report/PayrollReport/approved' },
  { id: 'draft', label: 'Draft', filter: { run_state: 'draft' }, path: '/report/PayrollReport/draft' },
];

export const PAYSLIP_STATES = [
  { id: 'draft', name: 'Draft' },
  { id: 'finalised', name: 'Finalised' },
];

/** Where a finalised payslip's e-mail to its staff member is (server/services/payslipDelivery.ts). */
export const PAYSLIP_EMAIL_STATES = [
  { id: 'queued', name: 'Being sent' },
  { id: 'sent', name: 'Sent' },
  { id: 'failed', name: 'Not sent: the mail server refused it' },
  { id: 'not_sent', name: 'Not sent: no e-mail address' },
];

export const PAYSLIP_LINE_KINDS = [
  { id: 'pay', name: 'Pay' },
  { id: 'holiday', name: 'Holiday pay' },
  { id: 'sleep_in', name: 'Sleep-in' },
  { id: 'late_cancellation', name: 'Late cancellation' },
  { id: 'adjustment', name: 'Adjustment' },
  { id: 'deduction', name: 'Deduction' },
];

const AGENCY: Role[] = ['admin', 'consultant'];
const WITH_STAFF: Role[] = ['admin', 'consultant', 'staff'];
const read: Action[] = ['list', 'show'];

const money = (source: string, label: string, extra: Partial<Field> = {}): Field => ({
  source,
  type: 'money',
  label,
  readOnly: true,
  defaultValue: 0,
  readableBy: WITH_STAFF,
  ...extra,
});

export const payRuns: ResourceDeclaration = {
  name: 'pay_runs',
  table: 'pay_runs',
  label: { one: 'Pay run', many: 'Pay runs' },
  recordRepresentation: 'Pay run %{period_start} to %{period_end}',
  defaultSort: { field: 'period_end', order: 'DESC' },
  // Never deleted: a draft not wanted is cancelled with a reason and its lines released.
  delete: 'hard',
  access: { admin: [...read, 'export'], consultant: read },
  routes: { list: '/invoice/staff-payroll', show: '/invoice/staff-payroll/run/:id' },
  tabs: [
    { id: 'draft', label: 'Draft', filter: { state: 'draft' }, path: '/invoice/staff-payroll/draft' },
    { id: 'approved', label: 'Approved', filter: { state: 'approved' }, path: '/invoice/staff-payroll/approved' },
    { id: 'finalised', label: 'Finalised', filter: { state: 'finalised' }, path: '/invoice/staff-payroll/finalised' },
    { id: 'cancelled', label: 'Cancelled', filter: { state: 'cancelled' }, path: '/invoice/staff-payroll/cancelled' },
  ],
  lifecycle: {
    field: 'state',
    final: ['finalised', 'cancelled'],
    transitions: [
      { action: 'approve', from: ['draft'], to: 'approved' },
      { action: 'finalise', from: ['approved'], to: 'finalised' },
      { action: 'cancel', from: ['draft'], to: 'cancelled' },
    ],
  },
  actions: [
    {
      // A pay run (server/services/payroll.ts): preview: true answers the payslips it would make, with their lines
      // and gross to net, and the lines held back and why, and takes nothing; otherwise { run_id, payslips: [id…],
      // lines: n }, or for a large run (or background: true) 202 { run_id, job_id, staff }.
      name: 'generate',
      label: 'Generate a pay run',
      icon: 'playlist_add',
      roles: ['admin'],
      collection: true,
      success: 'Pay run made',
      input: [
        { source: 'frequency', type: 'choice', label: 'Paid', required: true, choices: PAY_FREQUENCIES },
        { source: 'from', type: 'date', label: 'From', required: true },
        { source: 'to', type: 'date', label: 'To (the pay day)', required: true },
        { source: 'candidate_ids', type: 'references', reference: 'candidates', label: 'Staff (all when empty)' },
        { source: 'preview', type: 'boolean', label: 'Only show what it would pay' },
        { source: 'background', type: 'boolean', label: 'As a job with progress, whatever its size' },
      ],
    },
    {
      name: 'approve',
      label: 'Approve',
      icon: 'task_alt',
      roles: ['admin'],
      confirm: 'Approve %{name}? Its payslips can then no longer change.',
      success: 'Pay run approved',
      guard: (r) =>
        r.finished_at == null
          ? 'This pay run is still being made: approve it once every staff member is paid.'
          : Number(r.staff_count) > 0
            ? null
            : 'This pay run pays nobody.',
    },
    {
      // A run's job goes on by itself once its worker's lease runs out (a killed process); this takes it up now, and
      // a run that failed for good (its attempts used) is tried again. Paying again is harmless: each step pays only
      // what is not yet paid (server/services/payroll.ts, payRunJob).
      name: 'resume',
      label: 'Resume',
      icon: 'play_arrow',
      roles: ['admin'],
      success: 'Run resumed',
      guard: (r) => (r.finished_at || r.state !== 'draft' ? 'This run has finished.' : null),
    },
    {
      name: 'finalise',
      label: 'Finalise',
      icon: 'lock',
      roles: ['admin'],
      confirm: 'Finalise %{name}? Each payslip is kept as it is now and can never change.',
      success: 'Pay run finalised',
    },
    {
      name: 'cancel',
      label: 'Cancel',
      icon: 'block',
      danger: true,
      roles: ['admin'],
      success: 'Pay run cancelled',
      input: [{ source: 'reason', type: 'longtext', label: 'Why it is cancelled', required: true, maxLength: 2000 }],
      patch: (_r, input) => ({ cancel_reason: input.reason }),
    },
    // No route or button: the name of the history's entry for each of the run's files exported (GET
    // /api/pay_runs/:id/files/{bureau,bank,self-billing}, server/exports/payroll.ts).
    { name: 'file_exported', label: 'File exported', roles: [], success: 'Exported' },
  ],
  fields: [
    { source: 'period_start', type: 'date', label: 'From', required: true, createOnly: true, sortable: true },
    { source: 'period_end', type: 'date', label: 'To', required: true, createOnly: true, sortable: true },
    {
      source: 'frequency',
      type: 'choice',
      label: 'Paid',
      choices: PAY_FREQUENCIES,
      required: true,
      createOnly: true,
      filter: true,
    },
    // The tax year and period of the pay day (taxPeriodOf), which every payslip of the run is taxed in.
    { source: 'tax_year', type: 'text', label: 'Tax year', readOnly: true, views: ['show'] },
    { source: 'tax_period', type: 'number', integer: true, label: 'Tax period', readOnly: true, views: ['show'] },
    {
      source: 'state',
      type: 'choice',
      label: 'State',
      choices: PAY_RUN_STATES,
      required: true,
      defaultValue: 'draft',
      filter: true,
    },
    // Kept from the payslips in every write (parent.lines.rollups of payslips).
    { source: 'staff_count', type: 'number', integer: true, label: 'Staff', readOnly: true, defaultValue: 0 },
    { source: 'gross', type: 'money', label: 'Gross', readOnly: true, defaultValue: 0, sortable: true },
    { source: 'net', type: 'money', label: 'Net', readOnly: true, defaultValue: 0 },
    { source: 'employer_costs', type: 'money', label: 'Employer costs', readOnly: true, defaultValue: 0 },
    // VAT paid on top of gross to VAT-registered umbrella and limited companies (self-billed): input tax the agency
    // reclaims, so apart from employer costs.
    { source: 'vat', type: 'money', label: 'VAT', readOnly: true, defaultValue: 0 },
    { source: 'started_by', type: 'text', label: 'Started by', readOnly: true, views: ['show'] },
    // Being made until its last staff member is paid; stopped when its job used its attempts (Resume tries again).
    {
      source: 'progress',
      type: 'choice',
      label: 'Progress',
      computed: true,
      readOnly: true,
      views: ['show'],
      choices: [
        { id: 'running', name: 'Being made' },
        { id: 'done', name: 'Made' },
        { id: 'failed', name: 'Stopped' },
      ],
    },
    // The staff with something to pay when the run started, in the order it pays them, a batch at a time.
    {
      source: 'candidates',
      type: 'references',
      reference: 'candidates',
      label: 'Staff to pay',
      readOnly: true,
      views: [],
    },
    { source: 'candidates_done', type: 'number', integer: true, label: 'Staff done', readOnly: true, views: ['show'] },
    {
      source: 'staff_total',
      type: 'number',
      integer: true,
      label: 'Of',
      computed: true,
      readOnly: true,
      views: ['show'],
    },
    { source: 'job_id', type: 'number', integer: true, label: 'Job', readOnly: true, views: [] },
    { source: 'finished_at', type: 'datetime', label: 'Made in full', readOnly: true, views: ['show'] },
    { source: 'cancel_reason', type: 'longtext', label: 'Cancelled because', readOnly: true, views: ['show'] },
    { source: 'created_at', type: 'datetime', label: 'Made', readOnly: true, views: ['show'] },
  ],
};

export const payslips: ResourceDeclaration = {
  name: 'payslips',
  unitScope: { none: 'a payslip pays a staff member for work at any client: staff work across units' },
  table: 'payslips',
  label: { one: 'Payslip', many: 'Payslips' },
  recordRepresentation: 'Payslip %{id}',
  defaultSort: { field: 'id', order: 'DESC' },
  delete: 'hard',
  parent: {
    resource: 'pay_runs',
    field: 'pay_run_id',
    onDelete: 'refuse',
    tab: 'payslips',
    // Made by the run while it is a draft; each finalised (its PDF kept) by the run's own finalising.
    lines: {
      editableIn: ['draft'],
      // E-mailed again once its run is finalised (its own state is finalised too).
      actionsIn: { finalise: ['approved'], resend_email: ['finalised'] },
      rollups: {
        staff_count: { count: 'all' },
        gross: { sum: 'gross' },
        net: { sum: 'net' },
        employer_costs: { sum: 'employer_cost' },
        vat: { sum: 'vat' },
      },
    },
  },
  staffScope: 'candidate_id',
  access: { admin: [...read, 'export'], consultant: read, staff: read },
  // The list is the payroll report (docs/decisions.md, "Issue 33 — the payroll report"): a payslip a row, chosen by
  // run, pay day, staff member, employment type and client, the figures of every matching row totalled beneath.
  routes: { list: '/report/PayrollReport', show: '/invoice/staff-payroll/StaffPayrollView/:id' },
  tabs: PAYROLL_REPORT_TABS,
  listTotals: ['hours', 'gross', 'holiday_pay', 'deductions', 'tax', 'employee_ni', 'employer_cost', 'net', 'vat'],
  documents: [{ template: 'payslip', label: 'Payslip', keptFrom: 'finalise', keptForStaff: true }],
  lifecycle: {
    field: 'state',
    final: ['finalised'],
    // E-mailing a finalised payslip again changes nothing of it but the address it went to.
    transitions: [
      { action: 'finalise', from: ['draft'], to: 'finalised' },
      { action: 'resend_email', from: ['finalised'] },
    ],
  },
  actions: [
    { name: 'finalise', label: 'Finalised with its run', roles: [], success: 'Payslip finalised' },
    {
      // server/services/payslipDelivery.ts resendPayslip: to the staff member's address as it is now (refused in words
      // while they have none), the kept staff copy attached, as finalising sent it.
      name: 'resend_email',
      label: 'E-mail it again',
      icon: 'send',
      roles: ['admin'],
      confirm: 'E-mail %{name} again to the staff member’s e-mail address as it is now?',
      success: 'Payslip e-mailed again',
    },
    {
      // A one-off addition or deduction while the run is a draft (server/behaviours/payroll.ts): an adjustment line,
      // and the payslip's gross to net worked out again. Refused in words once the run is approved or finalised: a
      // correction then waits for the next run (payroll_adjustments).
      name: 'adjust',
      label: 'Add an adjustment',
      icon: 'edit_note',
      roles: ['admin'],
      success: 'Adjustment added',
      input: [
        { source: 'kind', type: 'choice', label: 'Adjustment', required: true, choices: ADJUSTMENT_KINDS },
        { source: 'amount', type: 'money', label: 'Amount', required: true, min: 0.01, max: 100000 },
        { source: 'reason', type: 'text', label: 'Reason', required: true, maxLength: 300 },
      ],
    },
  ],
  fields: [
    {
      source: 'pay_run_id',
      type: 'reference',
      reference: 'pay_runs',
      label: 'Pay run',
      required: true,
      createOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
      // The pay day beside it names the run; the report fits a laptop without it.
      listHidden: true,
    },
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      required: true,
      createOnly: true,
      filter: true,
      onDelete: 'refuse',
      readableBy: WITH_STAFF,
    },
    {
      source: 'state',
      type: 'choice',
      label: 'State',
      choices: PAYSLIP_STATES,
      required: true,
      defaultValue: 'draft',
      filter: true,
      readableBy: WITH_STAFF,
      // The report's tab says it; the column chooser offers it.
      listHidden: true,
    },
    {
      source: 'period_start',
      type: 'date',
      label: 'From',
      readOnly: true,
      sortable: true,
      readableBy: WITH_STAFF,
      listHidden: true,
    },
    {
      source: 'period_end',
      type: 'date',
      label: 'To (pay day)',
      readOnly: true,
      sortable: true,
      filter: true,
      readableBy: WITH_STAFF,
    },
    // The report's choices (server/behaviours/payroll.ts): the run's state, the staff member's employment type and
    // the clients whose timesheet lines the payslip pays.
    {
      source: 'run_state',
      type: 'choice',
      label: 'Run',
      choices: PAY_RUN_STATES,
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY,
      views: [],
    },
    {
      source: 'employment_type_id',
      type: 'reference',
      reference: 'employment_types',
      label: 'Employment type',
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY,
      views: ['list'],
      // Offered by the column chooser (and a filter): the figures fill a laptop's width.
      listHidden: true,
    },
    {
      source: 'client_ids',
      type: 'references',
      reference: 'clients',
      label: 'Client',
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY,
      views: [],
    },
    {
      source: 'clients',
      type: 'text',
      label: 'Clients',
      computed: true,
      readOnly: true,
      readableBy: AGENCY,
      views: ['list'],
      // Offered by the column chooser: the list of names would take the laptop's width from the figures.
      listHidden: true,
    },
    // The hours of the pay lines (the time worked and paid), beside the pay they make.
    {
      source: 'hours',
      type: 'number',
      label: 'Hours',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['list'],
    },
    { source: 'paye', type: 'boolean', label: 'PAYE', readOnly: true, readableBy: WITH_STAFF, views: ['show'] },
    { source: 'tax_code', type: 'text', label: 'Tax code', readOnly: true, readableBy: WITH_STAFF, views: ['show'] },
    // The run's tax period (server/behaviours/payroll.ts): a payslip says when it is week 53 (taxed on a week 1
    // basis).
    {
      source: 'tax_period',
      type: 'number',
      integer: true,
      label: 'Tax period',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    {
      source: 'week1',
      type: 'boolean',
      label: 'Week 1 / month 1',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    {
      source: 'ni_category',
      type: 'text',
      label: 'NI category',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    // An umbrella or limited-company worker's pay goes gross to their company, named as it was when paid.
    { source: 'paid_to', type: 'text', label: 'Paid to', readOnly: true, readableBy: WITH_STAFF, views: ['show'] },
    // The company's details as the run paid it (a later change on the staff record changes no payslip), which its
    // self-billed invoice carries; a VAT number means VAT on top of the gross (docs/decisions.md, "Issue 33 — VAT on
    // self-billed pay").
    {
      source: 'company_number',
      type: 'text',
      label: 'Company number',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    {
      source: 'company_address',
      type: 'text',
      label: 'Company address',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    {
      source: 'vat_number',
      type: 'text',
      label: 'VAT number',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    // Basis points of the standard rate on the pay day (2000 is 20%); empty without VAT.
    {
      source: 'vat_rate',
      type: 'number',
      integer: true,
      label: 'VAT rate (basis points)',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: [],
    },
    money('gross', 'Gross'),
    money('holiday_pay', 'Holiday pay', { views: ['list', 'show'] }),
    // Employment types that accrue holiday: hours banked by this payslip's work and taken on it (their balance).
    {
      source: 'holiday_hours_accrued',
      type: 'number',
      label: 'Holiday accrued (hours)',
      readOnly: true,
      defaultValue: 0,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    {
      source: 'holiday_hours_taken',
      type: 'number',
      label: 'Holiday taken (hours)',
      readOnly: true,
      defaultValue: 0,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    money('tax', 'Tax'),
    money('employee_ni', 'Employee NI'),
    money('employer_ni', 'Employer NI', { readableBy: AGENCY, views: ['show'] }),
    money('student_loan', 'Student loan', { views: ['show'] }),
    money('pension_employee', 'Pension (staff member)', { views: ['show'] }),
    money('pension_employer', 'Pension (employer)', { views: ['show'] }),
    // Staff deductions and adjustments' deductions taken off (net = gross − tax − NI − loan − pension − deductions).
    money('deductions', 'Deductions'),
    money('net', 'Net'),
    // The run's VAT and what it pays each staff member (net pay, with the VAT of a VAT-registered company): the report
    // totals the VAT; its column is offered by the chooser (the figures fill a laptop's width).
    money('vat', 'VAT', { views: ['list', 'show'], listHidden: true }),
    money('amount_paid', 'Paid (net pay + VAT)', { views: ['show'] }),
    // Gross less the deductions taken before tax: what PAYE taxed, and the year to date cumulative tax reads.
    money('taxable_pay', 'Taxable pay', { views: ['show'] }),
    // Employer NI and the employer's pension: what the run costs beyond gross.
    money('employer_cost', 'Employer costs', { readableBy: AGENCY, views: ['list', 'show'] }),
    money('ytd_gross', 'Gross to date', { views: ['show'] }),
    money('ytd_tax', 'Tax to date', { views: ['show'] }),
    money('ytd_employee_ni', 'Employee NI to date', { views: ['show'] }),
    // E-mailed to the staff member with its kept PDF when its run is finalised (docs/decisions.md, "Issue 33 —
    // payslips delivered"): the address it went to, and where its e-mail is (not sent, in words, without one).
    {
      source: 'email_status',
      type: 'choice',
      label: 'E-mail',
      choices: PAYSLIP_EMAIL_STATES,
      computed: true,
      readOnly: true,
      readableBy: AGENCY,
      views: ['list', 'show'],
      // The run's payslips show it; the payroll report's column chooser offers it.
      listHidden: true,
    },
    { source: 'emailed_to', type: 'email', label: 'E-mailed to', readOnly: true, readableBy: AGENCY, views: ['show'] },
  ],
};

export const payslipLines: ResourceDeclaration = {
  name: 'payslip_lines',
  unitScope: { none: 'lines of a payslip, which is not limited by unit' },
  table: 'payslip_lines',
  label: { one: 'Payslip line', many: 'Payslip lines' },
  recordRepresentation: '%{description}',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  parent: {
    resource: 'payslips',
    field: 'payslip_id',
    onDelete: 'refuse',
    tab: 'lines',
    lines: { editableIn: ['draft'] },
  },
  staffScope: 'payslip_id.candidate_id',
  access: { admin: read, consultant: read, staff: read },
  fields: [
    {
      source: 'payslip_id',
      type: 'reference',
      reference: 'payslips',
      label: 'Payslip',
      required: true,
      createOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
    },
    {
      source: 'kind',
      type: 'choice',
      label: 'Kind',
      choices: PAYSLIP_LINE_KINDS,
      required: true,
      createOnly: true,
      readableBy: WITH_STAFF,
    },
    {
      source: 'description',
      type: 'text',
      label: 'Description',
      required: true,
      maxLength: 300,
      readableBy: WITH_STAFF,
    },
    { source: 'work_date', type: 'date', label: 'Date', createOnly: true, readableBy: WITH_STAFF },
    { source: 'hours', type: 'number', label: 'Hours', min: 0, max: 10000, createOnly: true, readableBy: WITH_STAFF },
    // Pence an hour for pay; basis points of pay for rolled-up holiday pay.
    { source: 'rate', type: 'number', integer: true, label: 'Rate', createOnly: true, readableBy: WITH_STAFF },
    { source: 'amount', type: 'money', label: 'Amount', required: true, createOnly: true, readableBy: WITH_STAFF },
    // The timesheet line it pays: paid once among the lines not released (a partial unique index, migration 100).
    {
      source: 'timesheet_line_id',
      type: 'reference',
      reference: 'timesheet_lines',
      label: 'Timesheet line',
      createOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    // What a deduction line takes, what an adjustment line makes.
    {
      source: 'staff_deduction_id',
      type: 'reference',
      reference: 'staff_deductions',
      label: 'Staff deduction',
      createOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    {
      source: 'payroll_adjustment_id',
      type: 'reference',
      reference: 'payroll_adjustments',
      label: 'Adjustment',
      createOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    // The late-cancelled shift it pays, and the holiday taken it pays: each paid once among the lines not released
    // (partial unique indexes, migration 113).
    {
      source: 'cancelled_shift_id',
      type: 'reference',
      reference: 'shifts',
      label: 'Cancelled shift',
      createOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    {
      source: 'staff_holiday_id',
      type: 'reference',
      reference: 'staff_holidays',
      label: 'Holiday taken',
      createOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    // Set when its run is cancelled: its timesheet line may then be paid by another run.
    {
      source: 'released_at',
      type: 'datetime',
      label: 'Released',
      readOnly: true,
      readableBy: AGENCY,
      views: ['show'],
    },
  ],
};

export const STAFF_HOLIDAY_STATES = [
  { id: 'booked', name: 'Booked' },
  { id: 'paid', name: 'Paid' },
  { id: 'cancelled', name: 'Cancelled' },
];

/**
 * Holiday a staff member takes, where their employment type accrues holiday (issue 33): recorded by the agency on
 * their profile, paid once by the first pay run whose period holds its first day while their balance covers it (the
 * reference period's average hourly pay, core/domain/payroll/holidayPay.ts), and marked paid when that run is
 * finalised. A booking not taken is cancelled while booked.
 */
export const staffHolidays: ResourceDeclaration = {
  name: 'staff_holidays',
  table: 'staff_holidays',
  label: { one: 'Holiday taken', many: 'Holiday taken' },
  recordRepresentation: 'Holiday from %{starts_on}',
  defaultSort: { field: 'starts_on', order: 'DESC' },
  delete: 'hard',
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'refuse', tab: 'holiday' },
  staffScope: 'candidate_id',
  access: { admin: ['list', 'show', 'create', 'edit'], consultant: read, staff: read },
  lifecycle: {
    field: 'state',
    final: ['paid', 'cancelled'],
    transitions: [
      { action: 'cancel', from: ['booked'], to: 'cancelled' },
      { action: 'mark_paid', from: ['booked'], to: 'paid' },
    ],
  },
  rules: (r): Record<string, string> =>
    typeof r.starts_on === 'string' && typeof r.ends_on === 'string' && r.ends_on < r.starts_on
      ? { ends_on: 'Ends before it starts.' }
      : {},
  actions: [
    {
      name: 'cancel',
      label: 'Cancel',
      icon: 'block',
      danger: true,
      roles: ['admin'],
      confirm: 'Cancel %{name}? It is then never paid.',
      success: 'Holiday cancelled',
    },
    // Run by a pay run's finalising, as a set (never served: no role has it).
    { name: 'mark_paid', label: 'Paid', roles: [], success: 'Holiday paid' },
  ],
  fields: [
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      required: true,
      createOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
    },
    {
      source: 'starts_on',
      type: 'date',
      label: 'From',
      required: true,
      sortable: true,
      date: { min: '-1y', max: '+2y' },
      readableBy: WITH_STAFF,
    },
    {
      source: 'ends_on',
      type: 'date',
      label: 'To',
      required: true,
      date: { min: '-1y', max: '+2y' },
      readableBy: WITH_STAFF,
    },
    {
      source: 'hours',
      type: 'number',
      label: 'Hours taken',
      required: true,
      min: 0.01,
      max: 400,
      readableBy: WITH_STAFF,
      helperText: 'Paid from the holiday balance, at the average hourly pay of the 52 weeks before it.',
    },
    {
      source: 'note',
      type: 'longtext',
      label: 'Note',
      maxLength: 1000,
      readableBy: WITH_STAFF,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'state',
      type: 'choice',
      label: 'State',
      choices: STAFF_HOLIDAY_STATES,
      required: true,
      defaultValue: 'booked',
      filter: true,
      readableBy: WITH_STAFF,
    },
    { source: 'recorded_by', type: 'text', label: 'Recorded by', readOnly: true, views: ['show'] },
  ],
};

export const payrollResources: ResourceDeclaration[] = [
  payRuns,
  payslips,
  payslipLines,
  ...deductionResources,
  staffHolidays,
  selfBillingAgreements,
];
