import type { Queryable } from '../db/index.js';
import { driverFor, type OutgoingMessage } from './drivers.js';
import {
  eventDefinition,
  fillPlaceholders,
  type Channel,
  type Recipient,
} from '../../core/domain/notifications/events.js';
import { queueEmails, renderEmail } from './outbox.js';
import { letterheadFrom, letterheadOf, LETTERHEAD_SQL } from '../documents/letterhead.js';
import type { EmailDelivery } from '../../core/resources/communication/settingsResource.js';
import { CLIENT_EMAIL_EVENTS, clientEmailChoice } from '../../core/domain/clients/settings.js';

/**
 * Something happened that people should hear about (a shift filled, a message received). Written in the
 * caller's transaction: the notification rows, and the e-mails (and SMS or push) the agency's notification
 * settings ask for, queued in the outbox.
 */
export interface NotificationEvent {
  merchantId: number;
  /** The event's key, e.g. 'shift.filled' (core/domain/notifications/events.ts lists them). */
  event: string;
  title: string;
  body: string;
  /** The screen it leads to, e.g. '/shift-list/assigned'. */
  link?: string | null;
  /** Who hears it: the agency's users, a client's users, particular users, a staff member. */
  audience: {
    agency?: boolean;
    clientId?: number | null;
    userIds?: number[];
    candidateId?: number | null;
    /** The person of a job application (recruitment's stage e-mails): its e-mail and phone. */
    applicationId?: number | null;
  };
  /** Values for the e-mail template (%{shift_date}, %{staff_name}…). */
  data?: Record<string, unknown>;
  /** Notified once: a second event with the same key is ignored (a document's 30-day reminder). */
  dedupeKey?: string;
  /** The link the client's users follow, when it differs from the agency's (their panel has its own screens). */
  clientLink?: string | null;
  /** Addresses that were already sent this news another way (the client's billing address): not e-mailed twice. */
  alreadySent?: string[];
  /** The staff member's own wording ("You are booked at …"): their notification, e-mail and messages say this. */
  staffWords?: { title: string; body: string };
}

/** The channels and recipients an agency chose for an event, or the catalogue's defaults. */
export async function settingsOf(
  db: Queryable,
  merchantId: number,
  event: string,
): Promise<{ channels: Channel[]; recipients: Recipient[] }> {
  return (await eventContextOf(db, merchantId, event)).settings;
}

/** The agency's wording of an event's e-mail, or the catalogue's. */
export async function templateOf(
  db: Queryable,
  merchantId: number,
  event: string,
): Promise<{ subject: string; body: string; custom: boolean }> {
  return (await eventContextOf(db, merchantId, event)).template;
}

// The one letterhead (documents/letterhead.ts), for the e-mails' callers.
export { letterheadOf };

/**
 * Everything an event needs from the agency's settings (channels and recipients, the e-mail's wording, the
 * letterhead) in one round trip: notify runs inside bookings, whose latency budget is a few milliseconds.
 */
async function eventContextOf(db: Queryable, merchantId: number, event: string) {
  const [row] = await db.query<{
    settings: { channels: Channel[]; recipients: Recipient[] } | null;
    template: { subject: string; body: string } | null;
    preferences: Preference[] | null;
    client_emails: string[] | null;
    name: string;
    logo: string | null;
    email: string | null;
    phone: string | null;
  }>(
    `select (select json_build_object('channels', channels, 'recipients', recipients) from notification_settings where merchant_id = m.id and event = $2) as settings,
            (select json_build_object('subject', subject, 'body', body) from notification_templates where merchant_id = m.id and event = $2) as template,
            (select json_agg(json_build_object('user_id', user_id, 'in_app', in_app, 'email', email)) from notification_preferences where merchant_id = m.id and event = $2) as preferences,
            (select client_emails from client_settings where merchant_id = m.id) as client_emails,
            ${LETTERHEAD_SQL}
       from merchants m where m.id = $1`,
    [merchantId, event],
  );
  const def = event ? eventDefinition(event) : null;
  return {
    settings: row?.settings ?? { channels: def?.channels ?? [], recipients: def?.recipients ?? [] },
    template: row?.template
      ? { ...row.template, custom: true }
      : { subject: def?.subject ?? '', body: def?.body ?? '', custom: false },
    letterhead: letterheadFrom(row),
    preferences: row?.preferences ?? [],
    // The e-mails a client's users get unless they chose otherwise (issue 35); no settings kept: every one.
    clientEmails: row?.client_emails ?? CLIENT_EMAIL_EVENTS.map((e) => e.id),
  };
}

