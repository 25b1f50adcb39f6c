import type { ResourceDeclaration, Role } from '../../engine/types';

/*
 * A staff member's request to work an open shift (issue 17), made on their phone page.
 *
 * Hand-written routes (server/routes/staffShifts.ts), staff only:
 *   GET  /api/staff_open_shifts               open shifts ahead that pass every hard booking check for the caller,
 *                                             each with whether they have already asked for it
 *   POST /api/staff_open_shifts/:id/request   { note? } → 201 the request (pending); the agency is notified
 * Engine routes: GET /api/shift_requests (agency: every request; staff: their own), and the actions
 *   accept   pending → accepted: the existing assign of the shift, with all its checks; the other pending
 *            requests for that shift are declined
 *   decline  pending → declined (agency), withdraw pending → withdrawn (the staff member)
 */

export const SHIFT_REQUEST_STATUS = [
  { id: 'pending', name: 'Awaiting the agency' },
  { id: 'accepted', name: 'Accepted' },
  { id: 'declined', name: 'Declined' },
  { id: 'withdrawn', name: 'Withdrawn' },
];

const AGENCY: Role[] = ['admin', 'consultant'];
const AGENCY_AND_STAFF: Role[] = ['admin', 'consultant', 'staff'];

export const shiftRequests: ResourceDeclaration = {
  name: 'shift_requests',
  unitScope: 'shift_id.client_id',
  table: 'shift_requests',
  label: { one: 'Staff request', many: 'Staff requests' },
  recordRepresentation: '%{candidate_name}',
  defaultSort: { field: 'created_at', order: 'ASC' },
  delete: 'soft',
  // Shown under the shift it asks for, and hidden with it when the shift is deleted.
  parent: { resource: 'shifts', field: 'shift_id', onDelete: 'hide' },
  staffScope: 'candidate_id',
  // Nobody creates one through CRUD: the staff route checks the shift is open and bookable for them first.
  access: { admin: ['list', 'show'], consultant: ['list', 'show'], staff: ['list', 'show'] },
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'accept', from: ['pending'], to: 'accepted' },
      { action: 'decline', from: ['pending'], to: 'declined' },
      { action: 'withdraw', from: ['pending'], to: 'withdrawn' },
    ],
  },
  actions: [
    {
      name: 'accept',
      label: 'Accept and book',
      icon: 'person_add',
      roles: AGENCY,
      success: 'Request accepted: the staff member is booked',
      // The assign's checks run again; an admin may book despite its warnings with a reason, asked only then.
      inputWhenNeeded: true,
      input: [
        {
          source: 'override_reason',
          type: 'longtext',
          label: 'Reason to book despite the warnings (admins only)',
          maxLength: 1000,
        },
      ],
    },
    {
      name: 'decline',
      label: 'Decline',
      icon: 'block',
      danger: true,
      roles: AGENCY,
      success: 'Request declined',
    },
    { name: 'withdraw', label: 'Withdraw', icon: 'undo', roles: ['staff'], success: 'Request withdrawn' },
  ],
  fields: [
    // Set by the staff route from the shift asked for and the signed-in staff member (read-only to every caller).
    {
      source: 'shift_id',
      type: 'reference',
      reference: 'shifts',
      label: 'Shift',
      required: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY_AND_STAFF,
    },
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      required: true,
      readOnly: true,
      filter: true,
      readableBy: AGENCY_AND_STAFF,
      views: ['show'],
    },
    {
      source: 'candidate_name',
      type: 'text',
      label: 'Staff member',
      computed: true,
      readOnly: true,
      readableBy: AGENCY_AND_STAFF,
      views: ['list', 'show'],
    },
    {
      source: 'note',
      type: 'longtext',
      label: 'Note from the staff member',
      maxLength: 500,
      readOnly: true,
      readableBy: AGENCY_AND_STAFF,
    },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      choices: SHIFT_REQUEST_STATUS,
      defaultValue: 'pending',
      required: true,
      filter: true,
      readableBy: AGENCY_AND_STAFF,
      views: ['list', 'show'],
    },
    {
      source: 'created_at',
      type: 'datetime',
      label: 'Asked',
      readOnly: true,
      sortable: true,
      readableBy: AGENCY_AND_STAFF,
      views: ['list', 'show'],
    },
  ],
};
