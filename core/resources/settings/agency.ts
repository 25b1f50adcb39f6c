import { textOf, type Action, type ResourceDeclaration } from '../../engine/types';
import { SITE_REGIONS } from '../sites/resource';
import { companyNumberProblem, timeZoneProblem, vatNumberProblem } from '../../domain/agency/identifiers';
import { AGENCY_NAME } from '../../domain/agency/names';

// The agency's own settings (/appsetting/agencysetting, issue 35): its names, address, registrations, time zone,
// the region new sites start in, its job board's address, its logo and favicon, and its business units. See
// docs/decisions.md, "Issue 35 — agency settings" and "Issue 35 — the job board's address".

/**
 * The agency's one row of settings, whose id is the agency's (migration 122), served by GET and PUT
 * /api/agency_settings (server/routes/agencySettings.ts) and written by the engine (validated here, versioned,
 * audited). The trading name, time zone and logo are the ones the whole product reads (merchants.company_name,
 * time_zone, profile_photo: the sign-in, the e-mails' sender, every "today"); the engine's write copies them there
 * in the same transaction (server/behaviours/agencySettings.ts), so this row is the one place they are changed.
 * Admins change it; consultants read it (they print the agency's details on letters and need its time zone); client
 * users and staff have no route to it (the shell's GET merchants/{id} gives them the name and logo they see).
 */
export const agencySettings: ResourceDeclaration = {
  name: 'agency_settings',
  table: 'agency_settings',
  label: { one: 'Agency settings', many: 'Agency settings' },
  recordRepresentation: 'Agency settings',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  served: false,
  access: { admin: ['show', 'create', 'edit'] as Action[], consultant: ['show'] as Action[] },
  // The plan is changed only through its action (POST /api/subscription/plan), which the installation's payment
  // driver pays for (server/subscription/payment.ts): never by a save of the settings. Issue 35, subscription.
  actions: [
    {
      name: 'change_plan',
      label: 'Change plan',
      roles: ['admin'],
      success: 'Plan changed',
      input: [{ source: 'plan', type: 'text', label: 'Plan', required: true, maxLength: 40 }],
    },
  ],
  rules: (r): Record<string, string> => {
    const problems: Record<string, string> = {};
    const company = companyNumberProblem(textOf(r.company_number));
    if (company) problems.company_number = company;
    const vat = vatNumberProblem(textOf(r.vat_number));
    if (vat) problems.vat_number = vat;
    const zone = timeZoneProblem(textOf(r.time_zone));
    if (zone) problems.time_zone = zone;
    // reg 14 asks for the supplier's address: a part of one (a town alone) would print an address nobody can write to.
    const address = (r.address ?? null) as Record<string, unknown> | null;
    if (address && typeof address === 'object') {
      const blank = (k: string) => textOf(address[k]).trim() === '';
      if (!['line1', 'line2', 'city', 'postcode'].every(blank) && (blank('line1') || blank('postcode')))
        problems.address = 'Give at least the first line and the postcode of the agency’s address.';
    }
    return problems;
  },
  fields: [
    {
      source: 'company_name',
      type: 'text',
      label: 'Trading name',
      required: true,
      minLength: AGENCY_NAME.min,
      maxLength: AGENCY_NAME.max,
      helperText: 'The name staff, clients and e-mails see, and the name at the top of every document.',
    },
    {
      source: 'legal_name',
      type: 'text',
      label: 'Legal name',
      maxLength: 160,
      helperText: 'As registered at Companies House (such as Brightway Staffing Ltd); printed on invoices.',
    },
    {
      source: 'address',
      type: 'address',
      label: 'Registered address',
      helperText: 'Printed on every invoice beside the agency’s name and VAT number.',
    },
    // Checked by the rules (companyNumberProblem), in words; the length here only keeps a pasted page out.
    { source: 'company_number', type: 'text', label: 'Company number', maxLength: 20 },
    { source: 'vat_number', type: 'text', label: 'VAT number', maxLength: 20 },
    // One of the IANA zones (timeZoneProblem, by the rules); the screen offers them to pick from as typed. Not a
    // choice field: its list is the runtime's ICU data, not the product's, and would fix them in the record types.
    {
      source: 'time_zone',
      type: 'text',
      label: 'Time zone',
      required: true,
      maxLength: 60,
      defaultValue: 'Europe/London',
      helperText: 'The agency’s “today”, shift times and due dates are read in this zone.',
    },
    {
      source: 'default_region',
      type: 'choice',
      label: 'Default region for new sites',
      required: true,
      defaultValue: 'england_wales',
      choices: SITE_REGIONS,
      helperText: 'A new site starts in this bank-holiday region unless its postcode says otherwise.',
    },
    // Checked when changed (server/behaviours/agencySettings.ts, jobBoardSlugProblem), not by a length here: an
    // address migration 123 gave an older agency (from a long name) stays until someone changes it. The screen shows
    // the board's full address under it.
    {
      source: 'slug',
      type: 'text',
      label: 'Job board address',
      helperText:
        'Lower-case letters, digits and single hyphens, 3 to 60 characters. Changing it moves the board: the old address stops working.',
    },
    // One of the installation's plans by id (server/subscription/plans.ts); none: its default plan. Shown and changed
    // on /appsetting/SubscriptionSetting only, through the change_plan action.
    { source: 'plan', type: 'text', label: 'Plan', actionOnly: true, maxLength: 40, views: [] },
    {
      source: 'profile_photo',
      type: 'image',
      label: 'Logo',
      helperText: 'PNG, JPEG or WebP up to 1 MB: the top bar, e-mails and documents show it.',
    },
    {
      source: 'favicon',
      type: 'image',
      label: 'Favicon',
      helperText: 'A small square PNG (32 × 32 or 64 × 64): the browser tab of everyone signed in to the agency.',
    },
  ],
};

