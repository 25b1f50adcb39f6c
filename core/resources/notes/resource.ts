import { textOf, type Action, type ResourceDeclaration } from '../../engine/types';

const everything: Action[] = ['list', 'show', 'create', 'edit', 'delete', 'export'];
const agencyUsers: ResourceDeclaration['access'] = { admin: everything, consultant: everything };

/**
 * A diary note: something to do or remember at a date and time, optionally about a staff member, a client or a
 * shift, with an optional reminder that becomes a notification to its writer. The diary is the agency's: every
 * agency user reads and keeps it; "mine" are the notes one wrote (user_id = 'me').
 */
export const diaryNotes: ResourceDeclaration = {
  name: 'diary_notes',
  unitScope: 'client_id',
  table: 'diary_notes',
  label: { one: 'Diary note', many: 'Diary notes' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'note_at', order: 'ASC' },
  search: ['title', 'body'],
  delete: 'soft',
  access: agencyUsers,
  // The spec's spelling (/dairy_notes) for the list and every record; react-admin's /diary_notes/… lead there.
  routes: {
    list: '/dairy_notes',
    create: '/dairy_notes/create',
    show: '/dairy_notes/:id/show',
    edit: '/dairy_notes/:id',
  },
  // Whole days on the agency's clock: today, after today, before today. Past notes read newest first on screen.
  tabs: [
    { id: 'today', label: 'Today', filter: { note_at_gte: 'today', note_at_lte: 'today' } },
    { id: 'upcoming', label: 'Upcoming', filter: { note_at_gte: '+1d' } },
    { id: 'past', label: 'Past', filter: { note_at_lte: '-1d' } },
  ],
  // A reminder comes before the note (or at its time), never after it.
  rules: (r): Record<string, string> =>
    Date.parse(textOf(r.remind_at)) > Date.parse(textOf(r.note_at))
      ? { remind_at: 'The reminder must be at or before the note’s time' }
      : {},
  fields: [
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 200, sortable: true },
    {
      source: 'note_at',
      type: 'datetime',
      label: 'Date and time',
      required: true,
      filter: true,
      sortable: true,
      date: { min: '-5y', max: '+5y' },
    },
    { source: 'body', type: 'longtext', label: 'Note', maxLength: 5000, views: ['show', 'edit', 'create'] },
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      filter: true,
      sortable: true,
    },
    { source: 'client_id', type: 'reference', reference: 'clients', label: 'Client', filter: true, sortable: true },
    {
      source: 'shift_id',
      type: 'reference',
      reference: 'shifts',
      label: 'Shift',
      filter: true,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'remind_at',
      type: 'datetime',
      label: 'Remind me at',
      date: { min: '-5y', max: '+5y' },
      helperText: 'Optional: you get a notification at this time.',
      views: ['list', 'show', 'edit', 'create'],
    },
    { source: 'reminded_at', type: 'datetime', label: 'Reminder sent', readOnly: true, views: ['show'] },
    // The writer: set by the server; 'me' filters the caller's own notes.
    {
      source: 'user_id',
      type: 'number',
      integer: true,
      reference: 'users',
      label: 'Written by (user)',
      readOnly: true,
      filter: true,
      views: [],
    },
    { source: 'owner_name', type: 'text', label: 'Written by', readOnly: true, views: ['list', 'show'] },
  ],
};

const SUPPORT_STATUS = [
  { id: 'open', name: 'Open' },
  { id: 'answered', name: 'Answered' },
  { id: 'closed', name: 'Closed' },
];

/**
 * A support request from an agency user to their agency's administrators. Administrators see all of them, a
 * consultant only their own (server/behaviours/supportRequests.ts scopes the rows). Its status follows the conversation
 * (an administrator's reply answers it, the requester's reopens it) and the close / reopen actions.
 */
