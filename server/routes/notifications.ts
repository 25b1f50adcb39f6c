import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Queryable } from '../db/index.js';
import { badInput, forbidden, notFound } from '../http.js';
import {
  CHANNELS,
  COMMON_PLACEHOLDERS,
  EVENT_BY_KEY,
  EVENTS,
  RECIPIENTS,
  unknownPlaceholders,
  type Channel,
  type Recipient,
} from '../../core/domain/notifications/events.js';
import { settingsOf, templateOf } from '../notifications/notify.js';
import { recordsOnly } from '../notifications/drivers.js';
import { contextOf } from '../engine/routes.js';
import { saveRecord, stale } from '../engine/write.js';
import { multiLineText, oneLineText } from '../engine/input.js';
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

const inboxOf = (req: FastifyRequest): Inbox => ({
  merchantId: req.auth!.merchant_id,
  userId: req.auth!.id,
  clientId: req.auth!.loginType === 'client' ? req.auth!.client_id : null,
  candidateId: req.auth!.loginType === 'staff' ? req.auth!.candidate_id : null,
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

/** Only the agency's administrators change how it notifies. */
const requireAgencyAdmin = (req: FastifyRequest) => {
  if (req.auth!.loginType !== 'agency' || req.auth!.role !== 'admin') throw forbidden();
};

/** Where one of the agency's notification settings is stored: its resource and the key that finds its row. */
interface SettingRow {
  resource: 'notification_settings' | 'notification_templates' | 'notification_payment_settings';
  /** The row's key besides the agency: the event, or nothing for the agency's one row of payment reminders. */
  event?: string;
}

/** The id of the agency's row of a setting, locked for the write that follows, or undefined when none is saved. */
async function rowIdOf(tx: Queryable, merchantId: number, { resource, event }: SettingRow) {
  const [row] = await tx.query<{ id: number }>(
    `select id from ${resource} where merchant_id = $1${event ? ' and event = $2' : ''} for update`,
    event ? [merchantId, event] : [merchantId],
  );
  return row?.id;
}

/**
 * Saves one of the agency's notification settings as an engine write (validation, version, audit): the routes find
 * the row by event, the engine does the rest. `version` is the one the caller read, 0 when nothing was saved yet:
 * a stale one is refused with the engine's 409, a row saved meanwhile by someone else included.
 */
async function saveSetting(
  app: FastifyInstance,
  req: FastifyRequest,
  row: SettingRow,
  values: Record<string, unknown>,
) {
  const version = (req.body as { version?: unknown } | undefined)?.version;
  const c = app.engine.get(row.resource)!;
  return app.db.transaction(async (tx) => {
    const ctx = await contextOf(tx, req);
    const id = await rowIdOf(tx, ctx.principal.merchantId, row);
    if (id === undefined && version !== undefined && version !== null && Number(version) !== 0) throw stale(c);
    return saveRecord(ctx, c, { ...values, ...(row.event ? { event: row.event } : {}), version }, id);
  });
}

const knownEvent = (event: string) => {
  const def = EVENT_BY_KEY.get(event);
  if (!def) throw notFound('Event');
  return def;
};

/**
 * Notifications (the bell, /notification, /client/ClientNotification), notification settings and templates
 * (/appsetting/notificationsetting), the recorded SMS and push messages, and the embedded mailbox.
 */
export async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
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
    app.get(list, {
      config: { access },
      schema: {
        tags: ['notifications'],
        summary: `The ${whose}'s notifications (and the caller's own), newest first`,
        querystring: PageQuery,
        response: { 200: InboxAnswer },
      },
      handler: async (req) => inboxPage(app.db, inboxOf(req), req.query.page ?? 1, req.query.per_page ?? 10),
    });
    app.put(readAll, {
      config: { access },
      schema: {
        tags: ['notifications'],
        summary: `Mark every notification of the ${whose}'s inbox read`,
        response: { 200: AllRead },
      },
      handler: async (req) => {
        await markInboxRead(app.db, inboxOf(req));
        return { message: 'All notifications marked as read', unread_count: 0 };
      },
    });
  }

  // A user's own choice of what reaches them (issue 30.19), for the events their panel hears of.
  const myEvents = (req: FastifyRequest) => {
    const audience: Recipient[] =
      req.auth!.loginType === 'client' ? ['client_users'] : ['agency_admins', 'consultants'];
    return EVENTS.filter((e) => e.recipients.some((r) => audience.includes(r)));
  };
  const myPreference = async (db: Queryable, req: FastifyRequest, event?: string): Promise<MyPreference[]> => {
    const rows = await db.query<{ event: string; in_app: boolean; email: MyPreference['email']; version: number }>(
      `select event, in_app, email, version from notification_preferences where merchant_id = $1 and user_id = $2${event ? ' and event = $3' : ''}`,
      event ? [req.auth!.merchant_id, req.auth!.id, event] : [req.auth!.merchant_id, req.auth!.id],
    );
    const mine = new Map(rows.map((r) => [r.event, r]));
    return myEvents(req)
      .filter((e) => !event || e.key === event)
      .map((e) => ({
        event: e.key,
        label: e.label,
        description: e.description,
        in_app: mine.get(e.key)?.in_app ?? true,
        email: mine.get(e.key)?.email ?? 'now',
        version: mine.get(e.key)?.version ?? 0,
      }));
  };
  const panelUser = (req: FastifyRequest) => {
    if (req.auth!.loginType !== 'agency' && req.auth!.loginType !== 'client') throw forbidden();
  };

  app.get('/api/me/notification_preferences', {
    config: { access: 'any' },
    schema: {
      tags: ['notifications'],
      summary:
        'The events that may reach you, each as you chose to hear of it (in the app; e-mail at once, daily or not)',
      response: { 200: MyPreferences },
    },
    handler: async (req) => {
      panelUser(req);
      return { data: await myPreference(app.db, req) };
    },
  });

  app.put('/api/me/notification_preferences/:event', {
    config: { access: 'any' },
    schema: {
      tags: ['notifications'],
      summary: 'How an event reaches you: { in_app: boolean, email: now | digest | off, version }',
      params: EventParams,
      body: AnyBody,
      response: { 200: MyPreferenceSaved },
    },
    handler: async (req) => {
      panelUser(req);
      const def = myEvents(req).find((e) => e.key === req.params.event);
      if (!def) throw notFound('Event');
      const body = (req.body ?? {}) as { in_app?: unknown; email?: unknown; version?: unknown };
      const [current] = await myPreference(app.db, req, def.key);
      const values = { in_app: body.in_app ?? current.in_app, email: body.email ?? current.email };
      const c = app.engine.get('notification_preferences')!;
      await app.db.transaction(async (tx) => {
        const ctx = await contextOf(tx, req);
        const [row] = await tx.query<{ id: number }>(
          'select id from notification_preferences where merchant_id = $1 and user_id = $2 and event = $3 for update',
          [req.auth!.merchant_id, req.auth!.id, def.key],
        );
        if (!row && body.version !== undefined && body.version !== null && Number(body.version) !== 0) throw stale(c);
        // The engine validates the choice (a boolean, one of now, digest, off) and keeps the version and audit.
        await saveRecord(
          ctx,
          c,
          { ...values, ...(row ? {} : { user_id: req.auth!.id, event: def.key }), version: body.version },
          row?.id,
        );
      });
      const [saved] = await myPreference(app.db, req, def.key);
      return { data: saved, message: 'Notification preference saved' };
    },
  });

  app.get('/api/notification_settings', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: 'Every event with its channels, recipients and e-mail template',
      response: { 200: Settings },
    },
    handler: async (req) => {
      const merchantId = req.auth!.merchant_id;
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
      return {
        events: EVENTS.map((e) => ({
          key: e.key,
          label: e.label,
          description: e.description,
          placeholders: [...COMMON_PLACEHOLDERS, ...e.placeholders],
          channels: setting.get(e.key)?.channels ?? e.channels,
          recipients: setting.get(e.key)?.recipients ?? e.recipients,
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

  app.put('/api/notification_settings/:event', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: "An event's channels and recipients",
      params: EventParams,
      body: AnyBody,
      response: { 200: EventSaved },
    },
    handler: async (req) => {
      requireAgencyAdmin(req);
      const def = knownEvent(req.params.event);
      const current = await settingsOf(app.db, req.auth!.merchant_id, def.key);
      const { channels = current.channels, recipients = current.recipients } = req.body ?? {};
      const errors: Record<string, string> = {};
      const listOf = <T extends string>(value: unknown, allowed: readonly T[], field: string, words: string): T[] => {
        if (!Array.isArray(value) || value.some((v) => !allowed.includes(v))) {
          errors[field] = `Choose ${words} from: ${allowed.join(', ')}.`;
          return [];
        }
        return [...new Set(value as T[])];
      };
      const c = listOf(channels, CHANNELS, 'channels', 'channels');
      const r = listOf(recipients, RECIPIENTS, 'recipients', 'recipients');
      if (!errors.recipients && c.length > 0 && r.length === 0)
        errors.recipients = 'Choose at least one recipient, or turn every channel off.';
      if (Object.keys(errors).length) throw badInput(errors);
      const saved = await saveSetting(
        app,
        req,
        { resource: 'notification_settings', event: def.key },
        { channels: c, recipients: r },
      );
      return {
        data: { event: def.key, channels: c, recipients: r, version: saved?.version },
        message: 'Notification settings saved',
      };
    },
  });

  app.put('/api/notification_templates/:event', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: "An event's e-mail template (%{placeholders})",
      params: EventParams,
      body: AnyBody,
      response: { 200: TemplateSaved },
    },
    handler: async (req) => {
      requireAgencyAdmin(req);
      const def = knownEvent(req.params.event);
      const subjectText = oneLineText(req.body?.subject ?? '');
      const bodyText = multiLineText(req.body?.body ?? '');
      const subject = subjectText.text ?? '';
      const body = bodyText.text ?? '';
      const errors: Record<string, string> = {};
      if (subjectText.error) errors.subject = subjectText.error;
      else if (!subject) errors.subject = 'Enter a subject.';
      else if (subject.length > 200) errors.subject = 'Keep the subject to 200 characters.';
      if (bodyText.error) errors.body = bodyText.error;
      else if (!body) errors.body = 'Enter the message.';
      else if (body.length > 5000) errors.body = 'Keep the message to 5,000 characters.';
      for (const [field, text] of [
        ['subject', subject],
        ['body', body],
      ] as const) {
        const unknown = unknownPlaceholders(text, def);
        if (!errors[field] && unknown.length)
          errors[field] =
            `Unknown placeholder${unknown.length > 1 ? 's' : ''}: ${unknown.map((u) => `%{${u}}`).join(', ')}. This event knows: ${[...COMMON_PLACEHOLDERS, ...def.placeholders].map((p) => `%{${p}}`).join(', ')}.`;
      }
      if (Object.keys(errors).length) throw badInput(errors);
      const saved = await saveSetting(
        app,
        req,
        { resource: 'notification_templates', event: def.key },
        { subject, body },
      );
      return {
        data: { event: def.key, subject, body, custom_template: true, template_version: saved?.version },
        message: 'Template saved',
      };
    },
  });

  app.delete('/api/notification_templates/:event', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: "Restore an event's default e-mail template",
      params: EventParams,
      response: { 200: TemplateSaved },
    },
    handler: async (req) => {
      requireAgencyAdmin(req);
      const def = knownEvent(req.params.event);
      // Restoring the default removes the agency's own template (if it has one); its audit entry keeps what it said.
      await app.db.transaction(async (tx) => {
        const ctx = await contextOf(tx, req);
        const id = await rowIdOf(tx, ctx.principal.merchantId, { resource: 'notification_templates', event: def.key });
        if (id !== undefined) await ctx.engine.remove('notification_templates', id);
      });
      const t = await templateOf(app.db, req.auth!.merchant_id, def.key);
      return {
        data: { event: def.key, subject: t.subject, body: t.body, custom_template: false },
        message: 'Default template restored',
      };
    },
  });

  app.put('/api/notification_payment_settings', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: 'Payment reminders: on or off, and when',
      body: AnyBody,
      response: { 200: RemindersSaved },
    },
    handler: async (req) => {
      requireAgencyAdmin(req);
      const { enabled, days_before_due: before, days_after_due: after } = req.body ?? {};
      const errors: Record<string, string> = {};
      if (typeof enabled !== 'boolean') errors.enabled = 'Choose on or off.';
      if (!Number.isInteger(before) || (before as number) < 0 || (before as number) > 60)
        errors.days_before_due = 'Enter a whole number of days from 0 to 60.';
      if (!Number.isInteger(after) || (after as number) < 0 || (after as number) > 90)
        errors.days_after_due = 'Enter a whole number of days from 0 to 90.';
      if (Object.keys(errors).length) throw badInput(errors);
      // One row per agency, whose id is the agency's: its audit entries are filed under the agency.
      const saved = await saveSetting(
        app,
        req,
        { resource: 'notification_payment_settings' },
        { enabled, days_before_due: before, days_after_due: after },
      );
      return {
        data: {
          enabled: enabled as boolean,
          days_before_due: before as number,
          days_after_due: after as number,
          version: saved?.version,
        },
        message: 'Payment reminders saved',
      };
    },
  });

  app.get('/api/message_outbox', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: 'SMS or push messages handed to their driver, newest first',
      querystring: OutboxQuery,
      response: { 200: Outbox },
    },
    handler: async (req) => {
      const { channel, page = 1, per_page: perPage = 10 } = req.query;
      const params = [req.auth!.merchant_id, channel];
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

  app.get('/api/mailbox', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: 'What the embedded mail server received for the agency, newest first',
      querystring: PageQuery,
      response: { 200: Mailbox },
    },
    handler: async (req) => {
      requireAgencyAdmin(req);
      const { page = 1, per_page: perPage = 10 } = req.query;
      const [data, [{ total }]] = await Promise.all([
        app.db.query<MailSummary>(
          `select id, outbox_id, envelope_from, envelope_to, subject, received_at from mailbox where merchant_id = $1
            order by received_at desc, id desc limit ${perPage} offset ${(page - 1) * perPage}`,
          [req.auth!.merchant_id],
        ),
        app.db.query<{ total: number }>('select count(*)::int as total from mailbox where merchant_id = $1', [
          req.auth!.merchant_id,
        ]),
      ]);
      return { data, total };
    },
  });

  app.get('/api/mailbox/:id', {
    config: { access: 'agency' },
    schema: {
      tags: ['notifications'],
      summary: 'One received e-mail, with its text and HTML',
      params: MailParams,
      response: { 200: Mail },
    },
    handler: async (req) => {
      requireAgencyAdmin(req);
      const [data] = await app.db.query<MailAnswer['data']>(
        'select id, outbox_id, envelope_from, envelope_to, subject, text, html, message_id, received_at from mailbox where merchant_id = $1 and id = $2',
        [req.auth!.merchant_id, req.params.id],
      );
      if (!data) throw notFound('E-mail');
      return { data };
    },
  });
}
