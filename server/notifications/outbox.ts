import type { Queryable } from '../db/index.js';
import type { Letterhead } from '../documents/letterhead.js';
import type { SendMailOptions } from 'nodemailer';
import { retryDelayMs } from '../jobs/backoff.js';
import { enqueueJob, type JobKind } from '../jobs/queue.js';
import { DEFAULT_FROM, isPermanent } from './mailer.js';

/** Where links in e-mails point: the product's public address (PUBLIC_URL), set when the product starts. */
let publicUrl: string | null = null;
export function setPublicUrl(url: string | null) {
  publicUrl = url ? url.replace(/\/$/, '') : null;
}
/** A product path as a link a mail reader can follow (as it is, when the public address is unknown). */
export const absoluteLink = (path: string) => (publicUrl && path.startsWith('/') ? publicUrl + path : path);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * An e-mail in the agency's layout: its logo and name above the text, and a button to the screen the
 * notification is about. Every value is escaped: templates are the agency's plain text, never markup.
 */
export function renderEmail(
  letterhead: Pick<Letterhead, 'name' | 'logoUrl'>,
  subject: string,
  body: string,
  link?: string | null,
): { subject: string; text: string; html: string } {
  const href = link ? absoluteLink(link) : null;
  const text = href ? `${body}\n\nOpen: ${href}` : body;
  const paragraphs = body
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const logo =
    letterhead.logoUrl && /^(https?:|data:image\/)/.test(letterhead.logoUrl)
      ? `<img src="${escapeHtml(letterhead.logoUrl)}" alt="" height="40" style="vertical-align:middle;margin-right:12px">`
      : '';
  const button =
    href && /^https?:/.test(href)
      ? `<p><a href="${escapeHtml(href)}" style="display:inline-block;padding:8px 16px;background:#1565c0;color:#fff;text-decoration:none;border-radius:4px">Open in the back office</a></p>`
      : '';
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1a1a1a;margin:0;padding:24px;background:#f5f5f5">
<div style="max-width:600px;margin:0 auto;background:#fff;padding:24px;border-radius:6px">
<div style="border-bottom:1px solid #ddd;padding-bottom:12px;margin-bottom:16px;font-size:18px;font-weight:bold">${logo}${escapeHtml(letterhead.name)}</div>
${paragraphs}${button}
</div></body></html>`;
  return {
    subject: subject
      .replace(/[\r\n]+/g, ' ')
      .trim()
      .slice(0, 250),
    text,
    html,
  };
}

/**
 * Single-use links (an invitation to set a password) are secrets of their recipient: never stored in the outbox,
 * whose copies agency users read. The stored text and HTML carry SECRET_PLACEHOLDER where the link's token goes,
 * and the row names a kind and a reference; when the worker sends the message it asks that kind's minter for a
 * fresh token (the minter keeps only its hash) and puts it in place of the placeholder in what it sends.
 */
export const SECRET_PLACEHOLDER = '(single-use-link-added-when-sent)';
export interface SecretLink {
  /** The product path that carries the token (the embedded mail server hides tokens on these paths). */
  path(token: string): string;
  /** A fresh token for the reference, or null when the link must not be sent any more (used, replaced, expired). */
  mint(db: Queryable, ref: number): Promise<string | null>;
}
let secretLinks: ReadonlyMap<string, SecretLink> = new Map();
/**
 * The process's secret links: the areas' (server/areas, `links`), given by the app as it starts (buildApp), so that
 * its sender mints them and its mail server hides them. Never filled by an import.
 */
export function useSecretLinks(links: ReadonlyMap<string, SecretLink>) {
  secretLinks = links;
}
export const secretLinkOf = (kind: string) => secretLinks.get(kind);

/** Every registered secret link's token hidden (the placeholder in its place): for copies other people read. */
export function hideSecretLinks(text: string): string {
  let out = text;
  for (const link of secretLinks.values()) {
    const prefix = link.path('');
    out = out
      .split(prefix)
      .map((part, i) => (i === 0 ? part : part.replace(/^[A-Za-z0-9_-]{16,}/, SECRET_PLACEHOLDER)))
      .join(prefix);
  }
  return out;
}

export interface QueuedEmail {
  merchantId: number;
  recipient: string;
  recipientName?: string | null;
  subject: string;
  text: string;
  html: string;
  /** The event key, or 'other'. */
  event: string;
  /** A single-use link the sender adds (see SECRET_PLACEHOLDER). */
  secret?: { kind: string; ref: number };
  /**
   * Kept documents to attach, by their issued_documents ids: read from the file store when the message is sent, so
   * neither the outbox nor the job's payload holds a copy of the bytes, and what goes is the document as issued.
   */
  attachments?: number[];
}

/**
 * Queues e-mails in the caller's transaction, with the job that sends them (one per agency): both commit with the
 * write that caused them, and neither exists if it rolls back.
 */
export async function queueEmails(db: Queryable, mails: QueuedEmail[]): Promise<number[]> {
  if (mails.length === 0) return [];
  const rows = await db.query<{ id: number; merchant_id: number }>(
    `insert into email_outbox (merchant_id, recipient, recipient_name, subject, text, html, event, secret_kind, secret_ref, attachments)
     select m, r, rn, s, t, h, e, sk, sr, coalesce((select array_agg(x::int) from jsonb_array_elements_text(a) x), '{}')
       from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::jsonb[])
            as u(m, r, rn, s, t, h, e, sk, sr, a)
     returning id, merchant_id`,
    [
      mails.map((m) => m.merchantId),
      mails.map((m) => m.recipient),
      mails.map((m) => m.recipientName ?? null),
      mails.map((m) => m.subject),
      mails.map((m) => m.text),
      mails.map((m) => m.html),
      mails.map((m) => m.event),
      mails.map((m) => m.secret?.kind ?? null),
      mails.map((m) => m.secret?.ref ?? null),
      // A list per message: unnest cannot take an array of arrays of different lengths, so each goes as JSON.
      mails.map((m) => JSON.stringify(m.attachments ?? [])),
    ],
  );
  const byAgency = new Map<number, number[]>();
  for (const r of rows) byAgency.set(r.merchant_id, [...(byAgency.get(r.merchant_id) ?? []), r.id]);
  for (const [merchantId, ids] of byAgency)
    await enqueueJob(db, { merchantId, kind: emailDelivery, payload: { ids }, total: ids.length });
  return rows.map((r) => r.id);
}

/** What sends a message: a nodemailer transport, or one made with the first mail (startNotifications). */
export interface MailSender {
  sendMail(message: SendMailOptions): Promise<{ messageId?: string }>;
}
let sender: { mailer: MailSender; from: string } | null = null;
/**
 * The process's way out for mail: given by startNotifications (or a test) as the product starts, never by an import.
 * Until it is given, e-mail jobs wait (retried with the backoff) rather than lose their mail.
 */
export function useMailer(mailer: MailSender | null, from: string = DEFAULT_FROM) {
  sender = mailer ? { mailer, from } : null;
}

/** Messages sent by one step of a delivery job (concurrently, over the transport's pooled connections). */
export const DELIVERY_BATCH = 100;

interface DueEmail {
  id: number;
  merchant_id: number;
  recipient: string;
  recipient_name: string | null;
  subject: string;
  text: string;
  html: string;
  secret_kind: string | null;
  secret_ref: number | null;
  attachments: number[];
  company_name: string;
}
type Outcome = { id: number } & (
  { ok: true; messageId: string | null } | { ok: false; permanent: boolean; error: string }
);

/**
 * The delivery of the e-mails one transaction queued, a job kind on the one queue (listed by the communication
 * area). Each step sends the next DELIVERY_BATCH of its messages still queued (outside the transaction: `effect`),
 * then records each one's attempt: sent with its Message-ID, failed for good on a permanent refusal (5xx), or
 * waiting with its error. A message is tried once per attempt of the job; when the last step finds some could not
 * be sent, the attempt is a failed one whose record is kept (`retry`): the job waits for the shared backoff and
 * the next attempt sends only those still queued. An outage is never given up on (maxAttempts).
 *
 * Each message is sent with a Message-ID made from its outbox id, the same at every attempt: if the process dies
 * after the SMTP server accepted a message and before its row was marked, the message is sent again when the job's
 * lease runs out (at least once), and the copy carries the same Message-ID, which mail systems take for the same
 * message.
 */
/** Where a delivery's attempt is: the last message tried, how many of those tried are still waiting, and why. */
type DeliveryState = { after?: number; unsent?: number; error?: string };
export const emailDelivery: JobKind<{ ids: number[] }, DeliveryState, Outcome[]> = {
  kind: 'email.deliver',
  maxAttempts: 2 ** 31 - 1,
  async effect(db, job) {
    const due = await db.query<DueEmail>(
      `select o.id, o.merchant_id, o.recipient, o.recipient_name, o.subject, o.text, o.html, o.secret_kind, o.secret_ref, o.attachments, m.company_name
         from email_outbox o join merchants m on m.id = o.merchant_id
        where o.id = any($1::int[]) and o.id > $2 and o.status = 'queued' order by o.id limit ${DELIVERY_BATCH}`,
      [job.payload.ids, job.state.after ?? 0],
    );
    return Promise.all(due.map((m) => send(db, m)));
  },
  async step(tx, job, _engine, outcomes) {
    const sent = outcomes.flatMap((o) => (o.ok ? [{ id: o.id, messageId: o.messageId }] : []));
    await markSent(tx, sent);
    // The job's last attempt (never, for this kind's maxAttempts) gives its messages up with it.
    const last = job.attempts >= job.max_attempts;
    const unsent = outcomes.flatMap((o) => (o.ok ? [] : [o]));
    await markFailed(
      tx,
      unsent.filter((o) => o.permanent || last),
    );
    const later = unsent.filter((o) => !o.permanent && !last);
    await markRetry(tx, later, job.attempts);
    const waiting = later.map((o) => o.error);
    const state = {
      after: Math.max(job.state.after ?? 0, ...outcomes.map((o) => o.id)),
      unsent: (job.state.unsent ?? 0) + waiting.length,
      error: waiting[0] ?? job.state.error,
    };
    const done = job.done + outcomes.length;
    if (outcomes.length === DELIVERY_BATCH) return { state, done };
    // Every message was tried in this attempt: the next attempt starts from the first still queued.
    if (state.unsent === 0) return { state, done, finished: true };
    return { state: {}, done: 0, retry: `${state.unsent} not sent yet: ${state.error}` };
  },
};

/** Sends one message; a failure is an outcome, never thrown, so that the others of its batch are recorded. */
async function send(db: Queryable, m: DueEmail): Promise<Outcome> {
  try {
    if (!sender) throw new Error('No mail server is configured yet.');
    let { text, html } = m;
    if (m.secret_kind) {
      // The single-use link is made now and lives only in what is sent; the outbox keeps the placeholder.
      const link = secretLinkOf(m.secret_kind);
      const token = link && m.secret_ref !== null ? await link.mint(db, m.secret_ref) : null;
      if (!token)
        return {
          id: m.id,
          ok: false,
          permanent: true,
          error:
            'Not sent: its link is no longer valid (replaced or withdrawn before it could be sent, used, or expired).',
        };
      text = text.split(SECRET_PLACEHOLDER).join(token);
      html = html.split(SECRET_PLACEHOLDER).join(token);
    }
    const attachments = await attachmentsOf(db, m);
    const info = await sender.mailer.sendMail({
      from: { name: m.company_name, address: sender.from },
      to: m.recipient_name ? { name: m.recipient_name, address: m.recipient } : m.recipient,
      subject: m.subject,
      text,
      html,
      messageId: `<outbox-${m.id}@${sender.from.split('@')[1] ?? 'staffing.local'}>`,
      headers: { 'X-Agency-Id': String(m.merchant_id), 'X-Outbox-Id': String(m.id) },
      attachments,
    });
    return { id: m.id, ok: true, messageId: info.messageId ?? null };
  } catch (error) {
    return { id: m.id, ok: false, permanent: isPermanent(error), error: (error as Error)?.message ?? String(error) };
  }
}

/**
 * A message's attachments, read from the file store as it is sent: its agency's kept documents only (an id of
 * another agency's finds nothing). One that is gone (its agency removed) fails the message for good rather than
 * send it without what it promises.
 */
async function attachmentsOf(db: Queryable, m: DueEmail): Promise<NonNullable<SendMailOptions['attachments']>> {
  const ids = m.attachments ?? [];
  if (ids.length === 0) return [];
  const rows = await db.query<{ id: number; name: string; mime: string; data: Uint8Array }>(
    `select d.id, f.name, f.mime, f.data from issued_documents d join files f on f.merchant_id = d.merchant_id and f.id = d.file_id
      where d.merchant_id = $1 and d.id = any($2::int[])`,
    [m.merchant_id, ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id);
    if (!r)
      throw Object.assign(new Error(`Not sent: its attachment (kept document ${id}) no longer exists.`), {
        responseCode: 550,
      });
    return {
      filename: r.name,
      contentType: r.mime,
      content: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
    };
  });
}

async function markSent(db: Queryable, sent: { id: number; messageId: string | null }[]) {
  if (sent.length === 0) return;
  await db.query(
    `update email_outbox o set status = 'sent', sent_at = now(), message_id = x.mid, last_error = null, attempts = o.attempts + 1,
            next_attempt_at = now(), updated_at = now(), version = o.version + 1
       from unnest($1::int[], $2::text[]) as x(id, mid) where o.id = x.id`,
    [sent.map((s) => s.id), sent.map((s) => s.messageId)],
  );
}

/**
 * Temporary failures (the server unreachable, a 4xx answer): tried again with the job's next attempt, which the
 * queue sets for the same moment (the shared backoff from the same now(), the step's transaction's).
 */
async function markRetry(db: Queryable, unsent: { id: number; error: string }[], attempts: number) {
  if (unsent.length === 0) return;
  await db.query(
    `update email_outbox o
        set attempts = o.attempts + 1, next_attempt_at = now() + make_interval(secs => $3::double precision / 1000),
            last_error = x.error, updated_at = now(), version = o.version + 1
       from unnest($1::int[], $2::text[]) as x(id, error) where o.id = x.id and o.status = 'queued'`,
    [unsent.map((u) => u.id), unsent.map((u) => u.error.slice(0, 500)), retryDelayMs(attempts)],
  );
}

/** Permanent refusals (a 5xx answer: no such mailbox, say): trying again cannot help. */
async function markFailed(db: Queryable, unsent: { id: number; error: string }[]) {
  if (unsent.length === 0) return;
  await db.query(
    `update email_outbox o set status = 'failed', attempts = o.attempts + 1, last_error = x.error, updated_at = now(), version = o.version + 1
       from unnest($1::int[], $2::text[]) as x(id, error) where o.id = x.id`,
    [unsent.map((u) => u.id), unsent.map((u) => u.error.slice(0, 500))],
  );
}
