import { idsOf, type Action, type ResourceDeclaration, type Role } from '../../engine/types';
import { BOOKED_WITHIN_DAYS, DOCUMENT_REPORT_VIEWS, type DocumentReportView } from '../../domain/compliance/documents';

/**
 * A report view (the domain's definition) as the engine's list filter, on current documents: dates relative to
 * the agency's today ('today', '+30d'), which the server resolves. "In force or never expiring" is the computed
 * expiry state, since a date range cannot say "or no expiry".
 */
function reportTabFilter(v: DocumentReportView): Record<string, unknown> {
  const filter: Record<string, unknown> = { current: true };
  if (v.status) filter.status = v.status;
  const e = v.expiry;
  if (!e) return filter;
  const day = (n: number) => (n === 0 ? 'today' : `${n > 0 ? '+' : ''}${n}d`);
  if (e.orNoExpiry) {
    if (e.fromDays !== 0 || e.toDays !== null)
      throw new Error(`Report view ${v.key}: only "from today, or no expiry" can include documents without an expiry`);
    filter.expiry_state = 'valid,due,no_expiry';
    return filter;
  }
  if (e.fromDays !== null) filter.expiry_date_gte = day(e.fromDays);
  if (e.toDays !== null) filter.expiry_date_lte = day(e.toDays);
  return filter;
}

const agencyStaff: ResourceDeclaration['access'] = {
  admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
  consultant: ['list', 'show', 'create', 'edit', 'export'] as Action[],
};

export const DOCUMENT_STATUS = [
  { id: 'awaiting', name: 'Awaiting check' },
  { id: 'verified', name: 'Verified' },
  { id: 'rejected', name: 'Rejected' },
];
/** The states in which what was checked (file, number, dates) may still change: not once verified. */
const CHECKABLE = ['awaiting', 'rejected'];
export const EXPIRY_STATE = [
  { id: 'valid', name: 'Valid' },
  { id: 'due', name: 'Due' },
  { id: 'expired', name: 'Expired' },
  { id: 'no_expiry', name: 'Does not expire' },
];

/** Fields of a document its staff member reads on their phone page (My documents), besides the agency. */
const WITH_STAFF: Role[] = ['admin', 'consultant', 'staff'];

/**
 * A staff member's compliance document (DBS, right to work…). Uploaded by agency users, or by the staff member
 * on their phone page, and checked by the agency (verify / reject). A newer upload of the same category replaces
 * the older one, which stays in the history; but a verified document keeps counting beside a renewal that awaits
 * its check, until the renewal is verified (replacedDocuments in core/domain/compliance, issue 30.2).
 * The list is also the document report (/report/DocumentReport/*): its tabs are the report's views, with dates
 * relative to the agency's today.
 */
