import type { ResourceDeclaration, Role } from '../../engine/types';

/*
 * A self-billing agreement with an umbrella or limited-company worker's company (issue 33; HMRC VAT Notice 700/62):
 * the company agrees not to issue its own invoices for the work and to say when its VAT registration changes, for a
 * set period after which it is reviewed. Kept on the staff member (their company is on their record), listed with
 * their pay on the profile and beside the pay runs' self-billing export; a run paying a self-billed company without
 * one in force on the pay day warns in its preview and says so in its export (docs/decisions.md, "Issue 33 —
 * self-billing agreements"). Pay is the agency's: admins write, consultants read, client users and staff see none.
 */

const AGENCY: Role[] = ['admin', 'consultant'];

export const selfBillingAgreements: ResourceDeclaration = {
  name: 'self_billing_agreements',
  table: 'self_billing_agreements',
  label: { one: 'Self-billing agreement', many: 'Self-billing agreements' },
  recordRepresentation: 'Agreement from %{start_date}',
  defaultSort: { field: 'end_date', order: 'DESC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete', 'export'], consultant: ['list', 'show'] },
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide', tab: 'deductions' },
  routes: {
    list: '/invoice/staff-payroll/self-billing-agreements',
    create: '/invoice/staff-payroll/self-billing-agreements/create',
    edit: '/invoice/staff-payroll/self-billing-agreements/:id',
    show: '/invoice/staff-payroll/self-billing-agreements/:id/show',
  },
  rules: (r) => {
    const out: Record<string, string> = {};
    if (typeof r.end_date === 'string' && typeof r.start_date === 'string' && r.end_date < r.start_date)
      out.end_date = 'The end or review date is before the agreement starts.';
    return out;
  },
  fields: [
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      required: true,
      createOnly: true,
      filter: true,
      readableBy: AGENCY,
    },
    {
      source: 'start_date',
      type: 'date',
      label: 'From',
      required: true,
      sortable: true,
      date: { min: '-10y', max: '+5y' },
      helperText: 'The day the agreement was signed or takes effect.',
    },
    {
      source: 'end_date',
      type: 'date',
      label: 'Ends or reviewed by',
      required: true,
      sortable: true,
      filter: true,
      date: { min: '-10y', max: '+10y' },
      helperText: 'Its last day: commonly 12 months on. Record the renewed agreement as a new one.',
    },
    { source: 'reference', type: 'text', label: 'Reference', maxLength: 100, sortable: true },
    {
      source: 'file',
      type: 'file',
      label: 'Signed copy (PDF or image)',
      file: { kind: 'document', nameField: 'file_name' },
      views: ['list', 'show', 'edit', 'create'],
    },
    // The stored file's own name: the file link's text.
    { source: 'file_name', type: 'text', label: 'File name', computed: true, readOnly: true, views: [] },
    { source: 'recorded_by', type: 'text', label: 'Recorded by', readOnly: true, views: ['list', 'show'] },
  ],
};
