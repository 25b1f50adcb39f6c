/**
 * Notifications, their settings and templates, the recorded messages and the mailbox (server/routes/notifications.ts).
 */
import Type, { type Static } from 'typebox';
import { Id, Nullable, OneOf } from './common.js';

export const PageQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});
export const EventParams = Type.Object({ event: Type.String({ maxLength: 60 }) });
export const MailParams = Type.Object({ id: Id });

export const Notification = Type.Object({
  id: Type.Integer(),
  event: Nullable(Type.String()),
  title: Type.String(),
  body: Nullable(Type.String()),
  link: Nullable(Type.String()),
  read: Type.Boolean(),
  created_at: Type.String(),
});
export type Notification = Static<typeof Notification>;
/** The spec's inbox answer. */
export const Inbox = Type.Object({
  notifications: Type.Array(Notification),
  current_page: Type.Integer(),
  total_count: Type.Integer(),
  total_pages: Type.Integer(),
  unread_count: Type.Integer(),
  message: Type.String(),
});
export type Inbox = Static<typeof Inbox>;
export const AllRead = Type.Object({ message: Type.String(), unread_count: Type.Integer() });

const Version = Type.Integer({ description: 'what a save sends back (0: nothing saved yet); a stale one answers 409' });
export const PaymentReminders = Type.Object({
  enabled: Type.Boolean(),
  days_before_due: Type.Integer(),
  days_after_due: Type.Integer(),
  version: Version,
});
export const EventSettings = Type.Object({
  key: Type.String(),
  label: Type.String(),
  description: Type.String(),
  placeholders: Type.Array(Type.String()),
  channels: Type.Array(Type.String()),
  recipients: Type.Array(Type.String()),
  /** The recipients the settings page offers for the event (an applicant's e-mails: the applicant alone). */
  recipient_choices: Type.Array(Type.String()),
  subject: Type.String(),
  body: Type.String(),
  custom_template: Type.Boolean(),
  version: Version,
  template_version: Version,
  default_subject: Type.String(),
  default_body: Type.String(),
});
const Driver = Type.Object({ records_only: Type.Boolean() });
export const Settings = Type.Object({
  events: Type.Array(EventSettings),
  drivers: Type.Object({ sms: Driver, push: Driver }),
  payment_reminders: PaymentReminders,
});
export type Settings = Static<typeof Settings>;

/** The bodies below are checked by the handlers, in the user's words, field by field. */
export const AnyBody = Type.Unsafe<Record<string, unknown> | undefined>({ type: 'object' });

/** One event as a user chose to hear of it (issue 30.19): in their bell, and its e-mail at once, daily, or not. */
export const MyPreference = Type.Object({
  event: Type.String(),
  label: Type.String(),
  description: Type.String(),
  in_app: Type.Boolean(),
  email: Type.Union([Type.Literal('now'), Type.Literal('digest'), Type.Literal('off')]),
  /** What a save sends back to be refused if saved meanwhile (0: nothing chosen yet). */
  version: Type.Integer(),
});
export type MyPreference = Static<typeof MyPreference>;
export const MyPreferences = Type.Object({ data: Type.Array(MyPreference) });
export const MyPreferenceSaved = Type.Object({ data: MyPreference, message: Type.String() });

export const EventSaved = Type.Object({
  data: Type.Object({
    event: Type.String(),
    channels: Type.Array(Type.String()),
    recipients: Type.Array(Type.String()),
    version: Type.Optional(Type.Integer()),
  }),
  message: Type.String(),
});
export const TemplateSaved = Type.Object({
  data: Type.Object({
    event: Type.String(),
    subject: Type.String(),
    body: Type.String(),
    custom_template: Type.Boolean(),
    template_version: Type.Optional(Type.Integer()),
  }),
  message: Type.String(),
});
export const RemindersSaved = Type.Object({
  data: Type.Object({
    enabled: Type.Boolean(),
    days_before_due: Type.Integer(),
    days_after_due: Type.Integer(),
    version: Type.Optional(Type.Integer()),
  }),
  message: Type.String(),
});
export type RemindersSaved = Static<typeof RemindersSaved>;

export const OutboxQuery = Type.Object({ ...PageQuery.properties, channel: OneOf(['sms', 'push']) });
export const OutboxMessage = Type.Object({
  id: Type.Integer(),
  channel: Type.String(),
  recipient: Type.String(),
  recipient_name: Nullable(Type.String()),
  body: Type.String(),
  event: Type.String(),
  status: Type.String(),
  driver: Type.String(),
  created_at: Type.String(),
});
export const Outbox = Type.Object({
  data: Type.Array(OutboxMessage),
  total: Type.Integer(),
  records_only: Type.Boolean(),
});
export type Outbox = Static<typeof Outbox>;

export const MailSummary = Type.Object({
  id: Type.Integer(),
  outbox_id: Nullable(Type.Integer()),
  envelope_from: Nullable(Type.String()),
  envelope_to: Type.Array(Type.String()),
  subject: Nullable(Type.String()),
  received_at: Type.String(),
});
export type MailSummary = Static<typeof MailSummary>;
export const Mailbox = Type.Object({ data: Type.Array(MailSummary), total: Type.Integer() });
export const Mail = Type.Object({
  data: Type.Object({
    ...MailSummary.properties,
    text: Nullable(Type.String()),
    html: Nullable(Type.String()),
    message_id: Nullable(Type.String()),
    /** What the message carried, as it arrived: each attachment's name, type, size and SHA-256. */
    attachments: Type.Array(
      Type.Object({
        filename: Nullable(Type.String()),
        content_type: Type.String(),
        size: Type.Integer(),
        sha256: Type.String(),
      }),
    ),
  }),
});
export type Mail = Static<typeof Mail>;
