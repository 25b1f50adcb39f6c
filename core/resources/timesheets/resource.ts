import {
  textOf,
  type Action,
  type FieldDeclaration,
  type RecordValues,
  type ResourceDeclaration,
  type Role,
} from '../../engine/types';
import {
  AMENDABLE_STATES,
  SIGNATURE_MAX_CHARS,
  SIGNATURE_PATTERN,
  timesheetFromLines,
} from '../../domain/timesheets/rules';
import { timesheetApprovers } from './approvers';

export { timesheetApprovers };

/*
 * Timesheets (issue 17): what was worked, per client (or per site, as the client's `timesheet_per` says) and
 * period, line by line; signed by the client (in their panel, by an e-mailed link, or on the staff member's phone),
 * priced on the actual times, then locked once invoiced or paid.
 *
 * Engine routes (these declarations), besides CRUD:
 *   POST /api/timesheets/actions/generate   { week_start: 'yyyy-MM-dd' (a Monday) }
 *                                           | { from, to: 'yyyy-MM-dd' } | { shift_ids: [n…] }   (collection action)
 *        → { data: { timesheets: [id…], lines: n, shifts: n, job_id? } }  worked shifts not yet on a timesheet, each
 *        on the draft timesheet of its client (or site) and period; a large run answers 202 with a job to follow.
 *        client_ids narrows it to chosen clients; preview: true answers { preview: [{ client_id, name, shifts }],
 *        shifts } and takes nothing (the week's confirmation).
 *   POST /api/timesheets/:id/actions/submit            draft | amended → submitted; e-mails the approver a link
 *                                                      (→ signed at once when every line already is)
 *   POST /api/timesheets/:id/actions/resend_link       submitted: e-mails the approver a new link; earlier ones
 *                                                      are revoked (they no longer even read the timesheet)
 *   POST /api/timesheets/:id/actions/approve           { line_ids?, signer_name, signature (PNG data URL),
 *                                                        dispute_line_ids?, dispute_reason? }
 *                                                      submitted → submitted | signed | disputed
 *   POST /api/timesheets/:id/actions/dispute           { line_ids, reason }  submitted → disputed
 *   POST /api/timesheets/:id/actions/amend             { note }  disputed → amended (no line still disputed)
 *   POST /api/timesheets/:id/actions/verify            { line_ids?, all_lines?, reason, evidence? } agency admins:
 *                                                      the chosen lines verified by the agency (payable without a
 *                                                      signature); none chosen needs all_lines = the number of
 *                                                      unsigned lines (the confirmation names it)
 *   POST /api/timesheets/:id/actions/withdraw          { reason } submitted → draft: back from the client (links
 *                                                      withdrawn), so its lines can be amended and added to
 *   POST /api/timesheets/:id/actions/lock              → locked (final), closed by the agency; invoicing and payroll
 *                                                      will add their own `locked_by`
 *   (submit, amend and lock also bulk: POST /api/timesheets/actions/{name} { ids, … })
 *   POST /api/timesheet_lines                          a line added by hand (amendment_note required; with or
 *                                                      without a shift; the hard booking checks apply)
 *   POST /api/timesheet_lines/:id/actions/amend        { actual_start, actual_end, break_minutes, note }
 *   POST /api/timesheet_lines/:id/actions/record_times { actual_start, actual_end, break_minutes }  (staff, own line)
 *   POST /api/timesheet_lines/:id/actions/sign         { approver_id, pin, signature }  (staff's phone: one of the
 *                                                      client's approvers signs with their own PIN; see approvers.ts)
 *   POST /api/timesheet_lines/:id/actions/verify       { reason, evidence? } (also bulk)
 *   POST /api/timesheet_lines/:id/actions/withdraw_verification  { reason }  verified → pending, until locked
 *   GET  /api/sign_timesheets/:client_id               the spec's call (server/routes/timesheets.ts)
 *   GET  /api/timesheets/:id/pdf                       the printable timesheet
 *   The signing link: GET /api/capability/<token> shows the timesheet with `review_lines`;
 *   POST /api/capability/<token>/actions/approve signs it (see core/contracts/timesheets.ts for the page's route).
 */

export const TIMESHEET_STATUS = [
  { id: 'draft', name: 'Draft' },
  { id: 'submitted', name: 'Awaiting signature' },
  { id: 'signed', name: 'Signed' },
  // Every line verified by the agency, none signed by the client: nothing is left to sign (issue 29.11).
  { id: 'verified', name: 'Fully verified' },
  { id: 'disputed', name: 'Disputed' },
  { id: 'amended', name: 'Amended' },
  { id: 'locked', name: 'Locked' },
];

export { AMENDABLE_STATES };
/** Every state but locked: a line's signature, verification or dispute is recorded until the timesheet is closed. */
const OPEN_STATES = ['draft', 'submitted', 'signed', 'verified', 'disputed', 'amended'];
/** Signed or fully verified: what the Signed tab lists, and what may be locked. */
export const DONE_STATES = ['signed', 'verified', 'locked'];

export const LINE_STATUS = [
  { id: 'pending', name: 'Awaiting signature' },
  { id: 'signed', name: 'Signed' },
  { id: 'disputed', name: 'Disputed' },
  { id: 'verified', name: 'Verified by the agency' },
];

/** How a signature was given: in the client panel, through the e-mailed link, on the staff member's phone. */
export const SIGNED_VIA = [
  { id: 'panel', name: 'Client panel' },
  { id: 'link', name: 'Signing link' },
  { id: 'phone', name: 'Staff member’s phone' },
];

