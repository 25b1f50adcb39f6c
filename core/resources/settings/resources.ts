import type { Action, ResourceDeclaration, Role } from '../../engine/types';
import { CONCESSION_ROLES, type ConcessionRole } from '../../domain/invoicing/vatTreatment';

// Settings are the agency's own vocabulary: admins change them, consultants read them.
const settingsAccess: ResourceDeclaration['access'] = {
  admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
  consultant: ['list', 'show'] as Action[],
};
const setting = (
  d: Omit<ResourceDeclaration, 'access' | 'delete' | 'recordRepresentation' | 'defaultSort'> &
    Partial<ResourceDeclaration>,
): ResourceDeclaration => ({
  access: settingsAccess,
  delete: 'hard',
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name'],
  ...d,
});
/** Settings screens live under /appsetting/<screen>, with their forms beneath. */
const settingRoutes = (base: string) => ({
  list: base,
  create: `${base}/create`,
  edit: `${base}/:id`,
  show: `${base}/:id/show`,
});
const name = (label = 'Name') => ({
  source: 'name',
  type: 'text' as const,
  label,
  required: true,
  maxLength: 100,
  unique: true,
  sortable: true,
});
const description = {
  source: 'description',
  type: 'longtext' as const,
  label: 'Description',
  maxLength: 1000,
  views: ['show', 'edit', 'create'] as const,
};

/** Pay and charge rates are the agency's business: client users never receive them. */
const AGENCY_ONLY: Role[] = ['admin', 'consultant'];

const CONCESSION_ROLE_NAMES: Record<ConcessionRole, string> = {
  nurse: 'Registered nurse (NMC)',
  supervised_auxiliary: 'Nursing auxiliary supervised by a nurse',
  auxiliary: 'Nursing auxiliary (exempt at a hospital, hospice or nursing home)',
  none: 'Does not qualify',
};

// Client users read the job roles too (they request shifts for one), but never the rates.
export const jobRoles = setting({
  name: 'job_roles',
  table: 'job_roles',
  label: { one: 'Job role', many: 'Job roles' },
  access: { ...settingsAccess, manager: ['list', 'show'], viewer: ['list', 'show'] },
  clientScope: 'agency',
  routes: settingRoutes('/appsetting/addjobdetail'),
  search: ['name', 'code'],
  fields: [
    name('Job role'),
    // The code and the default charge are offered by the column chooser: with the minimum wage flag the list must
    // still fit a laptop.
    { source: 'code', type: 'text', label: 'Code', maxLength: 12, sortable: true, listHidden: true },
    { ...description, views: ['show', 'edit', 'create'] },
    {
      source: 'default_pay_rate',
      type: 'money',
      label: 'Default pay rate (per hour)',
      min: 0,
      max: 1000,
      sortable: true,
      readableBy: AGENCY_ONLY,
      groups: ['pay_rates'],
    },
    // Below the adult minimum wage in force today, flagged by the server (issue 30.6); the form warns as it is typed.
    {
      source: 'wage_flag',
      type: 'text',
      label: 'Minimum wage',
      computed: true,
      readOnly: true,
      readableBy: AGENCY_ONLY,
      groups: ['pay_rates'],
      views: ['list', 'show'],
    },
    {
      source: 'default_charge_rate',
      type: 'money',
      label: 'Default charge rate (per hour)',
      min: 0,
      max: 1000,
      sortable: true,
      readableBy: AGENCY_ONLY,
      groups: ['margins'],
      listHidden: true,
    },
    // What the role supplies under the nursing agencies' concession (vatTreatmentOf): one flag cannot tell a
    // supervised auxiliary (exempt anywhere) from an unsupervised one (exempt only at a nursing institution).
    {
      source: 'vat_concession',
      type: 'choice',
      label: 'VAT: nursing concession',
      required: true,
      defaultValue: 'none',
      choices: CONCESSION_ROLES.map((id) => ({ id, name: CONCESSION_ROLE_NAMES[id] })),
      helperText: 'Dental nurses and operating department practitioners never qualify, whatever is chosen here.',
      readableBy: AGENCY_ONLY,
      views: ['show', 'edit', 'create'],
    },
    { source: 'active', type: 'boolean', label: 'In use', defaultValue: true, filter: true, sortable: true },
  ],
});

export const staffStatuses = setting({
  name: 'staff_statuses',
  table: 'staff_statuses',
  label: { one: 'Staff status', many: 'Staff statuses' },
  routes: settingRoutes('/appsetting/staff-status'),
  fields: [
    name('Status'),
    { ...description, views: ['list', 'show', 'edit', 'create'] },
    {
      source: 'bookable',
      type: 'boolean',
      label: 'Can be booked on shifts',
      defaultValue: true,
      filter: true,
      sortable: true,
    },
    {
      source: 'colour',
      type: 'choice',
      label: 'Colour',
      defaultValue: 'green',
      choices: [
        { id: 'green', name: 'Green' },
        { id: 'amber', name: 'Amber' },
        { id: 'red', name: 'Red' },
        { id: 'blue', name: 'Blue' },
        { id: 'grey', name: 'Grey' },
      ],
    },
  ],
});

