import { textOf, type Action, type ResourceDeclaration, type Role } from '../../engine/types';
import { shiftRequests } from './requests';
import { shiftSpanProblem } from '../../domain/shifts/times';

/*
 * Shifts: the API the shift screens and the schedule are built on.
 *
 * Engine routes (the declaration below):
 *   GET    /api/shifts?tab=open|assigned|closed|deleted&start_at_gte&start_at_lte&client_id&site_id&job_role_id
 *                 &candidate_id&status&state&page&per_page&sort&order
 *   GET    /api/shifts/:id
 *   POST   /api/shifts            { client_id, site_id, job_role_id, start_at, end_at (ISO instants), break_minutes?,
 *                                   sleep_in?, notes?, template_id? }
 *                                 priced on the server (quoteShift); a client user's create is a request
 *                                 (requested_by_client)
 *   PUT    /api/shifts/:id        { notes, version }     (everything else is set at creation or by an action)
 *   POST   /api/shifts/:id/actions/{assign|unassign|close|cancel|reopen|change_charge|remove|move}
 *          and, bulk, POST /api/shifts/actions/{name} { ids, ... }
 *     assign   { candidate_id, override_reason? }   open → assigned; booking checks: hard → 409,
 *                                                     soft → 409 unless an admin gives override_reason
 *     unassign {}                                     assigned → open
 *     close    {}                                     assigned → closed, once the shift has ended
 *     cancel   { reason, waive_charge? }              open/assigned → cancelled; late-cancellation charge when the
 *                                                     client's rule applies (agency users may waive it); clients may
 *                                                     cancel their own shifts
 *              requested_by? client|agency|worker     who asked (a client user: always client; agency users: agency
 *                                                     by default). Charged only for the client's own late
 *                                                     cancellation of a booked shift; an ended shift cannot be
 *                                                     cancelled, nor a started one by a client user (409)
 *     change_charge { charge, reason }               cancelled: the agency waives (0) or changes the charge, with a
 *                                                     reason
 *     reopen   {}                                     cancelled → open
 *     remove   { reason }                             open/cancelled → deleted: the same as DELETE /api/shifts/:id
 *                                                     { reason } (soft: the row stays, listed on the 'deleted' tab);
 *                                                     its button says Delete.
 *     move     { start, end, candidate_id?, override_reason? }   new times (and staff); checks again when someone
 *                                                     is booked; re-priced
 *   A refused booking answers 409 { message, errors: { candidate_id: 'each failed check, in words' } } (hard checks,
 *   or soft ones when the caller may not override them); an admin who must give a reason gets
 *   422 { errors: { override_reason } }.
 *   A double booking caught by the database (two at once) answers 409 "<name> is already booked from … to …".
 *
 * Extra routes (server/routes/shifts.ts):
 *   POST /api/shifts/bulk { client_id, site_id, job_role_id, template_id? | start_time, end_time ('HH:mm'),
 *                           break_minutes?, dates: ['yyyy-MM-dd', …], staff_needed, notes?, sleep_in? }
 *        → 201 { data: [shift…], count }   created through the engine's createMany, all or nothing, with the rules
 *        of POST /api/shifts for each shift; a refusal names the request's field when every shift has the problem,
 *        else each refused date as dates[k] (its place in the list), and dates
 *   GET  /api/shifts/:id/cancellation?requested_by=client|agency|worker
 *        → { data: { allowed, requested_by, late, hours, charge, at, message? } }  what cancelling now would charge
 *        (before confirming); allowed false, with the reason as message, when it cannot be cancelled
 *   GET  /api/shifts/:id/check?candidate_id=n
 *        → { data: { candidate_id, name, passes, hard, soft, info: [{ code, severity, message }],
 *                    awr: { weeks, qualified, paused, resetOn } } }
 *   GET  /api/shifts/:id/suggestions?limit=20
 *        → { data: [{ candidate_id, name, job_role, available, availability, preferred, avoided, hours_this_week,
 *                     soft: [{ code, message }], awr }] }
 *   GET  /api/schedule?from&to (ISO instants or yyyy-MM-dd)&client_id&site_id&job_role_id&candidate_id&status
 *        → { data: [{ id, start_at, end_at, status, client_id, client_name, site_id, site_name, job_role_id,
 *                     job_role_name, candidate_id, candidate_name, sleep_in, requested_by_client, charge, pay?,
 *                     margin?, version }], from, to }
 *        (deleted shifts left out; cancelled ones included, filter status= to narrow)
 *        (pay and margin only for agency users; client users get their own client's shifts)
 */