export const TIMESHEET_KIND = [
  { id: 'weekly', name: 'Weekly' },
  { id: 'custom', name: 'Custom' },
];

/**
 * Who closed a timesheet for good. Only the agency's own lock exists yet: the invoicing and payroll issues add
 * 'invoice' and 'payroll' when something in the product sets them (issue 30.20; migration 071).
 */
export const LOCKED_BY = [{ id: 'agency', name: 'Closed by the agency' }];

// A drawn signature as the browser's signature pad gives it; the server checks it is a PNG (signatureProblem).
export { SIGNATURE_MAX_CHARS, SIGNATURE_PATTERN };

const AGENCY: Role[] = ['admin', 'consultant'];
const CLIENTS: Role[] = ['manager', 'viewer'];
/** Agency and client users, and the signing link's holder: what the client signs (never pay). */
const WITH_LINK: Role[] = [...AGENCY, ...CLIENTS, 'link'];
/** Everyone who reads a line, the staff member whose line it is too. */
const WITH_STAFF: Role[] = [...AGENCY, ...CLIENTS, 'staff'];
const AGENCY_AND_STAFF: Role[] = [...AGENCY, 'staff'];

const signatureInput: FieldDeclaration[] = [
  { source: 'signer_name', type: 'text', label: 'Name of the person signing', required: true, maxLength: 150 },
  {
    source: 'signature',
    type: 'longtext',
    label: 'Signature',
    required: true,
    maxLength: SIGNATURE_MAX_CHARS,
    pattern: { regex: SIGNATURE_PATTERN, message: 'app.timesheets.signature_png' },
  },
];

/** Why a line of a timesheet in this state cannot be amended (or a line added to it), or null. */
export function notAmendable(status: string | undefined): string | null {
  if (!status || AMENDABLE_STATES.includes(status)) return null;
  if (status === 'submitted')
    return 'The timesheet is with the client: withdraw it from the client to change its lines.';
  return 'The timesheet is signed, verified or locked: its lines can no longer be changed.';
}

/**
 * Why a line billed by an invoice that has not released it cannot change its hours, charge or status (issue 32.8): the
 * invoice would no longer say what was worked. Voiding the draft or crediting the line with re-billing releases it.
 */
const billed = (r: RecordValues): string | null =>
  r.billed_on
    ? `This line is billed on invoice ${textOf(r.billed_on)}: void the draft, or credit the line to re-bill it, before changing it.`
    : null;

/**
 * Why a line paid by a finalised pay run cannot change (issue 33): the payslip kept says what was paid for it. A
 * correction is an adjustment on the staff member's next payslip.
 */
export const paidLineRefusal = (r: RecordValues): string | null =>
  r.paid_in_run
    ? `This line was paid in finalised pay run ${textOf(r.paid_in_run)}: it can no longer change. Correct the pay with an adjustment in the next pay run.`
    : null;

/**
 * Why a line on a pay run not yet finalised cannot change its hours or status (a line's money integrity): its payslip
 * pays it as it is. A draft run is cancelled (which releases its lines) and made again; an approved run is paid as
 * approved, and a correction is an adjustment in the next run. `held_by_run` is the run's state and id ('draft 12').
 */
export function heldByRunRefusal(r: RecordValues): string | null {
  const [state, id] = textOf(r.held_by_run).split(' ');
  if (!id) return null;
  if (state === 'draft')
    return `This line is on draft pay run ${id}: cancel that run before changing the line, then make the run again.`;
  if (state === 'approved')
    return `This line is on approved pay run ${id}, which pays it as it is: correct the pay with an adjustment in the next pay run.`;
  return `This line was paid in finalised pay run ${id}: it can no longer change. Correct the pay with an adjustment in the next pay run.`;
}

/**
 * Why a line's payable or billable state cannot change (every action on a line but the run's own mark_paid): paid by a
 * finalised run, held by a draft or approved one, or billed by an invoice (a draft or an issued one).
 */
export const heldLineRefusal = (r: RecordValues): string | null =>
  paidLineRefusal(r) ?? heldByRunRefusal(r) ?? billed(r);

/** The computed fields heldLineRefusal reads, read under the lines' lock. */
const HELD_READS = ['billed_on', 'held_by_run'];

const actualTimes: FieldDeclaration[] = [
  { source: 'actual_start', type: 'datetime', label: 'Actual start', required: true },
  { source: 'actual_end', type: 'datetime', label: 'Actual end', required: true },
  { source: 'break_minutes', type: 'number', label: 'Break (minutes)', integer: true, min: 0, max: 240 },
];

const agencyAccess: Action[] = ['list', 'show', 'edit', 'export'];

/** The sentence of the Submit and Resend confirmations naming who receives the link (core/resources/messages.ts). */
const signingRecipient = (r: Record<string, any>) =>
  r.signing_recipient ? 'app.timesheets.link_to' : 'app.timesheets.link_to_nobody';

/**
 * Columns the custom, signed and awaiting-signature tabs need least, left to the column chooser so each tab fits a
 * laptop: the kind, revisions, line counts and the signature's time.
 */
const TUCKED_COLUMNS = ['kind', 'supplement_of', 'revision', 'line_count', 'payable_lines', 'signed_at'];