export const supportRequests: ResourceDeclaration = {
  name: 'support_requests',
  table: 'support_requests',
  label: { one: 'Support request', many: 'Support requests' },
  recordRepresentation: '%{subject}',
  defaultSort: { field: 'created_at', order: 'DESC' },
  search: ['subject', 'description'],
  delete: 'soft',
  access: { admin: ['list', 'show', 'create', 'delete', 'export'], consultant: ['list', 'show', 'create'] },
  routes: { list: '/support/requests' },
  tabs: [
    { id: 'all', label: 'All', filter: {} },
    { id: 'open', label: 'Open', filter: { status: 'open' } },
    { id: 'answered', label: 'Answered', filter: { status: 'answered' } },
    { id: 'closed', label: 'Closed', filter: { status: 'closed' } },
  ],
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'close', from: ['open', 'answered'], to: 'closed' },
      { action: 'reopen', from: ['closed'], to: 'open' },
      // A reply moves the conversation (core/domain/support/support.ts, replyTransition): an administrator's answers
      // the request, the requester's puts it back with the administrators.
      { action: 'answer', from: ['open', 'closed'], to: 'answered' },
      { action: 'follow_up', from: ['answered', 'closed'], to: 'open' },
    ],
  },
  actions: [
    {
      name: 'close',
      label: 'Close',
      icon: 'check',
      roles: ['admin', 'consultant'],
      success: 'Support request closed',
    },
    {
      name: 'reopen',
      label: 'Reopen',
      icon: 'restart_alt',
      roles: ['admin', 'consultant'],
      success: 'Support request reopened',
    },
    // The replies' own transitions: no role runs them, so they have no route and no button.
    { name: 'answer', label: 'Answered by a reply', roles: [], success: 'Support request answered' },
    { name: 'follow_up', label: 'Followed up by the requester', roles: [], success: 'Support request reopened' },
  ],
  fields: [
    { source: 'subject', type: 'text', label: 'Subject', required: true, maxLength: 200, sortable: true },
    {
      source: 'description',
      type: 'longtext',
      label: 'Description',
      required: true,
      maxLength: 5000,
      views: ['show', 'create'],
    },
    { source: 'screenshot', type: 'image', label: 'Screenshot', file: { kind: 'image' }, views: ['show', 'create'] },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      choices: SUPPORT_STATUS,
      defaultValue: 'open',
      required: true,
      filter: true,
      sortable: true,
      views: ['list', 'show'],
    },
    {
      source: 'requester_id',
      type: 'number',
      integer: true,
      reference: 'users',
      label: 'Requested by (user)',
      readOnly: true,
      filter: true,
      views: [],
    },
    { source: 'requester_name', type: 'text', label: 'Requested by', readOnly: true, views: ['list', 'show'] },
    { source: 'created_at', type: 'datetime', label: 'Sent', readOnly: true, sortable: true, views: ['list', 'show'] },
  ],
};

/** A reply in a support request's conversation, by an administrator or by the requester. */
export const supportReplies: ResourceDeclaration = {
  name: 'support_replies',
  table: 'support_replies',
  label: { one: 'Reply', many: 'Replies' },
  recordRepresentation: '%{author_name}',
  defaultSort: { field: 'created_at', order: 'ASC' },
  delete: 'hard',
  parent: { resource: 'support_requests', field: 'support_request_id', onDelete: 'hide' },
  access: { admin: ['list', 'show', 'create'], consultant: ['list', 'show', 'create'] },
  fields: [
    {
      source: 'support_request_id',
      type: 'reference',
      reference: 'support_requests',
      label: 'Support request',
      required: true,
      createOnly: true,
      filter: true,
    },
    { source: 'body', type: 'longtext', label: 'Reply', required: true, maxLength: 5000 },
    {
      source: 'author_id',
      type: 'number',
      integer: true,
      reference: 'users',
      label: 'Written by (user)',
      readOnly: true,
      views: [],
    },
    { source: 'author_name', type: 'text', label: 'Written by', readOnly: true, views: ['list', 'show'] },
    { source: 'created_at', type: 'datetime', label: 'Sent', readOnly: true, sortable: true, views: ['list', 'show'] },
  ],
};

export const notesResources: ResourceDeclaration[] = [diaryNotes, supportRequests, supportReplies];
