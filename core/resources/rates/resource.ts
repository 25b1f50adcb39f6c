import type { Action, FieldDeclaration, ResourceDeclaration } from '../../engine/types';
import { BAND_LABELS, BANDS, type Band } from '../../domain/pricing/types';
import { DEFAULT_SHIFT_REQUESTS_PER_DAY } from '../../domain/shifts/times';
import { SITE_REGIONS } from '../sites/resource';

/**
 * Rates & rules are the agency's commercial terms: admins set them, consultants read them (they quote and book
 * shifts with them). Client users have no access, but to shift templates (which show no pay).
 */
const adminManages: ResourceDeclaration['access'] = {
  admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
  consultant: ['list', 'show', 'export'] as Action[],
};
const AGENCY: FieldDeclaration['readableBy'] = ['admin', 'consultant'];

export const REGION_CHOICES = SITE_REGIONS;

export const WEEKDAY_CHOICES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map(
  (id) => ({ id, name: id[0].toUpperCase() + id.slice(1) }),
);

/** A wall-clock time, as rules and templates store it. */
export const TIME_PATTERN = {
  regex: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  message: 'Give a time as HH:mm, for example 20:00.',
};
const time = (source: string, label: string, extra: Partial<FieldDeclaration> = {}): FieldDeclaration => ({
  source,
  type: 'text',
  label,
  required: true,
  maxLength: 5,
  pattern: TIME_PATTERN,
  helperText: 'HH:mm, 24-hour clock',
  ...extra,
});

const rate = (
  kind: 'pay' | 'charge',
  band: Band,
  required: boolean,
  extra: Partial<FieldDeclaration> = {},
): FieldDeclaration => ({
  source: `${kind}_${band}`,
  type: 'money',
  label: `${kind === 'pay' ? 'Pay' : 'Charge'}: ${BAND_LABELS[band].toLowerCase()} (per hour)`,
  required,
  min: 0,
  max: 1000,
  readableBy: AGENCY,
  groups: [kind === 'pay' ? 'pay_rates' : 'margins'],
  views: ['list', 'show', 'edit', 'create'],
  // The report shows the weekday-day band; the others are in the column chooser (all bands would be 4,000 px wide).
  listHidden: band !== 'weekday_day',
  ...extra,
});

/** The margin of a band after on-costs, computed by the server (report columns and CSV). */
const margin = (band: Band): FieldDeclaration => ({
  source: `margin_${band}`,
  type: 'money',
  label: `Margin: ${BAND_LABELS[band].toLowerCase()} (per hour)`,
  computed: true,
  readOnly: true,
  readableBy: AGENCY,
  groups: ['margins'],
  views: ['list', 'show'],
  listHidden: true,
});

/** Pay below the adult minimum wage in force (the later of its first day and today), flagged by the server. */
const wageFlag: FieldDeclaration = {
  source: 'wage_flag',
  type: 'text',
  label: 'Minimum wage',
  computed: true,
  readOnly: true,
  readableBy: AGENCY,
  // Says whether the pay is below the minimum wage: it tells the pay.
  groups: ['pay_rates'],
  views: ['list', 'show'],
};

/**
 * What a client is charged and a staff member paid per hour, per band, for one job role at a client (or one of its
 * sites), from a date. A newer card for the same client, site and role closes the one before it; a shift keeps the
 * amounts it was priced at. The list is the rate card report (/report/RateCards).
 */
export const rateCards: ResourceDeclaration = {
  name: 'rate_cards',
  unitScope: 'client_id',
  table: 'rate_cards',
  label: { one: 'Rate card', many: 'Rate cards' },
  recordRepresentation: '%{effective_from}',
  defaultSort: { field: 'effective_from', order: 'DESC' },
  delete: 'soft',
  access: adminManages,
  routes: {
    list: '/report/RateCards',
    create: '/rates_and_rules/rate-card/create',
    edit: '/rates_and_rules/rate-card/:id',
    show: '/rates_and_rules/rate-card/:id/show',
  },
  rules: (r): Record<string, string> =>
    r.effective_from && r.effective_to && r.effective_to <= r.effective_from
      ? { effective_to: 'The end must be after the start.' }
      : {},
  effectiveDated: {
    key: ['client_id', 'site_id', 'job_role_id'],
    from: 'effective_from',
    to: 'effective_to',
    noun: 'card',
  },
  fields: [
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      required: true,
      filter: true,
      sortable: true,
    },
    {
      source: 'site_id',
      type: 'reference',
      reference: 'sites',
      label: 'Site',
      filter: true,
      helperText: 'Leave empty for every site of the client.',
      listHidden: true,
      within: { field: 'client_id', via: 'client_id' },
    },
    {
      source: 'job_role_id',
      type: 'reference',
      reference: 'job_roles',
      label: 'Job role',
      required: true,
      filter: true,
      sortable: true,
    },
    {
      source: 'effective_from',
      type: 'date',
      label: 'In force from',
      required: true,
      sortable: true,
      date: { min: '-10y', max: '+5y' },
    },
    {
      source: 'effective_to',
      type: 'date',
      label: 'In force until',
      date: { min: '-10y', max: '+10y' },
      helperText: 'The first day it no longer applies; empty while in force.',
      listHidden: true,
    },
    {
      source: 'in_force_on',
      type: 'date',
      label: 'In force on',
      computed: true,
      readOnly: true,
      filter: true,
      views: [],
    },
    wageFlag,
    ...BANDS.flatMap((b) => [rate('pay', b, true), rate('charge', b, true), margin(b)]),
    { source: 'notes', type: 'longtext', label: 'Notes', maxLength: 1000, views: ['show', 'edit', 'create'] },
  ],
};

