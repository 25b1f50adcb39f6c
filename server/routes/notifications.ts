import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLIENT_EMAIL_EVENTS, clientEmailChoice } from '../../core/domain/clients/settings.js';
import type { Queryable } from '../db/index.js';
import { notFound } from '../http.js';
import {
  COMMON_PLACEHOLDERS,
  EVENT_BY_KEY,
  EVENTS,
  ownStageOfEvent,
  recipientChoicesOf,
  type Channel,
  type Recipient,
} from '../../core/domain/notifications/events.js';
import { settingsOf, templateOf } from '../notifications/notify.js';
import { recordsOnly } from '../notifications/drivers.js';
import type { EngineContext } from '../engine/context.js';
import { agencyRowId, saveAgencyRow } from '../engine/agencyRows.js';
import { builtInRolesOf, rolesOf } from '../../core/resources/access.js';
import { route } from './route.js';
import { recruitmentSettingsOf } from './recruitmentSettings.js';
import {
  AllRead,
  AnyBody,
  EventParams,
  EventSaved,
  Inbox as InboxAnswer,
  MailParams,
  Mail,
  MyPreferences,
  MyPreferenceSaved,
  type MyPreference,
  Mailbox,
  Outbox,
  OutboxQuery,
  PageQuery,
  RemindersSaved,
  Settings,
  TemplateSaved,
  type MailSummary,
  type Notification,
  type Mail as MailAnswer,
} from '../../core/contracts/notifications.js';

/**
 * Whose notifications a caller reads: the agency's (and their own), their client's (and their own), or a staff member's
 * own.
 */
interface Inbox {
  merchantId: number;
  userId: number;
  /** null: the agency's inbox (or a staff member's). */
  clientId: number | null;
  /** A staff member's own inbox. */
  candidateId?: number | null;
}

/** The caller's inbox: their principal's client or staff record says whose (an agency user's has neither). */
const inboxOf = ({ principal: p }: EngineContext): Inbox => ({
  merchantId: p.merchantId,
  userId: p.userId,
  clientId: p.clientId,
  candidateId: p.candidateId,
});

// The audience columns as the notification_counts deltas key them (0 for none).
const scope = (inbox: Inbox) =>
  inbox.candidateId != null
    ? 'candidate_id = $3 and (user_id is null or user_id = $2)'
    : inbox.clientId === null
      ? 'client_id is null and candidate_id is null and (user_id is null or user_id = $2)'
      : 'client_id = $3 and (user_id is null or user_id = $2)';
const paramsOf = (inbox: Inbox) =>
  inbox.candidateId != null
    ? [inbox.merchantId, inbox.userId, inbox.candidateId]
    : inbox.clientId === null
      ? [inbox.merchantId, inbox.userId]
      : [inbox.merchantId, inbox.userId, inbox.clientId];

/** One page of an inbox, newest first, with its totals: the spec's list answer. */
export async function inboxPage(db: Queryable, inbox: Inbox, page: number, perPage: number): Promise<InboxAnswer> {
  const params = paramsOf(inbox);
  const [notifications, [counts]] = await Promise.all([
    db.query<Notification>(
      `select id, event, title, body, link, read, created_at from notifications where merchant_id = $1 and ${scope(inbox)}
        order by created_at desc, id desc limit ${perPage} offset ${(page - 1) * perPage}`,
      params,
    ),
    // The triggers' deltas: one row per audience once the worker has folded them.
    db.query<{ total: number; unread: number }>(
      `select coalesce(sum(total), 0)::int as total, coalesce(sum(unread), 0)::int as unread from notification_counts
        where merchant_id = $1 and client_id = ${inbox.clientId === null ? '0' : '$3'} and candidate_id = ${inbox.candidateId != null ? '$3' : '0'} and user_id in (0, $2)`,
      params,
    ),
  ]);
  return {
    notifications,
    current_page: page,
    total_count: counts.total,
    total_pages: Math.ceil(counts.total / perPage),
    unread_count: counts.unread,
    message: counts.total ? 'Notifications loaded' : 'No notifications yet',
  };
}

