import type { FieldDeclaration, RecordValues, ResourceDeclaration, Role } from '../../engine/types';
import { readTaxCode } from '../../domain/payroll/taxCodes';
import { PAYROLL_YEARS, TAX_YEARS } from '../../domain/payroll/rates';
import {
  ACCOUNT_NAME_MESSAGE,
  ACCOUNT_NAME_PATTERN,
  ACCOUNT_NUMBER_MESSAGE,
  ACCOUNT_NUMBER_PATTERN,
  ROLL_NUMBER_MESSAGE,
  ROLL_NUMBER_PATTERN,
  SORT_CODE_MESSAGE,
  SORT_CODE_PATTERN,
} from '../../domain/payroll/bankDetails';

const AGENCY: Role[] = ['admin', 'consultant'];

/** A text field of the company an umbrella or limited-company worker is paid through: the agency's, on its forms. */
const companyField = (
  f: Pick<FieldDeclaration, 'source' | 'label' | 'maxLength' | 'pattern' | 'helperText'>,
): FieldDeclaration => ({ type: 'text', ...f, readableBy: AGENCY, views: ['show', 'edit', 'create'] });

export const NI_CATEGORY_CHOICES = ['A', 'B', 'C', 'H', 'J', 'M', 'V', 'X', 'Z'].map((id) => ({ id, name: id }));
export const LOAN_PLAN_CHOICES = [
  { id: 'plan1', name: 'Plan 1' },
  { id: 'plan2', name: 'Plan 2' },
  { id: 'plan4', name: 'Plan 4' },
  { id: 'plan5', name: 'Plan 5' },
  { id: 'postgraduate', name: 'Postgraduate loan' },
];

/** A tax code read as the latest tax year reads it, and one undergraduate loan plan at most (request.ts's rules). */
function payrollProblems(r: RecordValues): Record<string, string> {
  const problems: Record<string, string> = {};
  const latest = PAYROLL_YEARS[TAX_YEARS[TAX_YEARS.length - 1]];
  if (typeof r.tax_code === 'string' && r.tax_code.trim()) {
    const read = readTaxCode(r.tax_code, latest);
    if ('error' in read) problems.tax_code = read.error;
  }
  const plans = Array.isArray(r.student_loan_plans) ? r.student_loan_plans : [];
  if (plans.filter((p) => p !== 'postgraduate').length > 1)
    problems.student_loan_plans = 'Choose one undergraduate plan (1, 2, 4 or 5); a postgraduate loan may be beside it.';
  return problems;
}

export const CANDIDATE_STATUS = [
  { id: 'pending', name: 'Pending' },
  { id: 'approved', name: 'Approved' },
  { id: 'rejected', name: 'Rejected' },
];

/** Compliance today, from what the server stores per staff member (see server/services/compliance.ts). */
export const COMPLIANCE = [
  { id: 'compliant', name: 'Compliant' },
  { id: 'expiring', name: 'Compliant, document due' },
  { id: 'not_compliant', name: 'Not compliant' },
];