/** A staff member's own pay rates (the profile's Rate card tab): a band left empty keeps the card's pay. */
export const candidateRates: ResourceDeclaration = {
  name: 'candidate_rates',
  table: 'candidate_rates',
  label: { one: 'Pay rate', many: 'Pay rates' },
  recordRepresentation: '%{effective_from}',
  defaultSort: { field: 'effective_from', order: 'DESC' },
  delete: 'hard',
  access: adminManages,
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide', tab: 'rate-card' },
  uniqueTogether: [
    {
      fields: ['candidate_id', 'job_role_id', 'effective_from'],
      message: 'This staff member already has pay rates for this job role from that date. Edit them instead.',
    },
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
    },
    {
      source: 'job_role_id',
      type: 'reference',
      reference: 'job_roles',
      label: 'Job role',
      filter: true,
      helperText: 'Leave empty for every job role.',
    },
    {
      source: 'effective_from',
      type: 'date',
      label: 'In force from',
      required: true,
      sortable: true,
      date: { min: '-10y', max: '+5y' },
    },
    wageFlag,
    ...BANDS.map((b) => rate('pay', b, false, { helperText: 'Leave empty to pay the rate card’s rate.' })),
    { source: 'notes', type: 'longtext', label: 'Notes', maxLength: 1000, views: ['show', 'edit', 'create'] },
  ],
};

