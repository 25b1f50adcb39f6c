import type { Queryable } from '../db/index.js';
import type { Letterhead } from '../documents/letterhead.js';
import { retryDelayMs } from '../jobs/backoff.js';

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
}

/** Queues e-mails in the caller's transaction: they are sent once it commits, never if it rolls back. */
export async function queueEmails(db: Queryable, mails: QueuedEmail[]): Promise<number[]> {
  if (mails.length === 0) return [];
  const rows = await db.query<{ id: number }>(
    `insert into email_outbox (merchant_id, recipient, recipient_name, subject, text, html, event, secret_kind, secret_ref)
     select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[]) returning id`,
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
    ],
  );
  return rows.map((r) => r.id);
}

/** The wait before the next attempt: the jobs' backoff (server/jobs/backoff.ts). Never giving up on an outage. */
export { retryDelayMs } from '../jobs/backoff.js';

/** A claimed message is someone's for this long; if its sender dies, it is taken again afterwards. */
export const LEASE_MS = 2 * 60_000;

export interface ClaimedEmail {
  id: number;
  merchant_id: number;
  recipient: string;
  recipient_name: string | null;
  subject: string;
  text: string;
  html: string;
  attempts: number;
  secret_kind: string | null;
  secret_ref: number | null;
  event: string;
}

/**
 * Takes up to `limit` due messages for this sender: locked rows (another sender's) are skipped, and the lease
 * (next_attempt_at pushed ahead) keeps them from being taken again while they are sent.
 */
export async function claimDue(db: Queryable, limit: number): Promise<ClaimedEmail[]> {
  return db.query<ClaimedEmail>(
    `update email_outbox o set attempts = o.attempts + 1, next_attempt_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
      where o.id in (select id from email_outbox where status = 'queued' and next_attempt_at <= now() order by next_attempt_at, id limit $1 for update skip locked)
      returning o.id, o.merchant_id, o.recipient, o.recipient_name, o.subject, o.text, o.html, o.attempts, o.event, o.secret_kind, o.secret_ref`,
    [limit, LEASE_MS],
  );
}

export async function markSent(db: Queryable, sent: { id: number; messageId: string | null }[]) {
  if (sent.length === 0) return;
  await db.query(
    `update email_outbox o set status = 'sent', sent_at = now(), message_id = x.mid, last_error = null, updated_at = now(), version = o.version + 1
       from unnest($1::int[], $2::text[]) as x(id, mid) where o.id = x.id`,
    [sent.map((s) => s.id), sent.map((s) => s.messageId)],
  );
}

/** A temporary failure (the server unreachable, a 4xx answer): tried again after the backoff. */
export async function markRetry(db: Queryable, id: number, attempts: number, error: string) {
  await db.query(
    `update email_outbox
        set next_attempt_at = now() + make_interval(secs => $2::double precision / 1000), last_error = $3,
            updated_at = now(), version = version + 1
      where id = $1 and status = 'queued'`,
    [id, retryDelayMs(attempts), error.slice(0, 500)],
  );
}

/** A permanent refusal (a 5xx answer: no such mailbox, say): trying again cannot help. */
export async function markFailed(db: Queryable, id: number, error: string) {
  await db.query(
    `update email_outbox set status = 'failed', last_error = $2, updated_at = now(), version = version + 1 where id = $1`,
    [id, error.slice(0, 500)],
  );
}