export const HOLIDAY_PAY_CHOICES = [
  { id: 'rolled_up', name: 'Rolled up (12.07% on each payslip)' },
  { id: 'accrued', name: 'Accrued as hours (paid when taken)' },
];

export const employmentTypes = setting({
  name: 'employment_types',
  table: 'employment_types',
  label: { one: 'Employment type', many: 'Employment types' },
  routes: settingRoutes('/appsetting/employmenttypedetail'),
  fields: [
    name('Employment type'),
    { ...description, views: ['list', 'show', 'edit', 'create'] },
    { source: 'paye', type: 'boolean', label: 'Paid through PAYE payroll', defaultValue: true, sortable: true },
    // How PAYE staff of the type get holiday (issue 33; core/domain/payroll/holidayPay.ts).
    {
      source: 'holiday_pay',
      type: 'choice',
      label: 'Holiday pay',
      required: true,
      defaultValue: 'rolled_up',
      choices: HOLIDAY_PAY_CHOICES,
      helperText:
        'For PAYE staff: 12.07% of pay as its own payslip line, or 12.07% of hours banked and paid when taken.',
    },
  ],
});

export const documentCategories = setting({
  name: 'document_categories',
  table: 'document_categories',
  label: { one: 'Document category', many: 'Document categories' },
  // A staff member's upload names one (their phone page's My documents); no staff route lists them.
  staffScope: 'agency',
  routes: settingRoutes('/appsetting/documentcategories'),
  fields: [
    name('Category'),
    { ...description, views: ['show', 'edit', 'create'] },
    {
      source: 'mandatory',
      type: 'boolean',
      label: 'Required of every staff member',
      defaultValue: false,
      filter: true,
      sortable: true,
    },
    {
      source: 'validity_months',
      type: 'number',
      label: 'Valid for (months)',
      integer: true,
      min: 1,
      max: 120,
      sortable: true,
      helperText: 'Leave empty when the document never expires.',
    },
    {
      source: 'job_role_ids',
      type: 'references',
      reference: 'job_roles',
      label: 'Required for these job roles',
      views: ['show', 'edit', 'create'],
      onDelete: 'remove',
    },
  ],
});

export const staffProfiles = setting({
  name: 'staff_profiles',
  table: 'staff_profiles',
  label: { one: 'Staff profile', many: 'Staff profiles' },
  routes: settingRoutes('/appsetting/staff-profiles'),
  fields: [
    name('Profile'),
    { ...description, views: ['list', 'show', 'edit', 'create'] },
    { source: 'job_role_id', type: 'reference', reference: 'job_roles', label: 'Job role', filter: true },
    {
      source: 'document_category_ids',
      type: 'references',
      reference: 'document_categories',
      label: 'Required documents',
      views: ['show', 'edit', 'create'],
      onDelete: 'remove',
    },
  ],
});

export const CUSTOM_FIELD_TYPES = [
  { id: 'text', name: 'Text' },
  { id: 'number', name: 'Number' },
  { id: 'date', name: 'Date' },
  { id: 'boolean', name: 'Yes / no' },
  { id: 'choice', name: 'Choice from a list' },
];

export const staffDetailFields = setting({
  name: 'staff_detail_fields',
  table: 'staff_detail_fields',
  label: { one: 'Staff detail field', many: 'Staff detail fields' },
  recordRepresentation: '%{label}',
  defaultSort: { field: 'position', order: 'ASC' },
  search: ['label', 'key'],
  routes: settingRoutes('/appsetting/staff-detail-field'),
  rules: (r): Record<string, string> =>
    r.field_type === 'choice' &&
    !String(r.options ?? '')
      .split(',')
      .some((o) => o.trim())
      ? { options: 'engine.validation.choiceOptions' }
      : {},
  fields: [
    { source: 'label', type: 'text', label: 'Label', required: true, maxLength: 60, sortable: true },
    {
      source: 'key',
      type: 'text',
      label: 'Key',
      required: true,
      maxLength: 40,
      unique: true,
      sortable: true,
      pattern: { regex: '^[a-z][a-z0-9_]*$', message: 'engine.validation.key' },
      helperText: 'Lower-case letters, digits and _; used in the API and CSV exports.',
    },
    {
      source: 'field_type',
      type: 'choice',
      label: 'Type',
      required: true,
      choices: CUSTOM_FIELD_TYPES,
      defaultValue: 'text',
      filter: true,
    },
    {
      source: 'options',
      type: 'text',
      label: 'Choices (comma-separated)',
      maxLength: 1000,
      views: ['show', 'edit', 'create'],
    },
    { source: 'required', type: 'boolean', label: 'Required', defaultValue: false },
    { source: 'show_in_list', type: 'boolean', label: 'Show in staff list', defaultValue: false },
    // Asked of applicants on the public application form too (issue 35), and carried to the staff member a hire makes.
    {
      source: 'on_application',
      type: 'boolean',
      label: 'Asked on the application form',
      defaultValue: false,
      filter: true,
    },
    {
      source: 'position',
      type: 'number',
      label: 'Order',
      integer: true,
      min: 0,
      max: 999,
      defaultValue: 0,
      sortable: true,
    },
  ],
});

export const settingsResources = [
  jobRoles,
  staffStatuses,
  employmentTypes,
  staffProfiles,
  documentCategories,
  staffDetailFields,
];