/** A user's own choice for the event (notification_preferences); no row: in the bell, e-mail at once. */
interface Preference {
  user_id: number;
  in_app: boolean;
  email: EmailDelivery;
}

interface Person {
  name: string;
  email: string | null;
  phone: string | null;
  key: string;
  /** A client's user: their e-mail leads to the client panel's screen (clientLink), never an agency one. */
  client: boolean;
}

/** The people among the event's audience whom the settings name, with their addresses. */
async function peopleOf(db: Queryable, e: NotificationEvent, recipients: Recipient[]): Promise<Person[]> {
  const has = (r: Recipient) => recipients.includes(r);
  return db.query<Person>(
    `select name, email, null as phone, 'user:' || id as key, kind = 'client' as client from users
      where merchant_id = $1 and active and (
        (kind = 'admin' and role = 'admin' and $2) or (kind = 'admin' and role = 'consultant' and $3)
        or (kind = 'client' and client_id = $4 and $5) or id = any($6::int[]))
     union all
     select first_name || ' ' || last_name, email, phone, 'candidate:' || id, false from candidates
      where merchant_id = $1 and id = $7 and $8 and deleted_at is null
     union all
     select first_name || ' ' || last_name, email, phone, 'applicant:' || id, false from job_applications
      where merchant_id = $1 and id = $9 and $10`,
    [
      e.merchantId,
      !!e.audience.agency && has('agency_admins'),
      !!e.audience.agency && has('consultants'),
      e.audience.clientId ?? null,
      !!e.audience.clientId && has('client_users'),
      e.audience.userIds ?? [],
      e.audience.candidateId ?? null,
      !!e.audience.candidateId && has('staff'),
      e.audience.applicationId ?? null,
      !!e.audience.applicationId && has('applicant'),
    ],
  );
}

/**
 * Tells the event's audience, in the caller's transaction: in-app notifications (the bell), and the e-mail,
 * SMS and push messages the agency's settings ask for. In-app, an audience shares one notification: the
 * agency's users one row, a client's users one row, the staff member one row; `userIds` get one each. The
 * recipients setting decides which audiences hear of it; `userIds` are named by the caller and always do.
 */
