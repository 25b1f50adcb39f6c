import { textOf, type ResourceDeclaration } from '../../engine/types';
import {
  CHANNELS,
  COMMON_PLACEHOLDERS,
  EVENT_BY_KEY,
  EVENTS,
  RECIPIENTS,
  unknownPlaceholders,
} from '../../domain/notifications/events';

// How the agency notifies (/appsetting/notificationsetting). The spec's routes in server/routes/notifications.ts
// read and write them by event, with their own answers, so they are not served as CRUD (served: false); their
// writes are the engine's all the same: validated (by these declarations only), versioned and audited like any
// record. The routes authorise by the access below (server/routes/route.ts): the agency's admins change how it
// notifies, its consultants read it.

const readByAgency: ResourceDeclaration['access'] = {
  admin: ['list', 'show', 'create', 'edit'],
  consultant: ['list', 'show'],
};

const event = {
  source: 'event',
  type: 'choice',
  label: 'Event',
  required: true,
  createOnly: true,
  choices: EVENTS.map((e) => ({ id: e.key, name: e.label })),
} as const;

/** Per event: which channels are used and who receives them. No row: the catalogue's defaults (events.ts). */
export const notificationSettings: ResourceDeclaration = {
  name: 'notification_settings',
  table: 'notification_settings',
  label: { one: 'Notification setting', many: 'Notification settings' },
  recordRepresentation: '%{event}',
  defaultSort: { field: 'event', order: 'ASC' },
  delete: 'hard',
  served: false,
  access: readByAgency,
  // An event sent on some channel reaches somebody.
  rules: (r): Record<string, string> =>
    Array.isArray(r.channels) && r.channels.length && Array.isArray(r.recipients) && !r.recipients.length
      ? { recipients: 'Choose at least one recipient, or turn every channel off.' }
      : {},
  fields: [
    { ...event, choices: [...event.choices] },
    { source: 'channels', type: 'choices', label: 'Channels', choices: CHANNELS.map((c) => ({ id: c, name: c })) },
    {
      source: 'recipients',
      type: 'choices',
      label: 'Recipients',
      choices: RECIPIENTS.map((r) => ({ id: r, name: r })),
    },
  ],
};

/** The agency's wording of an event's e-mail. No row: the catalogue's default template. */
export const notificationTemplates: ResourceDeclaration = {
  name: 'notification_templates',
  table: 'notification_templates',
  label: { one: 'E-mail template', many: 'E-mail templates' },
  recordRepresentation: '%{subject}',
  defaultSort: { field: 'event', order: 'ASC' },
  delete: 'hard',
  served: false,
  // Deleting an agency's template restores the event's default.
  access: { ...readByAgency, admin: ['list', 'show', 'create', 'edit', 'delete'] },
  // A template uses only the placeholders its event fills in.
  rules: (r): Record<string, string> => {
    const def = EVENT_BY_KEY.get(textOf(r.event));
    if (!def) return {};
    const problems: Record<string, string> = {};
    for (const field of ['subject', 'body']) {
      const unknown = unknownPlaceholders(textOf(r[field]), def);
      if (unknown.length)
        problems[field] =
          `Unknown placeholder${unknown.length > 1 ? 's' : ''}: ${unknown.map((u) => `%{${u}}`).join(', ')}. This event knows: ${[...COMMON_PLACEHOLDERS, ...def.placeholders].map((p) => `%{${p}}`).join(', ')}.`;
    }
    return problems;
  },
  fields: [
    { ...event, choices: [...event.choices] },
    { source: 'subject', type: 'text', label: 'Subject', required: true, maxLength: 200 },
    { source: 'body', type: 'longtext', label: 'Message', required: true, maxLength: 5000 },
  ],
};

/** Payment reminders (the ActivatePayment tab): one row per agency, whose id is the agency's (migration 040). */
export const notificationPaymentSettings: ResourceDeclaration = {
  name: 'notification_payment_settings',
  table: 'notification_payment_settings',
  label: { one: 'Payment reminder setting', many: 'Payment reminder settings' },
  recordRepresentation: 'Payment reminders',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  served: false,
  access: readByAgency,
  fields: [
    { source: 'enabled', type: 'boolean', label: 'Reminders on' },
    {
      source: 'days_before_due',
      type: 'number',
      label: 'Days before due',
      integer: true,
      min: 0,
      max: 60,
      defaultValue: 3,
    },
    {
      source: 'days_after_due',
      type: 'number',
      label: 'Days after due',
      integer: true,
      min: 0,
      max: 90,
      defaultValue: 7,
    },
  ],
};

/** How a user hears of an event's e-mail: at once, in the next morning's digest, or not at all. */
export const EMAIL_DELIVERY = ['now', 'digest', 'off'] as const;
export type EmailDelivery = (typeof EMAIL_DELIVERY)[number];

/**
 * One user's own choice for an event (issue 30.19: every booking e-mailed and notified the admin): whether it shows
 * in their bell, and how its e-mail reaches them. No row: the agency's settings as they are (in the bell, e-mail at
 * once). The agency's settings still decide whether an event is sent at all; a user only turns down what they get.
 * Served by /api/me/notification_preferences (server/routes/notifications.ts), each user their own rows.
 */
export const notificationPreferences: ResourceDeclaration = {
  name: 'notification_preferences',
  table: 'notification_preferences',
  label: { one: 'Notification preference', many: 'Notification preferences' },
  recordRepresentation: '%{event}',
  defaultSort: { field: 'event', order: 'ASC' },
  delete: 'hard',
  served: false,
  // Every agency and client user chooses for themself (the routes read and write the caller's own rows only).
  access: {
    admin: ['list', 'show', 'create', 'edit'],
    consultant: ['list', 'show', 'create', 'edit'],
    manager: ['list', 'show', 'create', 'edit'],
    viewer: ['list', 'show', 'create', 'edit'],
  },
  // A client user's own rows are those of their client's users (the routes read the caller's own only).
  clientScope: 'user_id.client_id',
  fields: [
    { source: 'user_id', type: 'reference', reference: 'users', label: 'User', required: true, createOnly: true },
    { ...event, choices: [...event.choices] },
    { source: 'in_app', type: 'boolean', label: 'In the app', defaultValue: true },
    {
      source: 'email',
      type: 'choice',
      label: 'E-mail',
      required: true,
      defaultValue: 'now',
      choices: [
        { id: 'now', name: 'At once' },
        { id: 'digest', name: 'In a daily digest' },
        { id: 'off', name: 'None' },
      ],
    },
  ],
};

export const notificationSettingResources = [
  notificationSettings,
  notificationTemplates,
  notificationPaymentSettings,
  notificationPreferences,
];