/** Marks every notification of the caller's inbox read. */
export async function markInboxRead(db: Queryable, inbox: Inbox) {
  await db.query(
    `update notifications set read = true where merchant_id = $1 and not read and ${scope(inbox)}`,
    paramsOf(inbox),
  );
}

/** Where one of the agency's notification settings is stored: its resource and the key that finds its row. */
interface SettingRow {
  resource: 'notification_settings' | 'notification_templates' | 'notification_payment_settings';
  /** The row's key besides the agency: the event, or nothing for the agency's one row of payment reminders. */
  event?: string;
}

/**
 * Saves one of the agency's notification settings as an engine write (validation, version, audit): the routes find
 * the row by event, the engine does the rest. `version` is the one the caller read, 0 when nothing was saved yet:
 * a stale one is refused with the engine's 409, a row saved meanwhile by someone else included.
 */
async function saveSetting(
  app: FastifyInstance,
  req: FastifyRequest,
  transaction: <T>(fn: (ctx: EngineContext) => Promise<T>) => Promise<T>,
  row: SettingRow,
  values: Record<string, unknown>,
) {
  const version = (req.body as { version?: unknown } | undefined)?.version;
  const c = app.engine.get(row.resource)!;
  return transaction((ctx) => saveAgencyRow(ctx, c, { ...values, version }, row.event ? { event: row.event } : {}));
}

/** The event a route's `:event` names (as sent): an unknown one is not found, before its body is validated. */
const knownEvent = async (req: FastifyRequest) => {
  const def = EVENT_BY_KEY.get(String((req.params as { event?: unknown }).event));
  if (!def) throw notFound('Event');
  return def;
};

/** What a setting's save sends: the fields given, as sent (the declaration validates them); the rest stay. */
const given = (body: unknown, fields: string[]) =>
  Object.fromEntries(
    fields.flatMap((f) => (body && typeof body === 'object' && f in body ? [[f, (body as any)[f]]] : [])),
  );

/**
 * Notifications (the bell, /notification, /client/ClientNotification), notification settings and templates
 * (/appsetting/notificationsetting), the recorded SMS and push messages, and the embedded mailbox.
 */