export const SHIFT_STATUS = [
  { id: 'open', name: 'Open' },
  { id: 'assigned', name: 'Assigned' },
  { id: 'closed', name: 'Closed' },
  { id: 'cancelled', name: 'Cancelled' },
];

/** Where a shift is listed: its status, or 'deleted' once removed (a deleted shift keeps its last status). */
export const SHIFT_STATE = [...SHIFT_STATUS, { id: 'unfilled', name: 'Unfilled' }, { id: 'deleted', name: 'Deleted' }];

/** Who asked for a shift to be cancelled (core/domain/pricing/price.ts CANCEL_PARTIES). */
export const CANCEL_PARTY = [
  { id: 'client', name: 'The client' },
  { id: 'agency', name: 'The agency' },
  { id: 'worker', name: 'The staff member' },
  // Nobody asked: the booked staff member did not turn up (recorded once the shift has started, never charged).
  { id: 'no_show', name: 'Nobody: a no-show' },
];

const AGENCY: Role[] = ['admin', 'consultant'];
/**
 * Fields the booked staff member reads too (their phone page's My shifts): when, where, what, their own pay and
 * hours. Never the charge, margin, on-costs, price lines or cancellation charges (those stay without 'staff'). The
 * holder of a link to close the shift (a client's approver confirming it was worked) reads the same, but no pay.
 */
const WITH_STAFF: Role[] = ['admin', 'consultant', 'manager', 'viewer', 'staff', 'link'];
const AGENCY_AND_STAFF: Role[] = ['admin', 'consultant', 'staff'];

const agencyAccess: Action[] = ['list', 'show', 'create', 'edit', 'delete', 'export'];