/** How a client's shifts are priced (or, with no client, the agency's default for every client without its own). */
export const clientRules: ResourceDeclaration = {
  name: 'client_rules',
  unitScope: 'client_id',
  table: 'client_rules',
  label: { one: 'Pricing rules', many: 'Pricing rules' },
  recordRepresentation: '%{applies_to}',
  defaultSort: { field: 'applies_to', order: 'ASC' },
  // The list names the agency's default (no client) as such.
  listData: ['client_id'],
  delete: 'hard',
  access: adminManages,
  routes: {
    list: '/rates_and_rules/rules',
    create: '/rates_and_rules/rules/create',
    edit: '/rates_and_rules/rules/:id',
    show: '/rates_and_rules/rules/:id/show',
  },
  // One set of rules per client, and one default set (no client).
  uniqueTogether: [
    {
      fields: ['client_id'],
      message: (r) =>
        r.client_id == null
          ? 'The agency’s default rules already exist. Edit them instead.'
          : 'This client already has its rules. Edit them instead.',
    },
  ],
  rules: (r) => {
    const out: Record<string, string> = {};
    if ((r.late_cancel_within_hours == null) !== (r.late_cancel_charge_hours == null))
      out[r.late_cancel_within_hours == null ? 'late_cancel_within_hours' : 'late_cancel_charge_hours'] =
        'Give both the hours before the start and the hours charged, or neither.';
    if ((r.sleep_in_pay == null) !== (r.sleep_in_charge == null))
      out[r.sleep_in_pay == null ? 'sleep_in_pay' : 'sleep_in_charge'] =
        'Give both the sleep-in pay and charge, or neither.';
    return out;
  },
  fields: [
    {
      source: 'applies_to',
      type: 'text',
      label: 'Applies to',
      computed: true,
      readOnly: true,
      sortable: true,
      views: ['list', 'show'],
    },
    // No helper text: on edit the field is read-only, and a disabled helper text is too faint to read.
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client (empty: the agency’s default rules)',
      createOnly: true,
      filter: true,
      views: ['show', 'edit', 'create'],
    },
    time('night_start', 'Night starts', { defaultValue: '20:00' }),
    time('night_end', 'Night ends', { defaultValue: '08:00' }),
    {
      source: 'weekend_start_day',
      type: 'choice',
      label: 'Weekend starts on',
      required: true,
      choices: WEEKDAY_CHOICES,
      defaultValue: 'saturday',
      views: ['show', 'edit', 'create'],
    },
    time('weekend_start_time', 'Weekend starts at', { defaultValue: '00:00', views: ['show', 'edit', 'create'] }),
    {
      source: 'weekend_end_day',
      type: 'choice',
      label: 'Weekend ends on',
      required: true,
      choices: WEEKDAY_CHOICES,
      defaultValue: 'monday',
      views: ['show', 'edit', 'create'],
    },
    time('weekend_end_time', 'Weekend ends at', { defaultValue: '00:00', views: ['show', 'edit', 'create'] }),
    {
      source: 'split_at_boundaries',
      type: 'boolean',
      label: 'Split shifts at each band boundary',
      defaultValue: true,
      helperText: 'Otherwise a shift is rated wholly by the band it starts in.',
    },
    {
      source: 'break_rules',
      type: 'json',
      label: 'Unpaid breaks',
      defaultValue: [{ min_hours: 6, break_minutes: 30 }],
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'minimum_charge_hours',
      type: 'number',
      label: 'Minimum charged hours',
      min: 0,
      max: 24,
      defaultValue: 0,
    },
    {
      source: 'sleep_in_pay',
      type: 'money',
      label: 'Sleep-in pay (per shift)',
      min: 0,
      max: 1000,
      readableBy: AGENCY,
      groups: ['pay_rates'],
    },
    {
      source: 'sleep_in_charge',
      type: 'money',
      label: 'Sleep-in charge (per shift)',
      min: 0,
      max: 1000,
      readableBy: AGENCY,
      groups: ['margins'],
    },
    {
      source: 'late_cancel_within_hours',
      type: 'number',
      label: 'Late cancellation: within (hours before the start)',
      min: 0,
      max: 336,
      defaultValue: 24,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'late_cancel_charge_hours',
      type: 'number',
      label: 'Late cancellation: hours charged',
      min: 0,
      max: 24,
      defaultValue: 4,
      views: ['show', 'edit', 'create'],
    },
    // What the worker is paid when the client is charged for a late cancellation (issue 33): these hours at their
    // pay rate, priced with the cancellation; empty or 0, the agency's rule pays the worker nothing.
    {
      source: 'late_cancel_pay_hours',
      type: 'number',
      label: 'Late cancellation: hours paid to the worker',
      min: 0,
      max: 24,
      readableBy: AGENCY,
      views: ['show', 'edit', 'create'],
      helperText: 'Paid only when the client is charged. Empty: the worker is not paid.',
    },
    {
      source: 'max_shift_requests_per_day',
      type: 'number',
      label: 'Shifts the client may request per day',
      integer: true,
      min: 1,
      max: 10000,
      views: ['show', 'edit', 'create'],
      helperText: `Leave empty for the agency’s default rules (${DEFAULT_SHIFT_REQUESTS_PER_DAY} when they say nothing either).`,
    },
  ],
};

/** The agency's changes to a region's bank holidays: a day added, or a library day removed. */
export const holidayOverrides: ResourceDeclaration = {
  name: 'holiday_overrides',
  table: 'holiday_overrides',
  label: { one: 'Holiday change', many: 'Holiday changes' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'date', order: 'ASC' },
  delete: 'hard',
  access: adminManages,
  routes: { list: '/appsetting/holidaycalender' },
  uniqueTogether: [
    {
      fields: ['region', 'date'],
      message: (_r, dup) =>
        dup.kind === 'add'
          ? 'This day is already added for this region.'
          : 'This day is already removed for this region.',
    },
  ],
  fields: [
    {
      source: 'region',
      type: 'choice',
      label: 'Region',
      required: true,
      choices: REGION_CHOICES,
      filter: true,
      createOnly: true,
    },
    {
      source: 'date',
      type: 'date',
      label: 'Date',
      required: true,
      sortable: true,
      filter: true,
      createOnly: true,
      date: { min: '-5y', max: '+10y' },
    },
    { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 100 },
    {
      source: 'kind',
      type: 'choice',
      label: 'Change',
      required: true,
      createOnly: true,
      choices: [
        { id: 'add', name: 'Add a holiday' },
        { id: 'remove', name: 'Remove a holiday' },
      ],
      filter: true,
    },
  ],
};