export const timesheets: ResourceDeclaration = {
  name: 'timesheets',
  table: 'timesheets',
  label: { one: 'Timesheet', many: 'Timesheets' },
  recordRepresentation: '%{number}',
  defaultSort: { field: 'period_start', order: 'DESC' },
  search: ['number'],
  // A timesheet is never deleted: it is what pay and invoices rest on.
  delete: 'hard',
  clientScope: 'client_id',
  access: {
    admin: agencyAccess,
    consultant: agencyAccess,
    manager: ['list', 'show'],
    viewer: ['list', 'show'],
    // The signing link's holder reads the one timesheet it was sent for (server/engine/capability.ts).
    link: ['show'],
  },
  routes: { list: '/timesheet/weekly' },
  tabs: [
    { id: 'weekly', label: 'Weekly', filter: { kind: 'weekly' }, path: '/timesheet/weekly' },
    {
      id: 'custom',
      label: 'Custom',
      filter: { kind: 'custom' },
      path: '/timesheet/custom',
      columns: { hidden: TUCKED_COLUMNS },
    },
    {
      id: 'signed',
      label: 'Signed',
      filter: { status: DONE_STATES.join(',') },
      path: '/timesheet/signed',
      // Who signed, in place of the site, the period's end and the margin.
      columns: { hidden: [...TUCKED_COLUMNS, 'site_id', 'period_end', 'margin'], shown: ['signers'] },
    },
    // Sent to the client and not yet signed (the dashboard's chase list: issue 34).
    // Its pay and margin left to the column chooser as well, so it fits a laptop.
    {
      id: 'awaiting',
      label: 'Awaiting signature',
      filter: { status: 'submitted' },
      path: '/timesheet/awaiting',
      columns: { hidden: [...TUCKED_COLUMNS, 'pay', 'margin'] },
    },
  ],
  numbering: { field: 'number', series: 'TS', prefix: 'TS-', pad: 5 },
  // Locked is final (invoiced or paid from it): the timesheet as locked is the one kept (issue 31.5).
  documents: [{ template: 'timesheet', label: 'Timesheet', keptFrom: 'lock' }],
  lifecycle: {
    field: 'status',
    // Invoiced or paid: a correction is then a credit note or a payroll adjustment, never an edit.
    final: ['locked'],
    transitions: [
      // Then signed at once when every line already is (signed on the staff member's phone, or verified): the state
      // its lines put it in (timesheetFromLines, declared on its lines) follows every transition and line change.
      { action: 'submit', from: ['draft', 'amended'], to: 'submitted' },
      // Approving some lines keeps it awaiting the rest; disputing some (through the link's one action) disputes it.
      { action: 'approve', from: ['submitted'] },
      { action: 'dispute', from: ['submitted'], to: 'disputed' },
      { action: 'amend', from: ['disputed'], to: 'amended' },
      // A new signing link for a timesheet awaiting signature; the earlier ones stop working, even for reading.
      { action: 'resend_link', from: ['submitted'] },
      // A submitted timesheet whose last unsigned lines are verified has nothing left to sign (its lines say so).
      { action: 'verify', from: ['draft', 'submitted', 'disputed', 'amended'] },
      // Taken back from the client (a wrong line seen after sending): its links stop working, its lines can change.
      { action: 'withdraw', from: ['submitted'], to: 'draft' },
      { action: 'lock', from: OPEN_STATES, to: 'locked' },
      // A collection action: it runs on no record, so it has no transition (the generated ones start draft).
    ],
  },
  actions: [
    {
      name: 'generate',
      label: 'Generate',
      icon: 'playlist_add',
      roles: ['admin', 'consultant', 'staff'],
      collection: true,
      success: 'Timesheets generated',
      input: [
        { source: 'week_start', type: 'date', label: 'Week starting (Monday)' },
        { source: 'from', type: 'date', label: 'From' },
        { source: 'to', type: 'date', label: 'To' },
        { source: 'shift_ids', type: 'references', reference: 'shifts', label: 'Shifts' },
        { source: 'client_id', type: 'reference', reference: 'clients', label: 'Client' },
        { source: 'client_ids', type: 'references', reference: 'clients', label: 'Clients' },
        // Says per client how many worked shifts it would take, taking none (the confirmation's count).
        { source: 'preview', type: 'boolean', label: 'Only say what it would take' },
      ],
    },
    {
      name: 'submit',
      label: 'Submit to the client',
      icon: 'send',
      roles: AGENCY,
      bulk: true,
      confirm: 'Send %{name} to the client for signature?',
      confirmDetail: signingRecipient,
      success: 'Timesheet submitted |||| %{smart_count} timesheets submitted',
    },
    {
      name: 'resend_link',
      label: 'Resend the signing link',
      icon: 'send',
      roles: AGENCY,
      confirm: 'E-mail a new signing link for %{name}?',
      confirmDetail: signingRecipient,
      success: 'Signing link sent',
    },
    {
      name: 'approve',
      label: 'Approve and sign',
      icon: 'draw',
      roles: ['manager', 'link'],
      success: 'Timesheet signed',
      // Signed in part: the link stays usable for the lines still awaiting signature (issue 29.5).
      linkReusableWhile: (r) => r.status === 'submitted',
      // Bound to what is signed (the lines' times and charges, and the revision every amendment raises), not to who
      // has signed which line since: a line signed in the panel or on a phone leaves the link working for the rest.
      linkBoundTo: (r) => ({
        revision: r.revision,
        lines: ((r.review_lines ?? []) as Record<string, unknown>[]).map(
          ({ status: _s, dispute_reason: _d, ...line }) => line,
        ),
      }),
      input: [
        {
          source: 'line_ids',
          type: 'references',
          reference: 'timesheet_lines',
          label: 'Lines to approve (all awaiting signature when empty)',
        },
        ...signatureInput,
        // The signing link runs one action: its page disputes lines through it too.
        { source: 'dispute_line_ids', type: 'references', reference: 'timesheet_lines', label: 'Lines disputed' },
        { source: 'dispute_reason', type: 'longtext', label: 'Why they are disputed', maxLength: 2000 },
      ],
    },
    {
      name: 'dispute',
      label: 'Dispute lines',
      icon: 'report',
      danger: true,
      roles: ['manager'],
      success: 'Lines disputed',
      input: [
        {
          source: 'line_ids',
          type: 'references',
          reference: 'timesheet_lines',
          label: 'Lines disputed',
          required: true,
        },
        { source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 2000 },
      ],
    },
    {
      name: 'amend',
      label: 'Mark amended',
      icon: 'edit_note',
      roles: AGENCY,
      bulk: true,
      success: 'Timesheet amended |||| %{smart_count} timesheets amended',
      input: [{ source: 'note', type: 'longtext', label: 'What was changed', required: true, maxLength: 2000 }],
      patch: (_r, input) => ({ amendment_note: input.note }),
    },
    {
      name: 'verify',
      label: 'Verify by the agency',
      icon: 'verified',
      roles: ['admin'],
      // One timesheet at a time: which lines, and how they were verified, is a judgement on that timesheet.
      success: 'Lines verified by the agency',
      guard: (r) =>
        Number(r.line_count) > 0 && Number(r.payable_lines) >= Number(r.line_count)
          ? 'Every line is already signed or verified.'
          : null,
      input: [
        {
          source: 'line_ids',
          type: 'references',
          reference: 'timesheet_lines',
          label: 'Lines to verify',
          // This timesheet's lines that are neither signed nor verified, found as you type.
          options: { parent: 'timesheet_id', filter: { payable: 'false' } },
        },
        {
          source: 'all_lines',
          type: 'number',
          integer: true,
          min: 1,
          label: 'Or verify all %{unsigned_lines} unsigned lines: type %{unsigned_lines} to confirm',
        },
        { source: 'reason', type: 'longtext', label: 'How the hours were verified', required: true, maxLength: 2000 },
        { source: 'evidence', type: 'file', label: 'Evidence', file: { kind: 'document' } },
      ],
      patch: (r, input) => ({ verified_evidence: input.evidence ?? r.verified_evidence }),
    },
    {
      name: 'withdraw',
      label: 'Withdraw from the client',
      icon: 'undo',
      roles: AGENCY,
      danger: true,
      success: 'Timesheet withdrawn from the client',
      input: [{ source: 'reason', type: 'longtext', label: 'Why it is withdrawn', required: true, maxLength: 2000 }],
    },
    {
      name: 'lock',
      label: 'Lock',
      icon: 'lock',
      roles: ['admin'],
      bulk: true,
      confirm: 'Lock %{name}? Nothing on it can be changed afterwards.',
      // The server refuses it too (with the count); the button says why before anyone tries.
      guard: (r) =>
        !r.line_count || Number(r.payable_lines) < Number(r.line_count)
          ? 'Every line must be signed or verified by the agency before the timesheet is locked.'
          : null,
      success: 'Timesheet locked |||| %{smart_count} timesheets locked',
      patch: () => ({ locked_by: 'agency' }),
    },
  ],
  fields: [
    { source: 'number', type: 'text', label: 'Number', readOnly: true, sortable: true, readableBy: WITH_LINK },
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
      readableBy: WITH_LINK,
    },
    {
      source: 'site_id',
      type: 'reference',
      reference: 'sites',
      label: 'Site',
      createOnly: true,
      filter: true,
      within: { field: 'client_id', via: 'client_id' },
      readableBy: WITH_LINK,
    },
    {
      source: 'kind',
      type: 'choice',
      label: 'Kind',
      choices: TIMESHEET_KIND,
      required: true,
      defaultValue: 'weekly',
      createOnly: true,
      filter: true,
      views: ['list', 'show'],
    },
    // A late line for a client-week already sent goes on a supplement that names the week's first timesheet
    // (issue 29.10): one timesheet per client-week, and its supplements.
    {
      source: 'supplement_of',
      type: 'reference',
      reference: 'timesheets',
      label: 'Supplement to',
      readOnly: true,
      onDelete: 'keep',
      readableBy: WITH_LINK,
      views: ['list', 'show'],
    },
    {
      source: 'period_start',
      type: 'date',
      // Its list filter reads "Starts from" and "Starts to" (issue 29.13: not "From from").
      label: 'Starts',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
      readableBy: WITH_LINK,
    },
    { source: 'period_end', type: 'date', label: 'Ends', required: true, createOnly: true, readableBy: WITH_LINK },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      choices: TIMESHEET_STATUS,
      defaultValue: 'draft',
      required: true,
      filter: true,
      sortable: true,
      readableBy: WITH_LINK,
      views: ['list', 'show'],
    },
    // Raised by every amendment of a line (times changed, a line added): a signing link sent before it refuses.
    {
      source: 'revision',
      type: 'number',
      integer: true,
      label: 'Revision',
      readOnly: true,
      defaultValue: 0,
      readableBy: WITH_LINK,
    },
    {
      source: 'client_name',
      type: 'text',
      label: 'Client',
      computed: true,
      readOnly: true,
      readableBy: ['link'],
      views: [],
    },
    {
      source: 'site_name',
      type: 'text',
      label: 'Site',
      computed: true,
      readOnly: true,
      readableBy: ['link'],
      views: [],
    },
    // Who receives the signing link: the client's timesheet approver, else its e-mail (the Submit dialog says it).
    {
      source: 'signing_recipient',
      type: 'text',
      label: 'Signing link sent to',
      computed: true,
      readOnly: true,
      readableBy: AGENCY,
      views: ['show'],
    },
    // The lines as the link's holder reviews them (charge only): part of what the link is bound to.
    {
      source: 'review_lines',
      type: 'json',
      label: 'Lines',
      computed: true,
      readOnly: true,
      readableBy: ['link'],
      views: [],
    },
    {
      source: 'line_count',
      type: 'number',
      integer: true,
      label: 'Lines',
      readOnly: true,
      defaultValue: 0,
      readableBy: WITH_LINK,
    },
    {
      source: 'payable_lines',
      type: 'number',
      integer: true,
      label: 'Lines signed or verified',
      readOnly: true,
      defaultValue: 0,
      views: ['list', 'show'],
    },
    // Lines neither signed nor verified: what "verify all" confirms by number.
    {
      source: 'unsigned_lines',
      type: 'number',
      integer: true,
      label: 'Unsigned lines',
      computed: true,
      readOnly: true,
      readableBy: AGENCY,
      views: [],
    },
    {
      source: 'paid_minutes',
      type: 'number',
      integer: true,
      label: 'Paid minutes',
      readOnly: true,
      defaultValue: 0,
      views: [],
    },
    { source: 'hours', type: 'number', label: 'Hours', computed: true, readOnly: true, readableBy: WITH_LINK },
    { source: 'charge', type: 'money', label: 'Charge', readOnly: true, defaultValue: 0, readableBy: WITH_LINK },
    {
      source: 'pay',
      type: 'money',
      label: 'Pay',
      readOnly: true,
      defaultValue: 0,
      readableBy: AGENCY,
      groups: ['pay_rates'],
    },
    {
      source: 'on_costs',
      type: 'money',
      label: 'On-costs',
      readOnly: true,
      defaultValue: 0,
      readableBy: AGENCY,
      groups: ['margins'],
      views: ['show'],
    },
    {
      source: 'margin',
      type: 'money',
      label: 'Margin',
      readOnly: true,
      defaultValue: 0,
      readableBy: AGENCY,
      groups: ['margins'],
    },
    // Filtered by the dashboard's "awaiting signature for more than 7 days" (issue 34).
    { source: 'submitted_at', type: 'datetime', label: 'Submitted', readOnly: true, filter: true, views: ['show'] },
    { source: 'signed_at', type: 'datetime', label: 'Signed', readOnly: true, sortable: true, views: ['list', 'show'] },
    { source: 'disputed_at', type: 'datetime', label: 'Disputed', readOnly: true, views: ['show'] },
    {
      source: 'reminded_at',
      type: 'datetime',
      label: 'Last reminder',
      readOnly: true,
      readableBy: AGENCY,
      views: ['show'],
    },
    { source: 'amendment_note', type: 'longtext', label: 'Amendment note', readOnly: true, views: ['show'] },
    { source: 'locked_by', type: 'choice', choices: LOCKED_BY, label: 'Locked by', readOnly: true, views: ['show'] },
    // The evidence of the latest verification by the agency over several lines (a line verified alone keeps its own).
    {
      source: 'verified_evidence',
      type: 'file',
      label: 'Verification evidence',
      actionOnly: true,
      readableBy: AGENCY,
      file: { kind: 'document' },
      views: ['show'],
    },
    {
      source: 'notes',
      type: 'longtext',
      label: 'Notes',
      maxLength: 2000,
      readableBy: AGENCY,
      editableIn: ['draft', 'disputed', 'amended'],
      views: ['show', 'edit'],
    },
    { source: 'created_at', type: 'datetime', label: 'Created', readOnly: true, sortable: true, views: ['show'] },
    // For the Signed tab (issue 29.12): who signed, and filters by worker and by what happened on the way.
    {
      source: 'signers',
      type: 'text',
      label: 'Signed by',
      computed: true,
      readOnly: true,
      listHidden: true,
      views: ['list'],
    },
    {
      source: 'staff_ids',
      type: 'references',
      reference: 'candidates',
      label: 'Worker',
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY,
      views: [],
    },
    {
      source: 'was_disputed',
      type: 'boolean',
      label: 'Disputed on the way',
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY,
      views: [],
    },
    {
      source: 'was_amended',
      type: 'boolean',
      label: 'Amended by the agency',
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY,
      views: [],
    },
  ],
};

