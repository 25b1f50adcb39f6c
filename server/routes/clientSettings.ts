// /appsetting/ClientSettings (issue 35): the agency's defaults for new clients (one row per agency, written by the
// engine: core/resources/clients/settings.ts), and which e-mails each client user gets. A client user's own choice is
// their notification preference (notification_preferences, the row they set themselves on "My account"); an agency
// admin sets it here for them, or removes it to give them the agency's default again. Admins change; consultants read.
import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../http.js';
import { route } from './route.js';
import type { Queryable } from '../db/index.js';
import { agencyRowId, saveAgencyRow } from '../engine/agencyRows.js';
import { AnyBody } from '../../core/contracts/notifications.js';
import { IdParams } from '../../core/contracts/common.js';
import {
  ClientSettingsAnswer,
  ClientUserEmailsList,
  ClientUserEmailsSaved,
  type ClientSettings,
  type ClientUserEmails,
} from '../../core/contracts/clientSettings.js';
import { clientSettings } from '../../core/resources/clients/settings.js';
import { CLIENT_EMAIL_EVENTS, isClientEmailEvent } from '../../core/domain/clients/settings.js';

const EVENT_KEYS = CLIENT_EMAIL_EVENTS.map((e) => e.id);

/** The agency's client settings (the declared defaults where nothing is saved), with its default payment terms. */
export async function clientSettingsOf(db: Queryable, merchantId: number): Promise<ClientSettings> {
  const [row] = await db.query<ClientSettings>(
    `select s.invoice_mode, s.split_by_po, s.split_by_site, s.po_required, s.timesheet_per, s.signing_methods,
            s.shift_request_approval, s.client_emails, s.version
       from client_settings s where s.merchant_id = $1`,
    [merchantId],
  );
  const [terms] = await db.query<{ days: number }>(
    'select default_payment_terms_days as days from invoice_settings where merchant_id = $1',
    [merchantId],
  );
  const declared = Object.fromEntries(
    clientSettings.fields.map((f) => [f.source, f.defaultValue ?? (f.type === 'boolean' ? false : null)]),
  );
  return {
    ...(declared as Omit<ClientSettings, 'version' | 'default_payment_terms_days'>),
    ...row,
    version: row?.version ?? 0,
    default_payment_terms_days: terms?.days ?? 30,
  };
}

/** The agency's client users (active ones), each with their own e-mail choices for the client events. */
async function clientUsersOf(db: Queryable, merchantId: number, userId?: number): Promise<ClientUserEmails[]> {
  const rows = await db.query<Omit<ClientUserEmails, 'emails'> & { own: Record<string, string> | null }>(
    `select u.id, u.name, u.email, u.role, u.client_id, c.name as client_name,
            (select json_object_agg(p.event, p.email) from notification_preferences p
              where p.merchant_id = u.merchant_id and p.user_id = u.id and p.event = any($3::text[])) as own
       from users u join clients c on c.merchant_id = u.merchant_id and c.id = u.client_id
      where u.merchant_id = $1 and u.kind = 'client' and u.active and c.deleted_at is null
        and ($2::int is null or u.id = $2)
      order by c.name, u.name, u.id`,
    [merchantId, userId ?? null, EVENT_KEYS],
  );
  return rows.map(({ own, ...u }) => ({
    ...u,
    emails: Object.fromEntries(EVENT_KEYS.map((k) => [k, own?.[k] ?? null])),
  }));
}

export async function clientSettingsRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/client_settings',
    may: { client_settings: 'show' },
    schema: {
      tags: ['clients'],
      summary: "The agency's defaults for new clients and the e-mails its client users get by default",
      response: { 200: ClientSettingsAnswer },
    },
    handler: async ({ ctx }) => ({ data: await clientSettingsOf(ctx.db, ctx.principal.merchantId) }),
  });

  route(app, {
    method: 'PUT',
    url: '/api/client_settings',
    may: { client_settings: ['create', 'edit'] },
    schema: {
      tags: ['clients'],
      summary: "Save the agency's client settings (admins); existing clients keep their own",
      body: AnyBody,
      response: { 200: ClientSettingsAnswer },
    },
    handler: async ({ req, transaction }) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const c = app.engine.get('client_settings')!;
      const data = await transaction(async (ctx) => {
        await saveAgencyRow(ctx, c, body);
        return clientSettingsOf(ctx.db, ctx.principal.merchantId);
      });
      return { data, message: 'Client settings saved' };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/client_settings/users',
    may: { client_settings: 'show' },
    schema: {
      tags: ['clients'],
      summary: "The agency's client users, each with the e-mails they chose (null: the agency's default)",
      response: { 200: ClientUserEmailsList },
    },
    handler: async ({ ctx }) => ({ data: await clientUsersOf(ctx.db, ctx.principal.merchantId) }),
  });

  route(app, {
    method: 'PUT',
    url: '/api/client_settings/users/:id',
    may: { client_settings: 'edit', notification_preferences: ['create', 'edit'] },
    // One of the agency's client users; anyone else (an agency user, another agency's) is not found.
    record: async (req, ctx) => {
      const id = Number((req.params as { id?: unknown }).id);
      if (!Number.isInteger(id) || id < 1 || id > 2147483647) return undefined;
      const [u] = await clientUsersOf(ctx.db, ctx.principal.merchantId, id);
      if (!u) throw notFound('Client user');
      return u;
    },
    schema: {
      tags: ['clients'],
      summary:
        "Set which e-mails a client user gets: { emails: { 'invoice.issued': 'now' | 'digest' | 'off' | null } } (null: the agency's default)",
      params: IdParams,
      body: AnyBody,
      response: { 200: ClientUserEmailsSaved },
    },
    handler: async ({ req, ctx: caller, record: user, transaction }) => {
      const emails = (req.body as { emails?: unknown } | undefined)?.emails;
      if (!emails || typeof emails !== 'object' || Array.isArray(emails))
        throw new HttpError(422, 'Some fields need your attention.', {
          emails: 'Send the e-mails as { event: now, digest, off or null }.',
        });
      const problems: Record<string, string> = {};
      for (const event of Object.keys(emails))
        if (!isClientEmailEvent(event))
          problems[`emails.${event}`] =
            `Not a client e-mail: choose among ${CLIENT_EMAIL_EVENTS.map((e) => e.name).join(', ')}.`;
      if (Object.keys(problems).length) throw new HttpError(422, 'Some fields need your attention.', problems);
      const c = app.engine.get('notification_preferences')!;
      await transaction(async (ctx) => {
        for (const [event, email] of Object.entries(emails as Record<string, unknown>)) {
          const key = { user_id: user.id, event };
          if (email === null) {
            // Back to the agency's default: their own choice removed (kept in the audit trail).
            const id = await agencyRowId(ctx, c, key);
            if (id !== undefined) await ctx.engine.remove('notification_preferences', id, { reason: 'Agency default' });
            continue;
          }
          try {
            await saveAgencyRow(ctx, c, { email }, key);
          } catch (e) {
            if (!(e instanceof HttpError) || e.status !== 422 || !e.errors) throw e;
            for (const [k, v] of Object.entries(e.errors)) problems[k === 'email' ? `emails.${event}` : k] = v;
          }
        }
        if (Object.keys(problems).length) throw new HttpError(422, 'Some fields need your attention.', problems);
      });
      const [saved] = await clientUsersOf(app.db, caller.principal.merchantId, user.id);
      return { data: saved, message: `E-mails of ${user.name} saved` };
    },
  });
}
