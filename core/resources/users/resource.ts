import type { ActionDeclaration, Choice, ResourceDeclaration, Role } from '../../engine/types';
import { PASSWORD_MIN } from '../../domain/accounts/passwords';

/** The roles a user may hold: two of the agency panel, two of a client's panel. */
export const USER_ROLES: Choice[] = [
  { id: 'admin', name: 'Admin' },
  { id: 'consultant', name: 'Consultant' },
  { id: 'custom', name: 'Custom role' },
  { id: 'manager', name: 'Client manager' },
  { id: 'viewer', name: 'Client viewer' },
];
/** 'custom': one of the agency's own roles (agency_role_id names it; core/resources/roles). */
export const AGENCY_ROLES: Role[] = ['admin', 'consultant', 'custom'];
export const CLIENT_ROLES: Role[] = ['manager', 'viewer'];

export const USER_STATUSES: Choice[] = [
  { id: 'invited', name: 'Invited' },
  { id: 'active', name: 'Active' },
  { id: 'inactive', name: 'Deactivated' },
];

/** An invitation link works for this long, once. */
export const USER_INVITE_DAYS = 7;

/**
 * Choosing one's password through an invitation: the one action of an invitation's capability link (its holder has
 * no account yet), run through the invitation pages' routes (server/auth/userInvites.ts, staffInvites.ts). The
 * password is a secret input: hashed before the transaction, never in the audit trail.
 */
const acceptInvitation: ActionDeclaration = {
  name: 'accept_invitation',
  label: 'Accept the invitation',
  roles: ['link'],
  input: [
    {
      source: 'password',
      type: 'text',
      label: 'Password',
      required: true,
      minLength: PASSWORD_MIN,
      maxLength: 1024,
      secret: true,
    },
  ],
  success: 'Your password is set.',
};

/**
 * The people who sign in to the agency panel and to the clients' panels (staff sign in through their own
 * invitation, on the staff profile). Creating a user invites them: a single-use link by e-mail that sets
 * their password. Agency users are listed in the settings (Privileges), a client's users on the client's
 * profile. Consultants invite consultants and client users; only admins invite admins or change a role. A client's
 * manager invites and removes their own colleagues on "My account" (issue 35): the client scope keeps them to
 * their own client's users, and they give client roles only (server/behaviours/users.ts).
 */
export const users: ResourceDeclaration = {
  name: 'users',
  table: 'users',
  label: { one: 'User', many: 'Users' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  delete: 'hard',
  // An invitation's link holder reads no field of the user (the invitation page's route says whom it is for).
  access: {
    admin: ['list', 'show', 'create', 'edit'],
    consultant: ['list', 'show', 'create'],
    manager: ['list', 'show', 'create'],
    link: ['show'],
  },
  // A client user changes their own name and password through server/routes/account.ts; a viewer is granted
  // nothing here.
  clientScope: 'client_id',
  routes: {
    list: '/appsetting/previlegesetting',
    create: '/appsetting/previlegesetting/create',
    edit: '/appsetting/previlegesetting/:id',
    show: '/appsetting/previlegesetting/:id/show',
  },
  tabs: [
    { id: 'agency', label: 'Agency users', filter: { kind: 'admin' } },
    // Whose client they sign in for, in place of when they were added (left to the column chooser), and no custom
    // role (a client user holds none): within a laptop beside the settings' navigation.
    {
      id: 'clients',
      label: 'Client users',
      filter: { kind: 'client' },
      columns: { hidden: ['created_at', 'agency_role_id'] },
    },
  ],
  // The status is computed from the row (server/behaviours/users.ts): invited until the invitation sets a password,
  // inactive once deactivated. Reactivating brings back whichever of the two they were.
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'resend', from: ['invited', 'active'] },
      { action: 'deactivate', from: ['invited', 'active'], to: 'inactive' },
      { action: 'reactivate', from: ['inactive'], to: ['invited', 'active'] },
      // Through the invitation's link; again, after a resend, for a forgotten password.
      { action: 'accept_invitation', from: ['invited', 'active'], to: 'active' },
    ],
  },
  actions: [
    {
      name: 'resend',
      label: 'Resend invitation',
      icon: 'restart_alt',
      roles: ['admin', 'consultant', 'manager'],
      success: 'A new invitation was e-mailed; the earlier link no longer works.',
      confirm: 'E-mail %{name} a new link to set their password? The earlier link stops working.',
    },
    {
      name: 'deactivate',
      label: 'Deactivate',
      icon: 'power_off',
      roles: ['admin', 'consultant', 'manager'],
      danger: true,
      success: 'User deactivated: they are signed out and cannot sign in.',
      confirm: 'Deactivate %{name}? They are signed out at once and can no longer sign in.',
      patch: () => ({ active: false }),
    },
    {
      name: 'reactivate',
      label: 'Reactivate',
      icon: 'power',
      roles: ['admin', 'consultant', 'manager'],
      success: 'User reactivated: they can sign in again.',
      patch: () => ({ active: true }),
    },
    acceptInvitation,
  ],
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 120, sortable: true },
    {
      source: 'email',
      type: 'email',
      label: 'E-mail',
      required: true,
      maxLength: 254,
      sortable: true,
      createOnly: true,
      helperText: 'The invitation goes to this address; it is also how they sign in.',
    },
    {
      source: 'role',
      type: 'choice',
      label: 'Role',
      required: true,
      choices: USER_ROLES,
      filter: true,
      sortable: true,
    },
    {
      source: 'agency_role_id',
      type: 'reference',
      reference: 'agency_roles',
      label: 'Custom role',
      filter: true,
      helperText: 'For the role Custom role: which of the agency’s roles they hold (Roles tab).',
    },
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      filter: true,
      createOnly: true,
      helperText: 'For a client user: the client whose panel they sign in to.',
    },
    {
      source: 'business_unit_id',
      type: 'reference',
      reference: 'business_units',
      label: 'Business unit',
      filter: true,
      writableBy: ['admin'],
      onDelete: 'refuse',
      helperText: 'For an agency user (a consultant): the business unit they work in.',
      // Offered by the column chooser: the lists stay within a laptop beside the settings' navigation.
      listHidden: true,
      referenceWhere: { values: { active: 'true' }, message: 'Choose a business unit in use.' },
    },
    {
      source: 'kind',
      type: 'choice',
      label: 'Panel',
      readOnly: true,
      filter: true,
      views: ['show'],
      choices: [
        { id: 'admin', name: 'Agency panel' },
        { id: 'client', name: 'Client panel' },
        { id: 'staff', name: 'Staff page' },
      ],
    },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      computed: true,
      filter: true,
      choices: USER_STATUSES,
      views: ['list', 'show'],
    },
    { source: 'invited_until', type: 'datetime', label: 'Invitation valid until', computed: true, views: ['show'] },
    // A client user who is also one of the client's phone approvers (issue 35): whether their PIN is set yet.
    {
      source: 'phone_approver',
      type: 'choice',
      label: 'Signs on staff phones',
      computed: true,
      choices: [
        { id: 'pin', name: 'Yes' },
        { id: 'no_pin', name: 'No PIN yet' },
      ],
      views: ['show'],
    },
    {
      source: 'active',
      type: 'boolean',
      label: 'Can sign in',
      actionOnly: true,
      defaultValue: true,
      filter: true,
      views: [],
    },
    // Kept on the same row for sign-in; never sent, never written through the API.
    { source: 'password_hash', type: 'text', label: 'Password', readOnly: true, readableBy: [], views: [] },
    {
      source: 'candidate_id',
      type: 'number',
      label: 'Staff member',
      integer: true,
      readOnly: true,
      readableBy: [],
      views: [],
    },
    { source: 'created_at', type: 'datetime', label: 'Added', readOnly: true, sortable: true, views: ['list', 'show'] },
  ],
};