/**
 * Early, Late, Night…: the times a shift is created from. Client users read them to request a shift (a template
 * carries no pay); a pay field added here must be readableBy AGENCY.
 */
export const shiftTemplates: ResourceDeclaration = {
  name: 'shift_templates',
  table: 'shift_templates',
  label: { one: 'Shift template', many: 'Shift templates' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'start_time', order: 'ASC' },
  search: ['name'],
  // Hidden, not removed: a closed shift is locked and keeps naming the template it was made from (issue 31.1).
  delete: 'soft',
  access: { ...adminManages, manager: ['list', 'show'], viewer: ['list', 'show'] },
  clientScope: 'agency',
  routes: {
    list: '/appsetting/shift',
    create: '/appsetting/shift/create',
    edit: '/appsetting/shift/:id',
    show: '/appsetting/shift/:id/show',
  },
  rules: (r): Record<string, string> =>
    r.start_time && r.start_time === r.end_time ? { end_time: 'A shift must end at another time than it starts.' } : {},
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 60, unique: true, sortable: true },
    time('start_time', 'Starts at', { sortable: true }),
    time('end_time', 'Ends at', { helperText: 'HH:mm; earlier than the start means the next day' }),
    {
      source: 'break_minutes',
      type: 'number',
      label: 'Unpaid break (minutes)',
      integer: true,
      min: 0,
      max: 240,
      defaultValue: 0,
      required: true,
    },
    { source: 'sleep_in', type: 'boolean', label: 'Sleep-in (flat rate)', defaultValue: false },
    {
      source: 'colour',
      type: 'choice',
      label: 'Colour',
      choices: [
        { id: 'green', name: 'Green' },
        { id: 'amber', name: 'Amber' },
        { id: 'red', name: 'Red' },
        { id: 'blue', name: 'Blue' },
        { id: 'grey', name: 'Grey' },
        { id: 'purple', name: 'Purple' },
      ],
    },
  ],
};

/** Employer on-costs of PAYE staff, from a date (employer National Insurance, rolled-up holiday pay). */
export const onCostRates: ResourceDeclaration = {
  name: 'on_cost_rates',
  table: 'on_cost_rates',
  label: { one: 'On-cost rates', many: 'On-cost rates' },
  recordRepresentation: '%{effective_from}',
  defaultSort: { field: 'effective_from', order: 'DESC' },
  delete: 'hard',
  access: adminManages,
  routes: {
    list: '/appsetting/on-costs',
    create: '/appsetting/on-costs/create',
    edit: '/appsetting/on-costs/:id',
    show: '/appsetting/on-costs/:id/show',
  },
  fields: [
    {
      source: 'effective_from',
      type: 'date',
      label: 'In force from',
      required: true,
      unique: true,
      sortable: true,
      date: { min: '-20y', max: '+5y' },
    },
    {
      source: 'employer_ni_percent',
      type: 'number',
      label: 'Employer National Insurance (%)',
      required: true,
      min: 0,
      max: 100,
    },
    {
      source: 'ni_threshold_weekly',
      type: 'money',
      label: 'National Insurance threshold (per week)',
      min: 0,
      max: 10000,
      helperText: 'Applied by payroll; a quote charges National Insurance on all pay.',
    },
    { source: 'holiday_pay_percent', type: 'number', label: 'Holiday pay (%)', required: true, min: 0, max: 100 },
  ],
};

/** The legal minimum hourly pay by age, from a date (the National Living Wage for 21 and over). */
export const wageFloors: ResourceDeclaration = {
  name: 'wage_floors',
  table: 'wage_floors',
  label: { one: 'Minimum wage', many: 'Minimum wages' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'effective_from', order: 'DESC' },
  delete: 'hard',
  access: adminManages,
  routes: {
    list: '/appsetting/minimum-wage',
    create: '/appsetting/minimum-wage/create',
    edit: '/appsetting/minimum-wage/:id',
    show: '/appsetting/minimum-wage/:id/show',
  },
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 100, sortable: true },
    {
      source: 'effective_from',
      type: 'date',
      label: 'In force from',
      required: true,
      sortable: true,
      date: { min: '-20y', max: '+5y' },
    },
    { source: 'min_age', type: 'number', label: 'From age', required: true, integer: true, min: 16, max: 100 },
    { source: 'hourly', type: 'money', label: 'Per hour', required: true, min: 0, max: 1000 },
  ],
};

export const rateResources: ResourceDeclaration[] = [
  rateCards,
  candidateRates,
  clientRules,
  holidayOverrides,
  shiftTemplates,
  onCostRates,
  wageFloors,
];