export const candidateDocuments: ResourceDeclaration = {
  name: 'candidate_documents',
  table: 'candidate_documents',
  label: { one: 'Document', many: 'Documents' },
  recordRepresentation: '%{number}',
  defaultSort: { field: 'expiry_date', order: 'ASC' },
  // The list's status cell gives a rejection's reason.
  listData: ['rejection_reason'],
  delete: 'soft',
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide', tab: 'document' },
  // A staff member lists their own and uploads new ones (awaiting the agency's check); they edit or delete none.
  staffScope: 'candidate_id',
  access: { ...agencyStaff, staff: ['list', 'show', 'create'] },
  routes: { list: '/report/DocumentReport' },
  tabs: DOCUMENT_REPORT_VIEWS.map((v) => ({
    id: v.key,
    label: v.label,
    filter: reportTabFilter(v),
    path: `/report/DocumentReport/${v.key}`,
  })),
  // A check moves between these states only through Verify and Reject; a replaced document (no longer current) is
  // history and takes neither (the guards). What was checked (the file, its number and dates) changes only while
  // the document awaits its check or was rejected: a verified document is changed by uploading a new one.
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'verify', from: ['awaiting', 'rejected'], to: 'verified' },
      { action: 'reject', from: ['awaiting', 'verified'], to: 'rejected' },
    ],
  },
  actions: [
    {
      name: 'verify',
      label: 'Verify',
      icon: 'verified',
      roles: ['admin', 'consultant'],
      bulk: true,
      success: 'Document verified |||| %{smart_count} documents verified',
      guard: (r) => (!r.current ? 'app.documents.guard.replaced' : null),
      patch: () => ({ rejection_reason: null }),
    },
    {
      name: 'reject',
      label: 'Reject',
      icon: 'block',
      danger: true,
      roles: ['admin', 'consultant'],
      success: 'Document rejected',
      input: [{ source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 1000 }],
      guard: (r) => (!r.current ? 'app.documents.guard.replaced' : null),
      patch: (_r, input) => ({ rejection_reason: input.reason }),
    },
  ],
  fields: [
    {
      source: 'candidate_id',
      readableBy: WITH_STAFF,
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
    },
    {
      source: 'document_category_id',
      readableBy: WITH_STAFF,
      type: 'reference',
      reference: 'document_categories',
      label: 'Category',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
    },
    {
      source: 'number',
      readableBy: WITH_STAFF,
      type: 'text',
      label: 'Document number',
      editableIn: CHECKABLE,
      maxLength: 60,
      views: ['list', 'show', 'edit', 'create'],
    },
    {
      source: 'issue_date',
      readableBy: WITH_STAFF,
      type: 'date',
      label: 'Issued on',
      editableIn: CHECKABLE,
      date: { max: 'today', min: '-50y' },
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'expiry_date',
      readableBy: WITH_STAFF,
      type: 'date',
      label: 'Expires on',
      editableIn: CHECKABLE,
      date: { min: '-50y', max: '+50y' },
      filter: true,
      sortable: true,
      helperText: 'Leave empty to use the issue date plus the category’s validity.',
    },
    // Listed, so that a checker opens the file from its row (on the profile's Documents tab and in the report).
    {
      source: 'file',
      readableBy: WITH_STAFF,
      type: 'file',
      label: 'File (PDF or image)',
      editableIn: CHECKABLE,
      required: true,
      file: { kind: 'document', nameField: 'file_name' },
      views: ['list', 'show', 'edit', 'create'],
    },
    // The category's name in the document's own read, for the phone page, which may not read the categories.
    {
      source: 'category_name',
      readableBy: ['staff'],
      type: 'text',
      label: 'Category',
      computed: true,
      readOnly: true,
      views: [],
    },
    // The stored file's own name: the file link's text.
    {
      source: 'file_name',
      readableBy: WITH_STAFF,
      type: 'text',
      label: 'File name',
      computed: true,
      readOnly: true,
      views: [],
    },
    {
      source: 'status',
      readableBy: WITH_STAFF,
      type: 'choice',
      label: 'Check',
      choices: DOCUMENT_STATUS,
      defaultValue: 'awaiting',
      required: true,
      filter: true,
      sortable: true,
      views: ['list', 'show'],
    },
    {
      source: 'rejection_reason',
      readableBy: WITH_STAFF,
      type: 'longtext',
      label: 'Rejected because',
      actionOnly: true,
      views: ['show'],
    },
    {
      source: 'expiry_state',
      readableBy: WITH_STAFF,
      type: 'choice',
      label: 'Expiry',
      choices: EXPIRY_STATE,
      computed: true,
      readOnly: true,
      filter: true,
      views: ['list', 'show'],
    },
    {
      source: 'days_left',
      readableBy: WITH_STAFF,
      type: 'number',
      label: 'Days left',
      computed: true,
      readOnly: true,
      views: ['list', 'show'],
    },
    {
      source: 'current',
      readableBy: WITH_STAFF,
      type: 'boolean',
      label: 'Current',
      readOnly: true,
      defaultValue: true,
      filter: true,
      views: ['show'],
    },
    // The dashboard's "Needs doing" (issue 34): documents of staff booked on a shift starting within the next 14 days.
    {
      source: 'booked_soon',
      readableBy: ['admin', 'consultant'],
      type: 'boolean',
      label: `Staff booked in the next ${BOOKED_WITHIN_DAYS} days`,
      computed: true,
      readOnly: true,
      filter: true,
      views: [],
    },
    {
      source: 'created_at',
      readableBy: WITH_STAFF,
      type: 'datetime',
      label: 'Uploaded',
      readOnly: true,
      sortable: true,
      views: ['show'],
    },
  ],
};

/** A staff member barred from a client, or from one of its sites. Bookings there are refused (shifts). */
export const candidateRestrictions: ResourceDeclaration = {
  name: 'candidate_restrictions',
  unitScope: { none: 'part of the staff member’s record; staff work across units, and who books them must see it' },
  table: 'candidate_restrictions',
  label: { one: 'Restriction', many: 'Restrictions' },
  recordRepresentation: '%{reason}',
  defaultSort: { field: 'restricted_on', order: 'DESC' },
  delete: 'hard',
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide', tab: 'restricted' },
  access: agencyStaff,
  fields: [
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
    },
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
      label: 'Site (leave empty for every site)',
      filter: true,
      onDelete: 'remove',
      within: { field: 'client_id', via: 'client_id', message: 'app.restrictions.site_of_other_client' },
    },
    { source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 2000 },
    {
      source: 'restricted_on',
      type: 'date',
      label: 'Date',
      required: true,
      date: { max: 'today', min: '-20y', defaultToday: true },
      sortable: true,
    },
    { source: 'recorded_by', type: 'text', label: 'Recorded by', readOnly: true, views: ['list', 'show'] },
    // Future bookings it covers (id, start_at, end_at, site), for the offer to unassign them.
    {
      source: 'affected_shifts',
      type: 'json',
      label: 'Booked shifts it covers',
      computed: true,
      readOnly: true,
      views: ['show'],
    },
  ],
};