/**
 * A staff member's own sign-in (the staff page): a row of the users table like the agency's and clients' users, but
 * never one of the users resource (whose scope leaves staff out) and served by no route of its own. The engine
 * writes it: made when the agency first invites the staff member (server/auth/staffInvites.ts), and given its
 * password by the invitation's link (again for a forgotten password). Its history is filed under the staff member.
 */
export const staffLogins: ResourceDeclaration = {
  name: 'staff_logins',
  table: 'users',
  label: { one: 'Staff sign-in', many: 'Staff sign-ins' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  delete: 'hard',
  served: false,
  access: { link: ['show'] },
  filedUnder: { resource: 'candidates', field: 'candidate_id' },
  actions: [acceptInvitation],
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 120 },
    { source: 'email', type: 'email', label: 'E-mail', required: true, maxLength: 254 },
    { source: 'candidate_id', type: 'number', label: 'Staff member', integer: true, readOnly: true, views: [] },
    { source: 'active', type: 'boolean', label: 'Can sign in', readOnly: true, defaultValue: true, views: [] },
    { source: 'password_hash', type: 'text', label: 'Password', readOnly: true, readableBy: [], views: [] },
    // The columns every sign-in has: always 'staff', and no client.
    {
      source: 'kind',
      type: 'choice',
      label: 'Panel',
      readOnly: true,
      choices: [{ id: 'staff', name: 'Staff page' }],
      views: [],
    },
    {
      source: 'role',
      type: 'choice',
      label: 'Role',
      readOnly: true,
      choices: [{ id: 'staff', name: 'Staff member' }],
      views: [],
    },
    { source: 'client_id', type: 'number', label: 'Client', integer: true, readOnly: true, readableBy: [], views: [] },
    // An agency user's own role (issue 35): never a staff member's.
    {
      source: 'agency_role_id',
      type: 'number',
      label: 'Custom role',
      integer: true,
      readOnly: true,
      readableBy: [],
      views: [],
    },
    // An agency user's business unit (issue 34): never a staff member's.
    {
      source: 'business_unit_id',
      type: 'number',
      label: 'Business unit',
      integer: true,
      readOnly: true,
      readableBy: [],
      views: [],
    },
    { source: 'created_at', type: 'datetime', label: 'Added', readOnly: true, views: ['show'] },
  ],
};
