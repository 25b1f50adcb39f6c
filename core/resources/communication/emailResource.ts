import type { ResourceDeclaration } from '../../engine/types';
import { EVENTS } from '../../domain/notifications/events';

export const EMAIL_STATUSES = [
  { id: 'queued', name: 'Queued' },
  { id: 'sent', name: 'Sent' },
  { id: 'failed', name: 'Failed' },
];

/**
 * The e-mail report (/report/EmailReport): every e-mail the product queued, with its recipient, event,
 * status, attempts and times; filters and CSV export. Read-only: the outbox is written by notify() and the
 * worker, never through the API.
 */
export const emailOutbox: ResourceDeclaration = {
  name: 'email_outbox',
  table: 'email_outbox',
  label: { one: 'E-mail', many: 'E-mails' },
  recordRepresentation: '%{subject}',
  defaultSort: { field: 'created_at', order: 'DESC' },
  delete: 'hard',
  audited: false,
  access: { admin: ['list', 'show', 'export'], consultant: ['list', 'show', 'export'] },
  search: ['recipient'],
  routes: { list: '/report/EmailReport', show: '/report/EmailReport/:id' },
  fields: [
    { source: 'created_at', type: 'datetime', label: 'Queued', readOnly: true, sortable: true, filter: true },
    { source: 'recipient', type: 'email', label: 'Recipient', readOnly: true, sortable: true },
    { source: 'recipient_name', type: 'text', label: 'Name', readOnly: true, views: ['show'] },
    {
      source: 'event',
      type: 'choice',
      label: 'Event',
      readOnly: true,
      filter: true,
      sortable: true,
      choices: EVENTS.map((e) => ({ id: e.key, name: e.label })),
    },
    { source: 'subject', type: 'text', label: 'Subject', readOnly: true },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      readOnly: true,
      filter: true,
      sortable: true,
      choices: EMAIL_STATUSES,
    },
    { source: 'attempts', type: 'number', label: 'Attempts', readOnly: true, integer: true, listHidden: true },
    { source: 'sent_at', type: 'datetime', label: 'Sent', readOnly: true, listHidden: true },
    { source: 'next_attempt_at', type: 'datetime', label: 'Next attempt', readOnly: true, views: ['show'] },
    { source: 'last_error', type: 'longtext', label: 'Last error', readOnly: true, views: ['show'] },
    { source: 'message_id', type: 'text', label: 'Message ID', readOnly: true, views: ['show'] },
    { source: 'text', type: 'longtext', label: 'Text', readOnly: true, views: ['show'] },
    // Shown rendered in the mailbox, never as markup here.
    { source: 'html', type: 'longtext', label: 'HTML', readOnly: true, views: [] },
    // A single-use link the sender makes when it sends the e-mail (the text above holds a placeholder): its kind
    // and the record it belongs to, never the link.
    { source: 'secret_kind', type: 'text', label: 'Link kind', readOnly: true, views: [] },
    { source: 'secret_ref', type: 'number', label: 'Link record', readOnly: true, integer: true, views: [] },
    // The kept documents (issued_documents ids) the message carries, read when it is sent: never copies of their bytes.
    { source: 'attachments', type: 'references', label: 'Attachments', readOnly: true, views: [] },
  ],
};

/** This part's declarations, added to the area's by resource.ts. */
export const notificationResources: ResourceDeclaration[] = [emailOutbox];