export const candidates: ResourceDeclaration = {
  name: 'candidates',
  table: 'candidates',
  label: { one: 'Staff member', many: 'Staff' },
  recordRepresentation: '%{first_name} %{last_name}',
  defaultSort: { field: 'last_name', order: 'ASC' },
  search: ['first_name', 'last_name', 'email', 'phone'],
  delete: 'soft',
  customFields: 'staff_detail_fields',
  filterAliases: { status_value: 'status', activated_value: 'activated' },
  access: {
    admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
    consultant: ['list', 'show', 'create', 'edit', 'export'],
  },
  // A staff member's own record, which their uploads refer to; no staff route reads staff records (no access.staff).
  staffScope: 'id',
  // The tabbed profile is the staff member's home: lists, forms and search all lead to /staffs/{id}.
  routes: { list: '/staff/staff-list', show: '/staffs/:id', edit: '/staffs/edit/:id', create: '/staffs/create' },
  rules: (r): Record<string, string> => ({
    ...(r.activated === true && r.status !== 'approved' ? { activated: 'engine.validation.activateUnapproved' } : {}),
    ...payrollProblems(r),
  }),
  // A staff member's standing changes only through these decisions, never through an edit. Activation is a switch
  // within approved: a pending or rejected staff member is never active (rules above; reject deactivates).
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'approve', from: ['pending', 'rejected'], to: 'approved' },
      { action: 'reject', from: ['pending', 'approved'], to: 'rejected' },
      { action: 'activate', from: ['approved'] },
      { action: 'deactivate', from: ['approved'] },
    ],
  },
  actions: [
    {
      name: 'approve',
      label: 'Approve',
      icon: 'check',
      roles: ['admin', 'consultant'],
      bulk: true,
      success: 'Staff member approved |||| %{smart_count} staff approved',
    },
    {
      name: 'reject',
      label: 'Reject',
      icon: 'block',
      danger: true,
      roles: ['admin', 'consultant'],
      bulk: true,
      success: 'Staff member rejected |||| %{smart_count} staff rejected',
      confirm: 'Reject %{name}? They will also be deactivated.',
      input: [{ source: 'reason', type: 'longtext', label: 'Reason', maxLength: 1000 }],
      patch: () => ({ activated: false }),
    },
    {
      name: 'activate',
      label: 'Activate',
      icon: 'power',
      roles: ['admin', 'consultant'],
      bulk: true,
      success: 'Staff member activated |||| %{smart_count} staff activated',
      // A staff member who is not compliant for their job role is activated only by an admin, with a reason.
      // Asked for only when the server says the staff member is not compliant (issue 14, item 21).
      input: [
        {
          source: 'override_reason',
          type: 'longtext',
          label: 'Reason to activate although not compliant',
          maxLength: 1000,
        },
      ],
      inputWhenNeeded: true,
      guard: (r) => (r.activated ? 'app.staff.guard.already_active' : null),
      patch: () => ({ activated: true }),
    },
    {
      name: 'deactivate',
      label: 'Deactivate',
      icon: 'power_off',
      roles: ['admin', 'consultant'],
      bulk: true,
      success: 'Staff member deactivated |||| %{smart_count} staff deactivated',
      confirm: 'Deactivate %{name}? They cannot be booked for shifts until they are activated again.',
      guard: (r) => (!r.activated ? 'app.staff.guard.not_active' : null),
      patch: () => ({ activated: false }),
    },
    {
      // Bank details (issue 33): entered by an agency admin, sealed by the server (server/behaviours/candidates.ts),
      // never in the audit trail (secret inputs); shown masked (bank_details_masked) and in full only through
      // GET /api/candidates/:id/bank_details, which admits whoever may run this action and records each view.
      name: 'set_bank_details',
      label: 'Bank details',
      icon: 'account_balance',
      roles: ['admin'],
      success: 'Bank details saved',
      input: [
        {
          source: 'sort_code',
          type: 'text',
          label: 'Sort code',
          required: true,
          maxLength: 12,
          secret: true,
          pattern: { regex: SORT_CODE_PATTERN, message: SORT_CODE_MESSAGE },
          helperText: '6 digits, like 12-34-56',
        },
        {
          source: 'account_number',
          type: 'text',
          label: 'Account number',
          required: true,
          maxLength: 16,
          secret: true,
          pattern: { regex: ACCOUNT_NUMBER_PATTERN, message: ACCOUNT_NUMBER_MESSAGE },
          helperText: '8 digits',
        },
        {
          source: 'account_name',
          type: 'text',
          label: 'Name on the account',
          required: true,
          maxLength: 60,
          secret: true,
          pattern: { regex: ACCOUNT_NAME_PATTERN, message: ACCOUNT_NAME_MESSAGE },
        },
        {
          source: 'roll_number',
          type: 'text',
          label: 'Building society roll number',
          maxLength: 18,
          secret: true,
          pattern: { regex: ROLL_NUMBER_PATTERN, message: ROLL_NUMBER_MESSAGE },
          helperText: 'Only for a building society account that has one',
        },
      ],
    },
    // No route or button: the name of the history's entry for each view of the bank details in full (written by
    // server/services/bankDetails.ts with the read).
    { name: 'view_bank_details', label: 'Bank details viewed in full', roles: [], success: 'Bank details shown' },
    // No route or button: the bank details sealed again under the new key of a rotation, by the system's job
    // (server/services/bankDetails.ts, resealBankDetailsJob); the details themselves do not change.
    { name: 'reseal_bank_details', label: 'Bank details sealed with the new key', roles: [], success: 'Sealed again' },
  ],
  // Active staff are approved and activated; inactive staff are approved and not activated.
  tabs: [
    { id: 'allStaffs', label: 'All', filter: {}, path: '/staffs/allStaffs' },
    {
      id: 'activeStaff',
      label: 'Active',
      filter: { status: 'approved', activated: true },
      path: '/staffs/activeStaff',
    },
    {
      id: 'InactiveStaff',
      label: 'Inactive',
      filter: { status: 'approved', activated: false },
      path: '/staffs/InactiveStaff',
    },
    { id: 'pendingStaff', label: 'Pending', filter: { status: 'pending' }, path: '/staffs/pendingStaff' },
    { id: 'rejectStaff', label: 'Rejected', filter: { status: 'rejected' }, path: '/staffs/rejectStaff' },
  ],
  fields: [
    { source: 'profile_photo', type: 'image', label: 'Photo', views: ['show', 'edit', 'create'] },
    { source: 'first_name', type: 'text', label: 'First name', required: true, maxLength: 80, sortable: true },
    { source: 'last_name', type: 'text', label: 'Last name', required: true, maxLength: 80, sortable: true },
    { source: 'email', type: 'email', label: 'E-mail', required: true, unique: true, sortable: true },
    // In the column chooser: the staff list keeps name, e-mail, role, status and compliance within a laptop's width.
    { source: 'phone', type: 'phone', label: 'Mobile', listHidden: true },
    {
      source: 'date_of_birth',
      type: 'date',
      label: 'Date of birth',
      date: { min: '-100y', max: '-16y' },
      views: ['show', 'edit', 'create'],
    },
    { source: 'address', type: 'address', label: 'Home address', views: ['show', 'edit', 'create'] },
    {
      source: 'job_role_id',
      type: 'reference',
      reference: 'job_roles',
      label: 'Job role',
      filter: true,
      sortable: true,
    },
    {
      source: 'employment_type_id',
      type: 'reference',
      reference: 'employment_types',
      label: 'Employment type',
      filter: true,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'staff_status_id',
      type: 'reference',
      reference: 'staff_statuses',
      label: 'Staff status',
      filter: true,
      views: ['list', 'show', 'edit', 'create'],
      listHidden: true,
    },
    {
      source: 'staff_profile_ids',
      type: 'references',
      reference: 'staff_profiles',
      label: 'Staff profiles',
      views: ['show', 'edit', 'create'],
      onDelete: 'refuse',
    },
    {
      source: 'ni_number',
      type: 'text',
      label: 'National Insurance number',
      maxLength: 13,
      views: ['show', 'edit', 'create'],
      pattern: {
        regex: '^[A-CEGHJ-PR-TW-Za-ceghj-pr-tw-z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-Da-d]$',
        message: 'engine.validation.niNumber',
      },
    },
    // What a pay run needs of a PAYE staff member (issue 33.2): as HMRC sent it, the agency's alone.
    {
      source: 'tax_code',
      type: 'text',
      label: 'Tax code',
      maxLength: 12,
      helperText: 'As HMRC sent it, e.g. 1257L, S1257L, K475, BR. Empty: 0T on a week 1 basis.',
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'tax_week1',
      type: 'boolean',
      label: 'Tax code on a week 1 / month 1 basis',
      defaultValue: false,
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'ni_category',
      type: 'choice',
      label: 'National Insurance category',
      choices: NI_CATEGORY_CHOICES,
      defaultValue: 'A',
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'student_loan_plans',
      type: 'choices',
      label: 'Student loans',
      choices: LOAN_PLAN_CHOICES,
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'pension_opted_out',
      type: 'boolean',
      label: 'Opted out of the workplace pension',
      defaultValue: false,
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'pension_employee_percent',
      type: 'number',
      label: 'Pension: staff member’s %',
      min: 0,
      max: 100,
      defaultValue: 5,
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'pension_employer_percent',
      type: 'number',
      label: 'Pension: employer’s %',
      min: 0,
      max: 100,
      defaultValue: 3,
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
    },
    // The company an umbrella or limited-company worker is paid through (issue 33): their payslips are paid gross to
    // it, by name, and the self-billing export reads it; with a VAT number, VAT is paid on top (at the run).
    companyField({
      source: 'company_name',
      label: 'Paid through company',
      maxLength: 160,
      helperText: 'For umbrella and limited-company workers: the company their pay goes to.',
    }),
    companyField({
      source: 'company_number',
      label: 'Company number',
      maxLength: 8,
      pattern: { regex: '^([0-9]{8}|[A-Za-z]{2}[0-9]{6})$', message: 'Eight digits, or two letters and six digits.' },
    }),
    companyField({
      source: 'company_address',
      label: 'Company address',
      maxLength: 300,
      helperText: 'Its registered address, on the self-billed invoices of its pay.',
    }),
    companyField({
      source: 'company_vat_number',
      label: 'Company VAT number',
      maxLength: 14,
      pattern: { regex: '^(GB)?[0-9]{9}([0-9]{3})?$', message: 'GB and 9 digits (or 12), as HMRC issued it.' },
      helperText: 'When it is registered for VAT: pay runs then pay VAT on top of the gross, self-billed.',
    }),
    // Bank details (issue 33): sealed (AES-256-GCM; nobody reads the column, the audit trail keeps only that it was
    // set or changed) and their last digits for the profile, which only admins read (never consultants, client
    // users or staff); both written only by set_bank_details.
    {
      source: 'bank_details_sealed',
      type: 'text',
      label: 'Bank details (sealed)',
      readOnly: true,
      actionOnly: true,
      readableBy: [],
      views: [],
    },
    {
      source: 'bank_details_masked',
      type: 'text',
      label: 'Bank details',
      readOnly: true,
      actionOnly: true,
      readableBy: ['admin'],
      groups: ['bank_details'],
      views: ['show'],
    },
    // Holiday accrued and not yet taken, in hours (employment types that accrue): the payslips of approved and
    // finalised runs, accrued less taken.
    {
      source: 'holiday_balance_hours',
      type: 'number',
      label: 'Holiday balance (hours)',
      computed: true,
      readOnly: true,
      readableBy: AGENCY,
      views: ['show'],
    },
    {
      source: 'start_date',
      type: 'date',
      label: 'Available from',
      views: ['show', 'edit', 'create'],
      date: { min: '-5y', max: '+1y' },
    },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      required: true,
      choices: CANDIDATE_STATUS,
      defaultValue: 'pending',
      filter: true,
      sortable: true,
    },
    {
      source: 'activated',
      type: 'boolean',
      label: 'Activated',
      defaultValue: false,
      filter: true,
      sortable: true,
      actionOnly: true,
      listHidden: true,
    },
    { source: 'notes', type: 'longtext', label: 'Notes', views: ['show', 'edit', 'create'] },
    {
      source: 'compliance',
      type: 'choice',
      label: 'Compliance',
      choices: COMPLIANCE,
      computed: true,
      readOnly: true,
      filter: true,
      views: ['list', 'show'],
    },
    // Kept by the documents' hooks: every required document verified (whatever its dates), and the earliest expiry.
    {
      source: 'compliance_complete',
      type: 'boolean',
      label: 'All required documents verified',
      readOnly: true,
      views: [],
    },
    { source: 'compliance_valid_until', type: 'date', label: 'Compliant until', readOnly: true, views: ['show'] },
    { source: 'created_at', type: 'datetime', label: 'Registered', readOnly: true, sortable: true, views: ['show'] },
  ],
};