export async function notificationRoutes(app: FastifyInstance) {
  // The same inbox for each panel, at the spec's paths.
  const inboxes = [
    {
      access: 'agency',
      whose: 'agency',
      list: '/api/agency_notifications',
      readAll: '/api/merchant_notification_read_all',
    },
    {
      access: 'client',
      whose: 'client',
      list: '/api/client_notifications',
      readAll: '/api/client_notification_read_all',
    },
    // The staff member's own (bookings, moves, cancellations), on their page /staff-app.
    {
      access: 'staff',
      whose: 'staff member',
      list: '/api/staff_notifications',
      readAll: '/api/staff_notification_read_all',
    },
  ] as const;
  for (const { access, whose, list, readAll } of inboxes) {
    route(app, {
      method: 'GET',
      url: list,
      roles: rolesOf(access),
      schema: {
        tags: ['notifications'],
        summary: `The ${whose}'s notifications (and the caller's own), newest first`,
        querystring: PageQuery,
        response: { 200: InboxAnswer },
      },
      handler: async ({ req, ctx }) => inboxPage(ctx.db, inboxOf(ctx), req.query.page ?? 1, req.query.per_page ?? 10),
    });
    route(app, {
      method: 'PUT',
      url: readAll,
      roles: rolesOf(access),
      schema: {
        tags: ['notifications'],
        summary: `Mark every notification of the ${whose}'s inbox read`,
        response: { 200: AllRead },
      },
      handler: async ({ ctx }) => {
        await markInboxRead(ctx.db, inboxOf(ctx));
        return { message: 'All notifications marked as read', unread_count: 0 };
      },
    });
  }

  // A user's own choice of what reaches them (issue 30.19), for the events their panel hears of.
  const myEvents = ({ principal }: EngineContext) => {
    const audience: Recipient[] = principal.clientId !== null ? ['client_users'] : ['agency_admins', 'consultants'];
    return EVENTS.filter((e) => e.recipients.some((r) => audience.includes(r)));
  };
  const myPreference = async (ctx: EngineContext, event?: string): Promise<MyPreference[]> => {
    const { merchantId, userId } = ctx.principal;
    const rows = await ctx.db.query<{ event: string; in_app: boolean; email: MyPreference['email']; version: number }>(
      `select event, in_app, email, version from notification_preferences where merchant_id = $1 and user_id = $2${event ? ' and event = $3' : ''}`,
      event ? [merchantId, userId, event] : [merchantId, userId],
    );
    const mine = new Map(rows.map((r) => [r.event, r]));
    // A client user who chose nothing gets the e-mails the agency's client settings give client users (issue 35).
    const [agency] =
      ctx.principal.loginType === 'client'
        ? await ctx.db.query<{ client_emails: string[] }>(
            'select client_emails from client_settings where merchant_id = $1',
            [merchantId],
          )
        : [];
    const emailOf = (event: string) =>
      ctx.principal.loginType === 'client'
        ? clientEmailChoice(
            event,
            mine.get(event)?.email,
            agency?.client_emails ?? CLIENT_EMAIL_EVENTS.map((e) => e.id),
          )
        : (mine.get(event)?.email ?? 'now');
    return myEvents(ctx)
      .filter((e) => !event || e.key === event)
      .map((e) => ({
        event: e.key,
        label: e.label,
        description: e.description,
        in_app: mine.get(e.key)?.in_app ?? true,
        email: emailOf(e.key),
        version: mine.get(e.key)?.version ?? 0,
      }));
  };
  route(app, {
    method: 'GET',
    url: '/api/me/notification_preferences',
    may: { notification_preferences: 'list' },
    schema: {
      tags: ['notifications'],
      summary:
        'The events that may reach you, each as you chose to hear of it (in the app; e-mail at once, daily or not)',
      response: { 200: MyPreferences },
    },
    handler: async ({ ctx }) => ({ data: await myPreference(ctx) }),
  });

  route(app, {
    method: 'PUT',
    url: '/api/me/notification_preferences/:event',
    may: { notification_preferences: ['create', 'edit'] },
    // Only an event the caller's panel hears of.
    record: async (req, ctx) => {
      const def = myEvents(ctx).find((e) => e.key === String((req.params as { event?: unknown }).event));
      if (!def) throw notFound('Event');
      return def;
    },
    schema: {
      tags: ['notifications'],
      summary: 'How an event reaches you: { in_app: boolean, email: now | digest | off, version }',
      params: EventParams,
      body: AnyBody,
      response: { 200: MyPreferenceSaved },
    },
    handler: async ({ req, ctx, record: def, transaction }) => {
      const body = (req.body ?? {}) as { in_app?: unknown; email?: unknown; version?: unknown };
      const [current] = await myPreference(ctx, def.key);
      const values = { in_app: body.in_app ?? current.in_app, email: body.email ?? current.email };
      const c = app.engine.get('notification_preferences')!;
      // The engine validates the choice (a boolean, one of now, digest, off) and keeps the version and audit.
      await transaction((tctx) =>
        saveAgencyRow(tctx, c, { ...values, version: body.version }, { user_id: ctx.principal.userId, event: def.key }),
      );
      const [saved] = await myPreference(ctx, def.key);
      return { data: saved, message: 'Notification preference saved' };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/notification_settings',
    may: { notification_settings: 'list', notification_templates: 'list', notification_payment_settings: 'list' },
    schema: {
      tags: ['notifications'],
      summary: 'Every event with its channels, recipients and e-mail template',
      response: { 200: Settings },
    },
    handler: async ({ ctx }) => {
      const { merchantId } = ctx.principal;
      const [settings, templates, [payment]] = await Promise.all([
        app.db.query<{ event: string; channels: Channel[]; recipients: Recipient[]; version: number }>(
          'select event, channels, recipients, version from notification_settings where merchant_id = $1',
          [merchantId],
        ),
        app.db.query<{ event: string; subject: string; body: string; version: number }>(
          'select event, subject, body, version from notification_templates where merchant_id = $1',
          [merchantId],
        ),
        app.db.query<Settings['payment_reminders']>(
          'select enabled, days_before_due, days_after_due, version from notification_payment_settings where merchant_id = $1',
          [merchantId],
        ),
      ]);
      const setting = new Map(settings.map((s) => [s.event, s]));
      const template = new Map(templates.map((t) => [t.event, t]));
      // An own stage's e-mail is named by the stage, as the agency names it; a slot its pipeline does not use is not
      // offered (no applicant can be moved to it).
      const ownStages = new Map(
        (await recruitmentSettingsOf(ctx.db, merchantId)).stages.map((stage) => [stage.id, stage.label]),
      );
      const offered = EVENTS.filter((e) => {
        const slot = ownStageOfEvent(e.key);
        return slot === null || ownStages.has(slot);
      });
      return {
        events: offered.map((e) => ({
          key: e.key,
          label: ownStageOfEvent(e.key) ? `Applicant moved to ${ownStages.get(ownStageOfEvent(e.key)!)}` : e.label,
          description: e.description,
          placeholders: [...COMMON_PLACEHOLDERS, ...e.placeholders],
          channels: setting.get(e.key)?.channels ?? e.channels,
          recipients: setting.get(e.key)?.recipients ?? e.recipients,
          recipient_choices: recipientChoicesOf(e),
          subject: template.get(e.key)?.subject ?? e.subject,
          body: template.get(e.key)?.body ?? e.body,
          custom_template: template.has(e.key),
          // What a save sends back to be refused if someone saved in between (0: nothing saved yet).
          version: setting.get(e.key)?.version ?? 0,
          template_version: template.get(e.key)?.version ?? 0,
          default_subject: e.subject,
          default_body: e.body,
        })),
        drivers: { sms: { records_only: recordsOnly('sms') }, push: { records_only: recordsOnly('push') } },
        payment_reminders: payment ?? { enabled: false, days_before_due: 3, days_after_due: 7, version: 0 },
      };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/notification_settings/:event',
    may: { notification_settings: ['create', 'edit'] },
    record: knownEvent,
    schema: {
      tags: ['notifications'],
      summary: "An event's channels and recipients",
      params: EventParams,
      body: AnyBody,
      response: { 200: EventSaved },
    },
    handler: async ({ req, ctx, record: def, transaction }) => {
      const current = await settingsOf(ctx.db, ctx.principal.merchantId, def.key);
      const { channels = current.channels, recipients = current.recipients } = given(req.body, [
        'channels',
        'recipients',
      ]);
      const saved = await saveSetting(
        app,
        req,
        transaction,
        { resource: 'notification_settings', event: def.key },
        { channels, recipients },
      );
      return {
        data: { event: def.key, channels: saved.channels, recipients: saved.recipients, version: saved.version },
        message: 'Notification settings saved',
      };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/notification_templates/:event',
    may: { notification_templates: ['create', 'edit'] },
    record: knownEvent,
    schema: {
      tags: ['notifications'],
      summary: "An event's e-mail template (%{placeholders})",
      params: EventParams,
      body: AnyBody,
      response: { 200: TemplateSaved },
    },
    handler: async ({ req, record: def, transaction }) => {
      const saved = await saveSetting(
        app,
        req,
        transaction,
        { resource: 'notification_templates', event: def.key },
        given(req.body, ['subject', 'body']),
      );
      return {
        data: {
          event: def.key,
          subject: saved.subject,
          body: saved.body,
          custom_template: true,
          template_version: saved.version,
        },
        message: 'Template saved',
      };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/notification_templates/:event',
    may: { notification_templates: 'delete' },
    record: knownEvent,
    schema: {
      tags: ['notifications'],
      summary: "Restore an event's default e-mail template",
      params: EventParams,
      response: { 200: TemplateSaved },
    },
    handler: async ({ ctx, record: def, transaction }) => {
      // Restoring the default removes the agency's own template (if it has one); its audit entry keeps what it said.
      await transaction(async (tctx) => {
        const id = await agencyRowId(tctx, app.engine.get('notification_templates')!, { event: def.key });
        if (id !== undefined) await tctx.engine.remove('notification_templates', id);
      });
      const t = await templateOf(ctx.db, ctx.principal.merchantId, def.key);
      return {
        data: { event: def.key, subject: t.subject, body: t.body, custom_template: false },
        message: 'Default template restored',
      };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/notification_payment_settings',
    may: { notification_payment_settings: ['create', 'edit'] },
    schema: {
      tags: ['notifications'],
      summary: 'Payment reminders: on or off, and when',
      body: AnyBody,
      response: { 200: RemindersSaved },
    },
    handler: async ({ req, transaction }) => {
      // One row per agency, whose id is the agency's: its audit entries are filed under the agency.
      const saved = await saveSetting(
        app,
        req,
        transaction,
        { resource: 'notification_payment_settings' },
        given(req.body, ['enabled', 'days_before_due', 'days_after_due']),
      );
      return {
        data: {
          enabled: saved.enabled,
          days_before_due: saved.days_before_due,
          days_after_due: saved.days_after_due,
          version: saved.version,
        },
        message: 'Payment reminders saved',
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/message_outbox',
    roles: builtInRolesOf('agency'),
    schema: {
      tags: ['notifications'],
      summary: 'SMS or push messages handed to their driver, newest first',
      querystring: OutboxQuery,
      response: { 200: Outbox },
    },
    handler: async ({ req, ctx }) => {
      const { channel, page = 1, per_page: perPage = 10 } = req.query;
      const params = [ctx.principal.merchantId, channel];
      const [data, [{ total }]] = await Promise.all([
        app.db.query<Outbox['data'][number]>(
          `select id, channel, recipient, recipient_name, body, event, status, driver, created_at from message_outbox where merchant_id = $1 and channel = $2
            order by created_at desc, id desc limit ${perPage} offset ${(page - 1) * perPage}`,
          params,
        ),
        app.db.query<{ total: number }>(
          'select count(*)::int as total from message_outbox where merchant_id = $1 and channel = $2',
          params,
        ),
      ]);
      return { data, total, records_only: recordsOnly(channel) };
    },
  });

  // What the embedded mail server received: the agency's admins read it.
  route(app, {
    method: 'GET',
    url: '/api/mailbox',
    roles: ['admin'],
    schema: {
      tags: ['notifications'],
      summary: 'What the embedded mail server received for the agency, newest first',
      querystring: PageQuery,
      response: { 200: Mailbox },
    },
    handler: async ({ req, ctx: { principal } }) => {
      const { page = 1, per_page: perPage = 10 } = req.query;
      const [data, [{ total }]] = await Promise.all([
        app.db.query<MailSummary>(
          `select id, outbox_id, envelope_from, envelope_to, subject, received_at from mailbox where merchant_id = $1
            order by received_at desc, id desc limit ${perPage} offset ${(page - 1) * perPage}`,
          [principal.merchantId],
        ),
        app.db.query<{ total: number }>('select count(*)::int as total from mailbox where merchant_id = $1', [
          principal.merchantId,
        ]),
      ]);
      return { data, total };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/mailbox/:id',
    roles: ['admin'],
    schema: {
      tags: ['notifications'],
      summary: 'One received e-mail, with its text and HTML and what it carried attached',
      params: MailParams,
      response: { 200: Mail },
    },
    handler: async ({ req, ctx: { principal } }) => {
      const [data] = await app.db.query<MailAnswer['data']>(
        'select id, outbox_id, envelope_from, envelope_to, subject, text, html, message_id, attachments, received_at from mailbox where merchant_id = $1 and id = $2',
        [principal.merchantId, req.params.id],
      );
      if (!data) throw notFound('E-mail');
      return { data };
    },
  });
}
