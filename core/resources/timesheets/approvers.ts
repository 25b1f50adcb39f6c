import type { ResourceDeclaration } from '../../engine/types';

/** A phone approver's PIN: 6 to 8 digits (five wrong tries in 15 minutes stop further tries; 6 digits resist it). */
export const PIN_PATTERN = '^[0-9]{6,8}$';

/*
 * Issue 29.1: the people of a client who may sign a staff member's hours on the staff member's phone (a ward or unit
 * manager), each with a PIN of their own that the client's manager sets in the client panel (hashed like a password,
 * never shown, wrong PINs throttled). The phone's signature records which approver signed; the person paid can never
 * be the signer. The agency reads who they are (to see who signed), but sets no PIN: the client stays the authority
 * over hours. An approver may be one of the manager's colleagues who sign in to the client's panel (issue 35).
 *
 *   GET/POST /api/timesheet_approvers, PUT/DELETE /api/timesheet_approvers/:id   (client managers; others read)
 *   POST /api/timesheet_approvers/:id/actions/set_pin { pin }                      (client managers)
 */
export const timesheetApprovers: ResourceDeclaration = {
  name: 'timesheet_approvers',
  table: 'timesheet_approvers',
  label: { one: 'Phone approver', many: 'Phone approvers' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name'],
  // Removed approvers stay readable: the signatures they gave point at them.
  delete: 'soft',
  clientScope: 'client_id',
  access: {
    admin: ['list', 'show'],
    consultant: ['list', 'show'],
    manager: ['list', 'show', 'create', 'edit', 'delete'],
    viewer: ['list', 'show'],
  },
  actions: [
    {
      name: 'set_pin',
      label: 'Set PIN',
      icon: 'pin',
      roles: ['manager'],
      success: 'PIN set',
      input: [
        {
          source: 'pin',
          type: 'text',
          label: 'PIN (6 to 8 digits)',
          required: true,
          maxLength: 8,
          pattern: { regex: PIN_PATTERN, message: 'app.timesheets.pin_rule' },
          secret: true,
        },
      ],
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
    },
    { source: 'name', type: 'text', label: 'Full name', required: true, maxLength: 150, sortable: true },
    { source: 'job_title', type: 'text', label: 'Job title', maxLength: 100 },
    {
      source: 'site_id',
      type: 'reference',
      reference: 'sites',
      label: 'Site (every site when empty)',
      filter: true,
      onDelete: 'remove',
    },
    // Issue 35: the colleague (a user of the client's panel) this approver is, when they sign in too. Set when the
    // approver is made; a deactivated colleague no longer signs on phones (server/services/phoneSignoff.ts).
    {
      source: 'user_id',
      type: 'reference',
      reference: 'users',
      label: 'Colleague',
      createOnly: true,
      within: { field: 'client_id', via: 'client_id', message: 'Choose one of your colleagues.' },
      helperText: 'When the approver also signs in to your panel.',
      views: ['show'],
    },
    { source: 'pin_hash', type: 'text', label: 'PIN', readOnly: true, readableBy: [], views: [] },
    { source: 'pin_set_at', type: 'datetime', label: 'PIN set', readOnly: true },
    { source: 'created_at', type: 'datetime', label: 'Added', readOnly: true, views: ['show'] },
  ],
};
