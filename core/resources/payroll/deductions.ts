import type { Action, ResourceDeclaration, Role } from '../../engine/types';

/*
 * A staff member's deductions and one-off pay adjustments (issue 33), taken by pay runs (server/services/payroll.ts
 * through core/domain/payroll/deductions.ts). A deduction is the agency's setting for one staff member
 * (/appsetting/staff-deduction, and the profile's Deductions tab); an adjustment is made on a draft run's payslip
 * (POST /api/payslips/:id/actions/adjust, /invoice/StaffPayrollViewEdit/{id}) or, once the run is approved or
 * finalised, recorded here for the staff member and taken by their next pay run (a correction). Pay is the agency's:
 * admins write, consultants read, client users and staff members see none (docs/decisions.md, "Issue 33 —
 * deductions and adjustments").
 */

const AGENCY: Role[] = ['admin', 'consultant'];
const read: Action[] = ['list', 'show'];

export const DEDUCTION_METHODS = [
  { id: 'fixed', name: 'Fixed amount' },
  { id: 'percent', name: 'Percentage of gross pay' },
];

export const ADJUSTMENT_KINDS = [
  { id: 'addition', name: 'Addition to gross pay' },
  { id: 'deduction', name: 'Deduction from net pay' },
];

const candidate = {
  source: 'candidate_id',
  type: 'reference' as const,
  reference: 'candidates',
  label: 'Staff member',
  required: true,
  createOnly: true,
  filter: true,
};

export const staffDeductions: ResourceDeclaration = {
  name: 'staff_deductions',
  table: 'staff_deductions',
  label: { one: 'Staff deduction', many: 'Staff deductions' },
  recordRepresentation: '%{description}',
  defaultSort: { field: 'start_date', order: 'DESC' },
  // Deleting one a payslip took is refused (its lines refer to it): give it an end date instead.
  delete: 'hard',
  access: { admin: [...read, 'create', 'edit', 'delete', 'export'], consultant: read },
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide', tab: 'deductions' },
  routes: {
    list: '/appsetting/staff-deduction',
    create: '/appsetting/staff-deduction/create',
    edit: '/appsetting/staff-deduction/:id',
    show: '/appsetting/staff-deduction/:id/show',
  },
  rules: (r) => {
    const out: Record<string, string> = {};
    if (r.method === 'fixed' && !(Number(r.amount) > 0)) out.amount = 'Give the amount taken each pay day.';
    if (r.method === 'percent' && !(Number(r.percent) > 0)) out.percent = 'Give the percentage of gross pay taken.';
    if (typeof r.end_date === 'string' && typeof r.start_date === 'string' && r.end_date < r.start_date)
      out.end_date = 'The last day is before the first.';
    return out;
  },
  fields: [
    { ...candidate, readableBy: AGENCY },
    {
      source: 'description',
      type: 'text',
      label: 'What for',
      required: true,
      maxLength: 100,
      sortable: true,
      helperText: 'As the payslip shows it, e.g. Uniform loan.',
    },
    { source: 'method', type: 'choice', label: 'Taken as', required: true, choices: DEDUCTION_METHODS, filter: true },
    { source: 'amount', type: 'money', label: 'Amount each pay day', min: 0, max: 100000 },
    { source: 'percent', type: 'number', label: 'Percentage of gross pay', min: 0, max: 100, listHidden: true },
    {
      source: 'before_tax',
      type: 'boolean',
      label: 'Before tax',
      defaultValue: false,
      // The list fits its settings page at 1366 px (the layout sweep measured 955 px of table in its box): whether it
      // is before tax, taken every pay day and until when are offered by the column chooser.
      listHidden: true,
      helperText: 'Off taxable pay (a net pay arrangement); National Insurance is still due on the whole pay.',
    },
    {
      source: 'recurring',
      type: 'boolean',
      label: 'Every pay day',
      defaultValue: true,
      listHidden: true,
      helperText: 'Off: taken once.',
    },
    {
      source: 'start_date',
      type: 'date',
      label: 'From',
      required: true,
      sortable: true,
      date: { min: '-10y', max: '+10y' },
    },
    {
      source: 'end_date',
      type: 'date',
      label: 'Until',
      sortable: true,
      listHidden: true,
      date: { min: '-10y', max: '+10y', clearable: true },
      helperText: 'The last day it applies to; empty while it goes on.',
    },
    {
      source: 'cap',
      type: 'money',
      label: 'Total cap',
      min: 0,
      max: 1000000,
      helperText: 'Never takes more than this in all (a loan paid off in instalments).',
    },
    // The sum of its deduction lines on payslips of runs not cancelled (server/behaviours/payrollDeductions.ts).
    { source: 'taken', type: 'money', label: 'Taken so far', computed: true, readOnly: true },
  ],
};

export const payrollAdjustments: ResourceDeclaration = {
  name: 'payroll_adjustments',
  table: 'payroll_adjustments',
  label: { one: 'Pay adjustment', many: 'Pay adjustments' },
  recordRepresentation: '%{reason}',
  defaultSort: { field: 'id', order: 'DESC' },
  delete: 'hard',
  access: { admin: [...read, 'create', 'export'], consultant: read },
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide', tab: 'deductions' },
  routes: {
    list: '/invoice/staff-payroll/adjustments',
    create: '/invoice/staff-payroll/adjustments/create',
    show: '/invoice/staff-payroll/adjustments/:id/show',
  },
  fields: [
    { ...candidate, readableBy: AGENCY },
    {
      source: 'kind',
      type: 'choice',
      label: 'Adjustment',
      required: true,
      createOnly: true,
      choices: ADJUSTMENT_KINDS,
      filter: true,
    },
    { source: 'amount', type: 'money', label: 'Amount', required: true, createOnly: true, min: 0.01, max: 100000 },
    { source: 'reason', type: 'text', label: 'Reason', required: true, createOnly: true, maxLength: 300 },
    // The payslip that takes it: empty while it waits for the staff member's next pay run.
    {
      source: 'payslip_id',
      type: 'reference',
      reference: 'payslips',
      label: 'Payslip',
      readOnly: true,
      filter: true,
      onDelete: 'refuse',
    },
    { source: 'created_at', type: 'datetime', label: 'Made', readOnly: true, sortable: true },
  ],
};

export const deductionResources: ResourceDeclaration[] = [staffDeductions, payrollAdjustments];
