import type { ResourceDeclaration } from '../../engine/types';

export const AUDIT_EVENTS = [
  { id: 'create', name: 'Created' },
  { id: 'update', name: 'Changed' },
  { id: 'delete', name: 'Deleted' },
  { id: 'action', name: 'Action' },
];

/**
 * The audit trail: who did what to which record, when. Written by the engine in the same transaction as each
 * write; read-only here (no create, edit or delete is granted, and the table refuses them).
 * `subject_*` files a child record's entries under its parent (a staff member's documents in their history).
 */
export const auditEntries: ResourceDeclaration = {
  name: 'audit_entries',
  table: 'audit_log',
  label: { one: 'History entry', many: 'History' },
  recordRepresentation: '%{event}',
  defaultSort: { field: 'created_at', order: 'DESC' },
  delete: 'hard',
  audited: false,
  access: { admin: ['list', 'show', 'export'], consultant: ['list', 'show', 'export'] },
  fields: [
    { source: 'created_at', type: 'datetime', label: 'When', readOnly: true, sortable: true, filter: true },
    { source: 'user_name', type: 'text', label: 'Who', readOnly: true },
    { source: 'login_type', type: 'text', label: 'Panel', readOnly: true, views: [] },
    { source: 'user_id', type: 'number', label: 'User', integer: true, readOnly: true, filter: true, views: [] },
    { source: 'event', type: 'choice', label: 'What', choices: AUDIT_EVENTS, readOnly: true, filter: true },
    { source: 'action', type: 'text', label: 'Action', readOnly: true },
    { source: 'resource', type: 'text', label: 'Record type', readOnly: true, filter: true },
    { source: 'record_id', type: 'number', label: 'Record', integer: true, readOnly: true, filter: true },
    { source: 'subject_resource', type: 'text', label: 'Filed under', readOnly: true, filter: true, views: [] },
    {
      source: 'subject_id',
      type: 'number',
      label: 'Filed under record',
      integer: true,
      readOnly: true,
      filter: true,
      views: [],
    },
    { source: 'changes', type: 'json', label: 'Changes', readOnly: true },
    { source: 'input', type: 'json', label: 'Details', readOnly: true },
  ],
};