export const shifts: ResourceDeclaration = {
  name: 'shifts',
  table: 'shifts',
  label: { one: 'Shift', many: 'Shifts' },
  // Titles add the resource's name ('Shift 28 Mar 2026, 08:00 at Main Building'): the name is the shift's own.
  recordRepresentation: '%{summary}',
  defaultSort: { field: 'start_at', order: 'ASC' },
  // A cancelled shift's charge cell says whether the agency changed or waived it.
  listData: ['cancellation_charge_reason'],
  // A deleted shift stays (the history, the 'deleted' tab), with who deleted it and why: DELETE /api/shifts/:id
  // { reason }, or its 'remove' button (which asks the reason).
  delete: { mode: 'soft', reason: 'deleted_reason', by: 'deleted_by', listed: true },
  clientScope: 'client_id',
  // A staff member lists and opens the shifts they are booked on (their phone page), and changes none.
  staffScope: 'candidate_id',
  access: {
    admin: agencyAccess,
    consultant: agencyAccess,
    // A client user's create is a request for an open shift at one of their sites.
    manager: ['list', 'show', 'create'],
    viewer: ['list', 'show'],
    staff: ['list', 'show'],
    // The holder of a capability link to this shift (server/engine/capability.ts) reads it before acting.
    link: ['show'],
  },
  routes: { list: '/shift-list' },
  // The spec's four lists; a cancelled shift is listed with the deleted ones (it will not be worked either).
  tabs: [
    { id: 'open', label: 'Open', filter: { state: 'open' }, path: '/shift-list/open' },
    { id: 'assigned', label: 'Assigned', filter: { state: 'assigned' }, path: '/shift-list/assigned' },
    { id: 'closed', label: 'Closed', filter: { state: 'closed' }, path: '/shift-list/closed' },
    {
      id: 'deleted',
      label: 'Cancelled and deleted',
      filter: { state: 'cancelled,deleted' },
      path: '/shift-list/deleted',
    },
  ],
  rules: (r): Record<string, string> => {
    const problem = shiftSpanProblem(textOf(r.start_at), textOf(r.end_at));
    return problem ? { end_at: problem } : {};
  },
  // The shift's state machine: each action runs only from the states listed (409 saying the current state
  // otherwise), and a deleted shift takes none. A closed shift has been worked: it is locked (no edit, no delete,
  // no action), as its pay and charge are final.
  lifecycle: {
    field: 'status',
    final: ['closed'],
    deletableIn: ['open', 'cancelled'],
    transitions: [
      { action: 'assign', from: ['open'], to: 'assigned' },
      { action: 'unassign', from: ['assigned'], to: 'open' },
      { action: 'close', from: ['assigned'], to: 'closed' },
      { action: 'cancel', from: ['open', 'assigned'], to: 'cancelled' },
      { action: 'change_charge', from: ['cancelled'] },
      { action: 'reopen', from: ['cancelled'], to: 'open' },
      // A drag may book someone onto an open shift.
      { action: 'move', from: ['open', 'assigned'], to: ['open', 'assigned'] },
    ],
  },
  actions: [
    {
      name: 'assign',
      label: 'Assign',
      icon: 'person_add',
      roles: AGENCY,
      bulk: true,
      success: 'Shift assigned |||| %{smart_count} shifts assigned',
      input: [
        { source: 'candidate_id', type: 'reference', reference: 'candidates', label: 'Staff member', required: true },
        {
          source: 'override_reason',
          type: 'longtext',
          label: 'Reason to book despite the warnings (admins only)',
          maxLength: 1000,
        },
      ],
      patch: (_r, input) => ({ candidate_id: input.candidate_id }),
    },
    {
      name: 'unassign',
      label: 'Unassign',
      icon: 'person_remove',
      roles: AGENCY,
      bulk: true,
      success: 'Shift unassigned |||| %{smart_count} shifts unassigned',
      confirm: 'Take the staff member off this shift? It becomes open again.',
      patch: () => ({ candidate_id: null, override_reason: null, booking_checks: null }),
    },
    // A capability link may close one shift: its holder confirms it was worked (the client's approver, no account).
    {
      name: 'close',
      label: 'Close',
      icon: 'task_alt',
      roles: [...AGENCY, 'link'],
      bulk: true,
      success: 'Shift closed |||| %{smart_count} shifts closed',
    },
    {
      name: 'cancel',
      label: 'Cancel shift',
      icon: 'event_busy',
      danger: true,
      roles: ['admin', 'consultant', 'manager'],
      bulk: true,
      success: 'Shift cancelled |||| %{smart_count} shifts cancelled',
      input: [
        { source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 1000 },
        // A client's user always cancels for the client; an agency user says whose request it is (the agency's by
        // default).
        { source: 'requested_by', type: 'choice', choices: CANCEL_PARTY, label: 'Cancelled at the request of' },
        { source: 'waive_charge', type: 'boolean', label: 'No late-cancellation charge (agency users only)' },
      ],
      patch: (_r, input) => ({ cancel_reason: input.reason }),
    },
    {
      name: 'change_charge',
      label: 'Change cancellation charge',
      icon: 'price_change',
      roles: AGENCY,
      success: 'Cancellation charge changed',
      input: [
        { source: 'charge', type: 'money', label: 'Charge (0 waives it)', required: true, min: 0, max: 10_000_000 },
        { source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 1000 },
      ],
    },
    {
      name: 'reopen',
      label: 'Reopen',
      icon: 'restart_alt',
      roles: AGENCY,
      success: 'Shift reopened',
      patch: () => ({
        candidate_id: null,
        cancelled_at: null,
        cancelled_by: null,
        cancel_reason: null,
        cancel_requested_by: null,
        cancellation_minutes: null,
        cancellation_charge: null,
        cancellation_rule_charge: null,
        cancellation_pay: null,
        cancellation_pay_hours: null,
        cancellation_charge_reason: null,
        cancellation_charge_changed_by: null,
        override_reason: null,
        booking_checks: null,
      }),
    },
    // The declared delete's button (it asks the reason); named 'remove' as CRUD names are reserved for access.
    {
      name: 'remove',
      label: 'Delete',
      icon: 'delete',
      danger: true,
      roles: AGENCY,
      bulk: true,
      deletes: true,
      success: 'Shift deleted |||| %{smart_count} shifts deleted',
      input: [{ source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 1000 }],
    },
    {
      name: 'move',
      label: 'Move',
      icon: 'open_with',
      roles: AGENCY,
      success: 'Shift moved',
      input: [
        { source: 'start', type: 'datetime', label: 'Starts', required: true },
        { source: 'end', type: 'datetime', label: 'Ends', required: true },
        { source: 'candidate_id', type: 'reference', reference: 'candidates', label: 'Staff member' },
        {
          source: 'override_reason',
          type: 'longtext',
          label: 'Reason to book despite the warnings (admins only)',
          maxLength: 1000,
        },
      ],
      patch: (_r, input) => ({ start_at: input.start, end_at: input.end }),
    },
  ],
  fields: [
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
    },
    {
      source: 'site_id',
      type: 'reference',
      reference: 'sites',
      label: 'Site',
      required: true,
      createOnly: true,
      filter: true,
      listHidden: true,
      within: { field: 'client_id', via: 'client_id' },
      readableBy: WITH_STAFF,
    },
    {
      source: 'job_role_id',
      type: 'reference',
      reference: 'job_roles',
      label: 'Job role',
      required: true,
      createOnly: true,
      filter: true,
      listHidden: true,
      readableBy: WITH_STAFF,
    },
    {
      source: 'template_id',
      type: 'reference',
      reference: 'shift_templates',
      label: 'Shift template',
      createOnly: true,
      // The template is hidden when deleted (soft), so every shift keeps naming the template it was made from.
      onDelete: 'keep',
      views: ['show', 'create'],
    },
    {
      source: 'start_at',
      type: 'datetime',
      label: 'Starts',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
      date: { min: '-1y', max: '+2y' },
      readableBy: WITH_STAFF,
    },
    {
      source: 'end_at',
      type: 'datetime',
      label: 'Ends',
      required: true,
      createOnly: true,
      date: { min: '-1y', max: '+2y' },
      readableBy: WITH_STAFF,
    },
    {
      source: 'break_minutes',
      type: 'number',
      integer: true,
      min: 0,
      max: 240,
      label: 'Unpaid break (minutes)',
      createOnly: true,
      helperText: 'Leave empty to use the client’s break rules.',
      readableBy: WITH_STAFF,
      views: ['show', 'create'],
    },
    {
      source: 'sleep_in',
      type: 'boolean',
      label: 'Sleep-in (flat rate)',
      defaultValue: false,
      createOnly: true,
      readableBy: WITH_STAFF,
      views: ['show', 'create'],
    },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      choices: SHIFT_STATUS,
      defaultValue: 'open',
      required: true,
      filter: true,
      sortable: true,
      readableBy: WITH_STAFF,
      views: ['list', 'show'],
    },
    {
      source: 'state',
      type: 'choice',
      label: 'List',
      choices: SHIFT_STATE,
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
      views: [],
    },
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      actionOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
      views: ['list', 'show'],
    },
    {
      source: 'candidate_name',
      type: 'text',
      label: 'Staff member',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['list', 'show'],
    },
    {
      source: 'summary',
      type: 'text',
      label: 'Shift',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: [],
    },
    // Where and as what, in one read for the phone page, which may not read sites or job roles themselves; only staff
    // receive them (the panels show the references), so the agency's lists pay no extra subqueries.
    {
      source: 'site_name',
      type: 'text',
      label: 'Site',
      computed: true,
      readOnly: true,
      readableBy: ['staff', 'link'],
      views: [],
    },
    {
      source: 'site_address',
      type: 'address',
      label: 'Site address',
      computed: true,
      readOnly: true,
      readableBy: ['staff', 'link'],
      views: [],
    },
    {
      source: 'job_role_name',
      type: 'text',
      label: 'Role',
      computed: true,
      readOnly: true,
      readableBy: ['staff', 'link'],
      views: [],
    },
    {
      source: 'notes',
      type: 'longtext',
      label: 'Notes',
      maxLength: 2000,
      readableBy: WITH_STAFF,
      views: ['show', 'edit', 'create'],
    },
    // The client's purchase order the shift is worked under: its invoice quotes it (a client may require one).
    {
      source: 'po_number',
      type: 'text',
      label: 'PO number',
      maxLength: 50,
      readableBy: ['admin', 'consultant', 'manager', 'viewer'],
      views: ['show', 'edit', 'create'],
    },
    // Quoted when the shift is created (and on assign, for the staff member's own pay rate); later rate cards never
    // change it.
    {
      source: 'hours',
      type: 'number',
      label: 'Paid hours',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['list', 'show'],
      listHidden: true,
    },
    { source: 'paid_minutes', type: 'number', integer: true, label: 'Paid minutes', readOnly: true, views: [] },
    { source: 'charge', type: 'money', label: 'Charge', readOnly: true, views: ['list', 'show'] },
    {
      source: 'pay',
      type: 'money',
      label: 'Pay',
      readOnly: true,
      readableBy: AGENCY_AND_STAFF,
      groups: ['pay_rates'],
      views: ['list', 'show'],
      listHidden: true,
    },
    {
      source: 'on_costs',
      type: 'money',
      label: 'On-costs',
      readOnly: true,
      readableBy: AGENCY,
      groups: ['margins'],
      views: ['show'],
    },
    {
      source: 'margin',
      type: 'money',
      label: 'Margin',
      readOnly: true,
      readableBy: AGENCY,
      groups: ['margins'],
      views: ['list', 'show'],
      listHidden: true,
    },
    // Each band's pay and charge: both groups.
    {
      source: 'price_lines',
      type: 'json',
      label: 'Price lines',
      readOnly: true,
      readableBy: AGENCY,
      groups: ['pay_rates', 'margins'],
      views: ['show'],
    },
    {
      source: 'rate_card_id',
      type: 'number',
      integer: true,
      label: 'Rate card',
      readOnly: true,
      readableBy: AGENCY,
      views: [],
    },
    {
      source: 'requested_by_client',
      type: 'boolean',
      label: 'Requested by the client',
      readOnly: true,
      defaultValue: false,
      // The dashboard's client requests awaiting an answer (issue 34) list the open ones.
      filter: true,
      views: ['show'],
    },
    { source: 'cancelled_at', type: 'datetime', label: 'Cancelled at', readOnly: true, views: ['show'] },
    { source: 'cancelled_by', type: 'text', label: 'Cancelled by', readOnly: true, views: ['show'] },
    {
      source: 'cancel_requested_by',
      type: 'choice',
      choices: CANCEL_PARTY,
      label: 'Cancelled at the request of',
      readOnly: true,
      views: ['show'],
    },
    { source: 'cancel_reason', type: 'longtext', label: 'Cancellation reason', readOnly: true, views: ['show'] },
    {
      source: 'cancellation_minutes',
      type: 'number',
      integer: true,
      label: 'Cancellation minutes charged',
      readOnly: true,
      views: [],
    },
    {
      source: 'cancellation_hours',
      type: 'number',
      label: 'Cancellation hours charged',
      computed: true,
      readOnly: true,
      views: ['show'],
    },
    // Listed in the column chooser only: a cancelled shift's Charge column already shows it (marked when changed).
    {
      source: 'cancellation_charge',
      type: 'money',
      label: 'Late-cancellation charge',
      readOnly: true,
      views: ['list', 'show'],
      listHidden: true,
    },
    // What the worker is paid for a late cancellation the client is charged for, by the agency's rule (issue 33),
    // priced with the cancellation; a pay run pays it once while the client is still charged.
    {
      source: 'cancellation_pay',
      type: 'money',
      label: 'Late-cancellation pay to the worker',
      readOnly: true,
      readableBy: AGENCY,
      groups: ['pay_rates'],
      views: ['show'],
    },
    {
      source: 'cancellation_pay_hours',
      type: 'number',
      label: 'Late-cancellation hours paid',
      readOnly: true,
      readableBy: AGENCY,
      views: [],
    },
    {
      source: 'cancellation_rule_charge',
      type: 'money',
      label: 'Charge by the client’s rule',
      readOnly: true,
      views: ['show'],
    },
    {
      source: 'cancellation_charge_reason',
      type: 'longtext',
      label: 'Charge changed because',
      readOnly: true,
      views: ['show'],
    },
    {
      source: 'cancellation_charge_changed_by',
      type: 'text',
      label: 'Charge changed by',
      readOnly: true,
      views: ['show'],
    },
    { source: 'deleted_at', type: 'datetime', label: 'Deleted at', readOnly: true, views: ['show'] },
    { source: 'deleted_by', type: 'text', label: 'Deleted by', readOnly: true, views: ['show'] },
    { source: 'deleted_reason', type: 'longtext', label: 'Deletion reason', readOnly: true, views: ['show'] },
    {
      source: 'override_reason',
      type: 'longtext',
      label: 'Booked despite warnings because',
      readOnly: true,
      readableBy: AGENCY,
      views: ['show'],
    },
    {
      source: 'booking_checks',
      type: 'json',
      label: 'Warnings overridden',
      readOnly: true,
      readableBy: AGENCY,
      views: [],
    },
    { source: 'created_by', type: 'text', label: 'Created by', readOnly: true, views: ['show'] },
    { source: 'created_at', type: 'datetime', label: 'Created', readOnly: true, sortable: true, views: ['show'] },
  ],
};

export const shiftResources: ResourceDeclaration[] = [shifts, shiftRequests];