export async function notify(db: Queryable, e: NotificationEvent): Promise<void> {
  if (e.dedupeKey) {
    const fresh = await db.query(
      'insert into notification_dedupe (merchant_id, dedupe_key) values ($1, $2) on conflict do nothing returning 1',
      [e.merchantId, e.dedupeKey],
    );
    if (fresh.length === 0) return;
  }
  const context = await eventContextOf(db, e.merchantId, e.event);
  const { channels, recipients } = context.settings;
  const data = e.data ?? {};

  const wordsOf = (staff: boolean) => (staff && e.staffWords ? e.staffWords : { title: e.title, body: e.body });
  // Users who turned the event out of their bell, and how each wants its e-mail (issue 30.19).
  const muted = new Set(context.preferences.filter((p) => !p.in_app).map((p) => p.user_id));
  const delivery = new Map(context.preferences.map((p) => [p.user_id, p.email]));
  if (channels.includes('alert')) {
    const rows: { client: number | null; candidate: number | null; user: number | null; link: string | null }[] = [];
    const agency = !!e.audience.agency && (recipients.includes('agency_admins') || recipients.includes('consultants'));
    const client = !!e.audience.clientId && recipients.includes('client_users');
    if (muted.size === 0) {
      // An audience shares one row, which each of its users reads.
      if (agency) rows.push({ client: null, candidate: null, user: null, link: e.link ?? null });
      if (client) rows.push({ client: e.audience.clientId!, candidate: null, user: null, link: e.clientLink ?? null });
    } else if (agency || client) {
      // Someone turned it out of their bell: a row for each of the others instead of the shared one.
      const users = await db.query<{ id: number; client_id: number | null }>(
        `select id, client_id from users where merchant_id = $1 and active and not (id = any($2::int[]))
           and ((kind = 'admin' and $3) or (kind = 'client' and client_id = $4 and $5))`,
        [e.merchantId, [...muted], agency, e.audience.clientId ?? null, client],
      );
      for (const u of users)
        rows.push({
          client: u.client_id,
          candidate: null,
          user: u.id,
          link: u.client_id ? (e.clientLink ?? null) : (e.link ?? null),
        });
    }
    if (e.audience.candidateId && recipients.includes('staff'))
      rows.push({ client: null, candidate: e.audience.candidateId, user: null, link: null });
    if (e.audience.userIds?.length) {
      const users = await db.query<{ id: number; client_id: number | null }>(
        'select id, client_id from users where merchant_id = $1 and id = any($2::int[])',
        [e.merchantId, e.audience.userIds],
      );
      for (const u of users.filter((x) => !muted.has(x.id)))
        rows.push({
          client: u.client_id,
          candidate: null,
          user: u.id,
          link: u.client_id ? (e.clientLink ?? null) : (e.link ?? null),
        });
    }
    if (rows.length) {
      const words = rows.map((r) => wordsOf(r.candidate !== null));
      await db.query(
        `insert into notifications (merchant_id, client_id, candidate_id, user_id, event, title, body, link, data)
         select $1, c, s, u, $2, t, b, l, $3::jsonb from unnest($4::int[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[]) as x(c, s, u, l, t, b)`,
        [
          e.merchantId,
          e.event,
          JSON.stringify(data),
          rows.map((r) => r.client),
          rows.map((r) => r.candidate),
          rows.map((r) => r.user),
          rows.map((r) => r.link),
          words.map((w) => w.title),
          words.map((w) => w.body),
        ],
      );
    }
  }

  const outward = channels.filter((c): c is 'email' | 'sms' | 'push' => c !== 'alert');
  if (outward.length === 0) return;
  const people = await peopleOf(db, e, recipients);
  // A user's own choice: the e-mail at once (no choice made), in their daily digest, or none. A client's user who made
  // none gets what the agency's client settings say for the event (core/domain/clients/settings.ts).
  const chosen = (p: Person): EmailDelivery => {
    if (!p.key.startsWith('user:')) return 'now';
    const own = delivery.get(Number(p.key.slice(5)));
    return p.client ? clientEmailChoice(e.event, own, context.clientEmails) : (own ?? 'now');
  };
  const digest = people.filter((p) => chosen(p) === 'digest');
  if (digest.length && outward.includes('email'))
    await db.query(
      `insert into notification_digest_items (merchant_id, user_id, event, title, body, link)
       select $1, u, $2, $3, $4, $5 from unnest($6::int[]) as u`,
      [e.merchantId, e.event, e.title, e.body, e.link ?? null, digest.map((p) => Number(p.key.slice(5)))],
    );
  if (people.length === 0) return;

  if (outward.includes('email')) {
    const { template, letterhead } = context;
    const mailFor = (staff: boolean, link: string | null) => {
      const w = wordsOf(staff);
      const values = { ...data, agency_name: letterhead.name, title: w.title, body: w.body, link: link ?? '' };
      return renderEmail(
        letterhead,
        fillPlaceholders(template.subject, values),
        fillPlaceholders(template.body, values),
        link,
      );
    };
    const agencyMail = mailFor(false, e.link ?? null);
    const mails = {
      agency: agencyMail,
      // A client's users follow the link into their own panel, as their in-app notification does.
      client: e.clientLink && e.clientLink !== e.link ? mailFor(false, e.clientLink) : agencyMail,
      staff: e.staffWords ? mailFor(true, null) : null,
    };
    const seen = new Set<string>((e.alreadySent ?? []).map((a) => a.toLowerCase()));
    const to = people.filter(
      (p) => chosen(p) === 'now' && p.email && !seen.has(p.email.toLowerCase()) && seen.add(p.email.toLowerCase()),
    );
    await queueEmails(
      db,
      to.map((p) => ({
        merchantId: e.merchantId,
        recipient: p.email!,
        recipientName: p.name,
        event: e.event,
        ...((isStaff(p) && mails.staff) || (p.client ? mails.client : mails.agency)),
      })),
    );
  }
  for (const channel of ['sms', 'push'] as const) {
    if (!outward.includes(channel)) continue;
    const messages: OutgoingMessage[] = people
      // An applicant has no app to push to; SMS reaches anyone with a phone.
      .filter((p) => (channel === 'push' ? !p.key.startsWith('applicant:') : p.phone))
      .map((p) => {
        const w = wordsOf(isStaff(p));
        return {
          merchantId: e.merchantId,
          channel,
          recipient: channel === 'sms' ? p.phone! : p.key,
          recipientName: p.name,
          body: `${w.title}: ${w.body}`,
          event: e.event,
        };
      });
    await driverFor(channel).deliver(db, messages);
  }
}

const isStaff = (p: Person) => p.key.startsWith('candidate:');