/** What a staff member prefers: one record per staff member, edited on the profile's Preferences tab. */
export const candidatePreferences: ResourceDeclaration = {
  name: 'candidate_preferences',
  unitScope: { none: 'part of the staff member’s record; staff work across units' },
  table: 'candidate_preferences',
  label: { one: 'Preferences', many: 'Preferences' },
  recordRepresentation: 'Preferences',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide', tab: 'candidate-preference' },
  access: agencyStaff,
  rules: (r) => {
    const out: Record<string, string> = {};
    const overlap = (a: unknown, b: unknown) => idsOf(a).some((x) => idsOf(b).includes(x));
    if (overlap(r.preferred_client_ids, r.avoided_client_ids)) out.avoided_client_ids = 'app.preferences.overlap';
    if (overlap(r.preferred_site_ids, r.avoided_site_ids)) out.avoided_site_ids = 'app.preferences.overlap';
    if (r.opted_out_48h === true && !r.opt_out_signed_on) out.opt_out_signed_on = 'app.preferences.opt_out_date';
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
      unique: true,
      filter: true,
    },
    {
      source: 'preferred_client_ids',
      type: 'references',
      reference: 'clients',
      label: 'Preferred clients',
      onDelete: 'remove',
    },
    {
      source: 'avoided_client_ids',
      type: 'references',
      reference: 'clients',
      label: 'Clients to avoid',
      onDelete: 'remove',
    },
    {
      source: 'preferred_site_ids',
      type: 'references',
      reference: 'sites',
      label: 'Preferred sites',
      onDelete: 'remove',
    },
    { source: 'avoided_site_ids', type: 'references', reference: 'sites', label: 'Sites to avoid', onDelete: 'remove' },
    {
      source: 'job_role_ids',
      type: 'references',
      reference: 'job_roles',
      label: 'Job roles they will work',
      onDelete: 'remove',
    },
    { source: 'prefers_day', type: 'boolean', label: 'Day shifts', defaultValue: true },
    { source: 'prefers_night', type: 'boolean', label: 'Night shifts', defaultValue: false },
    { source: 'prefers_long_day', type: 'boolean', label: 'Long days', defaultValue: false },
    { source: 'prefers_weekend', type: 'boolean', label: 'Weekends', defaultValue: false },
    { source: 'max_hours_per_week', type: 'number', label: 'Most hours a week', integer: true, min: 1, max: 100 },
    { source: 'travel_radius_miles', type: 'number', label: 'Travels up to (miles)', integer: true, min: 0, max: 500 },
    { source: 'opted_out_48h', type: 'boolean', label: 'Opted out of the 48-hour week', defaultValue: false },
    { source: 'opt_out_signed_on', type: 'date', label: 'Opt-out signed on', date: { max: 'today', min: '-20y' } },
  ],
};

export const AVAILABILITY_CHOICES = [
  { id: 'available', name: 'Available all day' },
  { id: 'day', name: 'Day' },
  { id: 'night', name: 'Night' },
  { id: 'long_day', name: 'Long day' },
  { id: 'unavailable', name: 'Unavailable' },
];

/** One staff member's availability on one day; the week grid (/staff/availability) edits it in place. */
export const availability: ResourceDeclaration = {
  name: 'availability',
  table: 'availability',
  label: { one: 'Availability', many: 'Availability' },
  recordRepresentation: '%{date}',
  defaultSort: { field: 'date', order: 'ASC' },
  delete: 'hard',
  parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'hide' },
  access: agencyStaff,
  uniqueTogether: [{ fields: ['candidate_id', 'date'], message: 'app.availability.already_set' }],
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
      source: 'date',
      type: 'date',
      label: 'Date',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
      date: { min: '-1y', max: '+2y' },
    },
    {
      source: 'status',
      type: 'choice',
      label: 'Availability',
      required: true,
      choices: AVAILABILITY_CHOICES,
      filter: true,
    },
  ],
};

export const complianceResources = [candidateDocuments, candidateRestrictions, candidatePreferences, availability];