/**
 * The agency's business units (a branch, a division: "Care homes", "Hospitals"): a manager (an agency user), the
 * clients in it (`clients.business_unit_id`) and the consultants in it (`users.business_unit_id`); the business unit
 * report (core/resources/reports.ts) gives each unit's figures and every shift report filters by unit. Archived (not
 * in use) rather than deleted once anything refers to one: a hard delete is refused while references exist (the
 * engine's onDelete 'refuse'); nothing new is placed in an archived unit (`referenceWhere`).
 */
export const businessUnits: ResourceDeclaration = {
  name: 'business_units',
  unitScope: { none: 'the agency’s list of units: which of them a role reaches is the role’s own setting' },
  table: 'business_units',
  label: { one: 'Business unit', many: 'Business units' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name'],
  delete: 'hard',
  access: {
    admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
    consultant: ['list', 'show'],
  },
  routes: {
    list: '/appsetting/agencysetting/business-units',
    create: '/appsetting/agencysetting/business-units/create',
    edit: '/appsetting/agencysetting/business-units/:id',
    show: '/appsetting/agencysetting/business-units/:id/show',
  },
  fields: [
    {
      source: 'name',
      type: 'text',
      label: 'Business unit',
      required: true,
      maxLength: 100,
      unique: true,
      sortable: true,
    },
    {
      source: 'manager_id',
      type: 'reference',
      reference: 'users',
      label: 'Manager',
      sortable: true,
      // Agency users only: a client's user manages no unit of the agency.
      referenceWhere: { values: { kind: 'admin' }, message: 'Choose a user of the agency panel.' },
      helperText: 'The agency user who answers for the unit (optional).',
    },
    {
      source: 'active',
      type: 'boolean',
      label: 'In use',
      defaultValue: true,
      filter: true,
      sortable: true,
      helperText: 'Archive a unit no longer in use: it stays on what refers to it, and is offered for nothing new.',
    },
  ],
};

export const agencySettingsResources = [agencySettings, businessUnits];