export const timesheetLines: ResourceDeclaration = {
  name: 'timesheet_lines',
  table: 'timesheet_lines',
  label: { one: 'Timesheet line', many: 'Timesheet lines' },
  recordRepresentation: '%{summary}',
  // By the day worked: a line added by hand (no shift, so no scheduled start) sits among its days.
  defaultSort: { field: 'work_date', order: 'ASC' },
  // The pay cell says why a line was repriced from its booking (issue 30.6).
  // The difference from the booking beyond the client's tolerance (issue 29.1) shows under the actual times.
  listData: ['repricing_note', 'outside_tolerance'],
  // A line is never removed: it is what was worked (an hours-less line is amended to what happened).
  delete: 'hard',
  parent: {
    resource: 'timesheets',
    field: 'timesheet_id',
    onDelete: 'refuse',
    tab: 'lines',
    // A timesheet's lines: added and amended only while it is a draft, disputed or amended, their times entered by
    // the staff member only while it is a draft; signed, disputed and verified until it is locked. Its totals are
    // their sums, and its state the one they put it in.
    lines: {
      editableIn: AMENDABLE_STATES,
      actionsIn: {
        record_times: ['draft'],
        sign: OPEN_STATES,
        verify: OPEN_STATES,
        withdraw_verification: OPEN_STATES,
        approve_line: ['submitted'],
        dispute_line: ['submitted'],
        verify_line: OPEN_STATES,
        mark_paid: OPEN_STATES,
      },
      rollups: {
        line_count: { count: 'all' },
        payable_lines: { count: { status: ['signed', 'verified'] } },
        paid_minutes: { sum: 'paid_minutes' },
        pay: { sum: 'pay' },
        charge: { sum: 'charge' },
        on_costs: { sum: 'on_costs' },
        margin: { sum: 'margin' },
      },
      derive: { rule: timesheetFromLines, reads: ['status'] },
    },
  },
  clientScope: 'timesheet_id.client_id',
  // A staff member reads their own lines (their phone page), enters their times and has them signed there.
  staffScope: 'candidate_id',
  access: {
    admin: ['list', 'show', 'create', 'export'],
    consultant: ['list', 'show', 'create', 'export'],
    manager: ['list', 'show'],
    viewer: ['list', 'show'],
    staff: ['list', 'show'],
  },
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'record_times', from: ['pending'] },
      { action: 'sign', from: ['pending'], to: 'signed' },
      { action: 'amend', from: ['pending', 'disputed'], to: 'pending' },
      { action: 'verify', from: ['pending', 'disputed'], to: 'verified' },
      { action: 'withdraw_verification', from: ['verified'], to: 'pending' },
      // Run by the timesheet's own approve and dispute (never served to anyone: no role has them).
      { action: 'approve_line', from: ['pending'], to: 'signed' },
      { action: 'dispute_line', from: ['pending', 'signed'], to: 'disputed' },
      { action: 'verify_line', from: ['pending', 'disputed'], to: 'verified' },
      // Run by a pay run's finalising, as a set (never served: no role has it); the line keeps its state.
      { action: 'mark_paid', from: ['signed', 'verified'] },
    ],
  },
  actions: [
    {
      name: 'record_times',
      label: 'Enter my times',
      icon: 'schedule',
      roles: ['staff'],
      success: 'Times saved',
      guard: heldLineRefusal,
      guardReads: HELD_READS,
      input: actualTimes,
    },
    {
      // The client's approver signs on the staff member's phone with their own PIN (issue 29.1): their name is the
      // signer's, never one typed by the person paid.
      name: 'sign',
      label: 'Sign on this phone',
      icon: 'draw',
      roles: ['staff'],
      success: 'Signed',
      guard: heldLineRefusal,
      guardReads: HELD_READS,
      input: [
        {
          source: 'approver_id',
          type: 'reference',
          reference: 'timesheet_approvers',
          label: 'Approver',
          required: true,
        },
        { source: 'pin', type: 'text', label: 'Approver’s PIN', required: true, maxLength: 8, secret: true },
        signatureInput[1],
      ],
    },
    {
      name: 'amend',
      label: 'Amend times',
      icon: 'edit_calendar',
      roles: AGENCY,
      success: 'Line amended',
      confirm: 'The times of %{name}',
      // The dialog starts from the line's current times.
      prefill: true,
      guard: (r) => heldLineRefusal(r) ?? notAmendable(textOf(r.timesheet_status)),
      guardReads: HELD_READS,
      input: [
        ...actualTimes,
        { source: 'note', type: 'longtext', label: 'Why the times changed', required: true, maxLength: 2000 },
      ],
    },
    {
      name: 'verify',
      // Beside the timesheet's own "Verify by the agency" on the same screen: this one is the row's.
      label: 'Verify this line',
      icon: 'verified',
      roles: ['admin'],
      bulk: true,
      success: 'Line verified |||| %{smart_count} lines verified',
      guard: heldLineRefusal,
      guardReads: HELD_READS,
      input: [
        { source: 'reason', type: 'longtext', label: 'How the hours were verified', required: true, maxLength: 2000 },
        { source: 'evidence', type: 'file', label: 'Evidence', file: { kind: 'document' } },
      ],
    },
    {
      name: 'withdraw_verification',
      label: 'Withdraw the verification',
      icon: 'undo',
      roles: ['admin'],
      danger: true,
      success: 'Verification withdrawn',
      guardReads: HELD_READS,
      guard: (r) =>
        heldLineRefusal(r) ??
        (r.timesheet_status === 'locked' ? 'The timesheet is locked: it can no longer be changed.' : null),
      input: [{ source: 'reason', type: 'longtext', label: 'Why it is withdrawn', required: true, maxLength: 2000 }],
    },
    {
      name: 'approve_line',
      label: 'Approve',
      roles: [],
      success: 'Line approved',
      guard: heldLineRefusal,
      guardReads: HELD_READS,
      input: [
        {
          source: 'signature_id',
          type: 'reference',
          reference: 'timesheet_signatures',
          label: 'Signature',
          required: true,
        },
      ],
      patch: (_r, input) => ({ signature_id: input.signature_id }),
    },
    {
      name: 'dispute_line',
      label: 'Dispute',
      roles: [],
      success: 'Line disputed',
      guard: heldLineRefusal,
      guardReads: HELD_READS,
      input: [{ source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 2000 }],
      patch: (_r, input) => ({ dispute_reason: input.reason }),
    },
    {
      name: 'verify_line',
      label: 'Verify',
      roles: [],
      success: 'Line verified',
      guard: heldLineRefusal,
      guardReads: HELD_READS,
      input: [{ source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 2000 }],
    },
    {
      name: 'mark_paid',
      label: 'Paid',
      roles: [],
      success: 'Line paid',
      guard: paidLineRefusal,
      input: [{ source: 'pay_run_id', type: 'reference', reference: 'pay_runs', label: 'Pay run', required: true }],
      patch: (_r, input) => ({ paid_in_run: input.pay_run_id }),
    },
  ],
  fields: [
    {
      source: 'timesheet_id',
      type: 'reference',
      reference: 'timesheets',
      label: 'Timesheet',
      required: true,
      createOnly: true,
      filter: true,
    },
    {
      source: 'shift_id',
      type: 'reference',
      reference: 'shifts',
      label: 'Shift',
      createOnly: true,
      filter: true,
      // A shift is on one timesheet, ever: a unique index (migration 041) holds it against racing generations too.
      unique: true,
      onDelete: 'keep',
      readableBy: WITH_STAFF,
      // Not a list column: the line shows its scheduled times, and a list page then need not bring every shift along.
      views: ['show', 'create'],
    },
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      required: true,
      createOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
      // The list shows candidate_name: a list page need not bring every staff member's record along.
      views: ['show', 'create'],
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
      source: 'site_id',
      type: 'reference',
      reference: 'sites',
      label: 'Site',
      required: true,
      createOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
    },
    {
      source: 'job_role_id',
      type: 'reference',
      reference: 'job_roles',
      label: 'Role',
      required: true,
      createOnly: true,
      readableBy: WITH_STAFF,
    },
    // Names for the phone page, which reads neither sites nor job roles.
    {
      source: 'site_name',
      type: 'text',
      label: 'Site',
      computed: true,
      readOnly: true,
      readableBy: ['staff'],
      views: [],
    },
    {
      source: 'job_role_name',
      type: 'text',
      label: 'Role',
      computed: true,
      readOnly: true,
      readableBy: ['staff'],
      views: [],
    },
    {
      source: 'summary',
      type: 'text',
      label: 'Line',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: [],
    },
    // The invoice that bills the line (its number, else 'Draft n'), while it does: its hours and status then hold.
    {
      source: 'billed_on',
      type: 'text',
      label: 'Invoiced on',
      computed: true,
      readOnly: true,
      readableBy: AGENCY,
      views: [],
    },
    // The finalised pay run that paid the line (issue 33): it then refuses every change.
    {
      source: 'paid_in_run',
      type: 'reference',
      reference: 'pay_runs',
      label: 'Paid in pay run',
      readOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    // The pay run whose payslip holds the line (its id and state), while one does: a draft or approved run holds it as
    // a finalised one does (heldLineRefusal); a cancelled run's lines are released.
    {
      source: 'held_by_run',
      type: 'text',
      label: 'On pay run',
      computed: true,
      readOnly: true,
      readableBy: AGENCY,
      views: [],
    },
    // The timesheet's state: whether the line can still be amended, and what "awaiting signature" means yet.
    {
      source: 'timesheet_status',
      type: 'choice',
      choices: TIMESHEET_STATUS,
      label: 'Timesheet',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: [],
    },
    {
      source: 'work_date',
      type: 'date',
      label: 'Date',
      readOnly: true,
      sortable: true,
      filter: true,
      readableBy: WITH_STAFF,
    },
    {
      source: 'scheduled_start',
      type: 'datetime',
      label: 'Scheduled start',
      readOnly: true,
      sortable: true,
      readableBy: WITH_STAFF,
    },
    { source: 'scheduled_end', type: 'datetime', label: 'Scheduled end', readOnly: true, readableBy: WITH_STAFF },
    {
      source: 'scheduled_break',
      type: 'number',
      integer: true,
      label: 'Scheduled break',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    // Set when the line is added by hand; afterwards only an amendment (with its note) or the staff member's own
    // entry at the end of the shift changes them.
    { source: 'actual_start', type: 'datetime', label: 'Actual start', createOnly: true, readableBy: WITH_STAFF },
    { source: 'actual_end', type: 'datetime', label: 'Actual end', createOnly: true, readableBy: WITH_STAFF },
    {
      source: 'break_minutes',
      type: 'number',
      integer: true,
      min: 0,
      max: 240,
      label: 'Break (minutes)',
      createOnly: true,
      readableBy: WITH_STAFF,
    },
    { source: 'paid_minutes', type: 'number', integer: true, label: 'Paid minutes', readOnly: true, views: [] },
    { source: 'hours', type: 'number', label: 'Hours', computed: true, readOnly: true, readableBy: WITH_STAFF },
    { source: 'charge', type: 'money', label: 'Charge', readOnly: true },
    { source: 'pay', type: 'money', label: 'Pay', readOnly: true, readableBy: AGENCY_AND_STAFF, groups: ['pay_rates'] },
    {
      source: 'on_costs',
      type: 'money',
      label: 'On-costs',
      readOnly: true,
      readableBy: AGENCY,
      groups: ['margins'],
      views: ['show'],
    },
    { source: 'margin', type: 'money', label: 'Margin', readOnly: true, readableBy: AGENCY, groups: ['margins'] },
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
    // Why the line pays other rates than its shift was booked at (issue 30.6); shown under the line's pay.
    {
      source: 'repricing_note',
      type: 'longtext',
      label: 'Repriced',
      readOnly: true,
      readableBy: AGENCY,
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
      source: 'status',
      type: 'choice',
      label: 'Status',
      choices: LINE_STATUS,
      defaultValue: 'pending',
      required: true,
      filter: true,
      readableBy: WITH_STAFF,
      views: ['list', 'show'],
    },
    // Signed or verified by the agency: payable and invoiceable (pay is never withheld for want of a signature).
    {
      source: 'payable',
      type: 'boolean',
      label: 'Payable',
      computed: true,
      readOnly: true,
      filter: true,
      readableBy: WITH_STAFF,
    },
    { source: 'dispute_reason', type: 'longtext', label: 'Disputed because', readOnly: true, readableBy: WITH_STAFF },
    // How the actual times go beyond the client's tolerance of the booking, in words (issue 29.1): such a line is
    // not signed on the phone; it goes to the client, and the agency sees why.
    {
      source: 'outside_tolerance',
      type: 'longtext',
      label: 'Differs from the booking',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    // Who signed the line (the signature's signer: the client's user, the link's holder or the phone's approver).
    {
      source: 'signed_by',
      type: 'text',
      label: 'Signed by',
      computed: true,
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    // For the phone: the client's approvers who may sign the line there (their names only).
    {
      source: 'approvers',
      type: 'json',
      label: 'Approvers',
      computed: true,
      readOnly: true,
      readableBy: ['staff'],
      views: [],
    },
    {
      source: 'amendment_note',
      type: 'longtext',
      label: 'Amendment note',
      maxLength: 2000,
      createOnly: true,
      views: ['show', 'create'],
    },
    { source: 'amended_at', type: 'datetime', label: 'Amended', readOnly: true, views: ['show'] },
    { source: 'amended_by', type: 'text', label: 'Amended by', readOnly: true, views: ['show'] },
    {
      source: 'times_recorded_at',
      type: 'datetime',
      label: 'Times entered by the staff member',
      readOnly: true,
      readableBy: WITH_STAFF,
      views: ['show'],
    },
    {
      source: 'signature_id',
      type: 'reference',
      reference: 'timesheet_signatures',
      label: 'Signature',
      readOnly: true,
      onDelete: 'keep',
      views: ['show'],
    },
    { source: 'signed_at', type: 'datetime', label: 'Signed', readOnly: true, readableBy: WITH_STAFF, views: ['show'] },
    {
      source: 'verified_reason',
      type: 'longtext',
      label: 'Verified by the agency because',
      readOnly: true,
      readableBy: AGENCY_AND_STAFF,
      views: ['show'],
    },
    {
      source: 'verified_evidence',
      type: 'file',
      label: 'Verification evidence',
      actionOnly: true,
      readableBy: AGENCY,
      file: { kind: 'document' },
      views: ['show'],
    },
    { source: 'verified_by', type: 'text', label: 'Verified by', readOnly: true, readableBy: AGENCY, views: ['show'] },
    {
      source: 'verified_at',
      type: 'datetime',
      label: 'Verified',
      readOnly: true,
      readableBy: AGENCY_AND_STAFF,
      views: ['show'],
    },
    { source: 'created_at', type: 'datetime', label: 'Added', readOnly: true, views: ['show'] },
  ],
};

/** Each signature given on a timesheet: who, how, from where, when; the lines it signed point at it. */
export const timesheetSignatures: ResourceDeclaration = {
  name: 'timesheet_signatures',
  table: 'timesheet_signatures',
  label: { one: 'Timesheet signature', many: 'Timesheet signatures' },
  recordRepresentation: '%{signer_name}',
  defaultSort: { field: 'signed_at', order: 'DESC' },
  delete: 'hard',
  parent: { resource: 'timesheets', field: 'timesheet_id', onDelete: 'refuse', tab: 'signatures' },
  clientScope: 'timesheet_id.client_id',
  // Made only by the signing actions (ctx.engine), never by a request.
  access: {
    admin: ['list', 'show'],
    consultant: ['list', 'show'],
    manager: ['list', 'show'],
    viewer: ['list', 'show'],
  },
  fields: [
    {
      source: 'timesheet_id',
      type: 'reference',
      reference: 'timesheets',
      label: 'Timesheet',
      required: true,
      createOnly: true,
      filter: true,
    },
    { source: 'signer_name', type: 'text', label: 'Signed by', required: true, maxLength: 150, createOnly: true },
    {
      source: 'signature',
      type: 'longtext',
      label: 'Signature',
      required: true,
      createOnly: true,
      maxLength: SIGNATURE_MAX_CHARS,
      pattern: { regex: SIGNATURE_PATTERN, message: 'app.timesheets.signature_png' },
      views: ['show'],
    },
    {
      source: 'signed_via',
      type: 'choice',
      label: 'How signed',
      choices: SIGNED_VIA,
      required: true,
      createOnly: true,
    },
    // On a phone: which of the client's approvers signed (with their own PIN).
    {
      source: 'approver_id',
      type: 'reference',
      reference: 'timesheet_approvers',
      label: 'Approver',
      createOnly: true,
      onDelete: 'keep',
      views: ['show'],
    },
    { source: 'ip_address', type: 'text', label: 'Signed from (address)', maxLength: 64, createOnly: true },
    { source: 'signed_at', type: 'datetime', label: 'Signed', required: true, createOnly: true, sortable: true },
    { source: 'line_count', type: 'number', integer: true, label: 'Lines signed', createOnly: true },
    { source: 'created_at', type: 'datetime', label: 'Recorded', readOnly: true, views: [] },
  ],
};

export const timesheetResources: ResourceDeclaration[] = [
  timesheets,
  timesheetLines,
  timesheetSignatures,
  timesheetApprovers,
];
