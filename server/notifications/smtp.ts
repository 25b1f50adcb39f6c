import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/index.js';
import { hideSecretLinks } from './outbox.js';

// mailparser is a tenth of the server's start-up to load and is needed only once a mail arrives.
const parseMail = async (stream: Parameters<typeof import('mailparser').simpleParser>[0]) =>
  (await import('mailparser')).simpleParser(stream);

/**
 * The embedded server takes mail only from the product's own sender: a user name and password made when the
 * process starts, known only to it (in the URL it answers), and kept across restarts of the server within the
 * process so a sender that outlives one keeps working.
 */
const SENDER = { user: 'product-sender', pass: randomBytes(24).toString('base64url') };
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface EmbeddedSmtp {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The product's own mail server, used when SMTP_URL is not set (the demo and the tests): a real SMTP
 * conversation on a local port, whose received mail is stored in the mailbox table for agency admins to read
 * (/report/EmailReport/mailbox). A message is accepted only once it is stored, so "sent" means "in the mailbox".
 */
export async function startEmbeddedSmtp(
  db: Queryable,
  options: { port?: number; host?: string } = {},
): Promise<EmbeddedSmtp> {
  const host = options.host ?? '127.0.0.1';
  // Loaded when the server starts (with the first mail to send), not with the product.
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    // Plain AUTH without TLS: the server listens on this machine only.
    authOptional: false,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (auth.username && auth.password && same(auth.username, SENDER.user) && same(auth.password, SENDER.pass))
        return callback(null, { user: SENDER.user });
      callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    banner: 'Staffing back office embedded mail server',
    size: 5 * 1024 * 1024,
    logger: false,
    // Pooled senders keep connections open: closing does not wait for them long.
    closeTimeout: 500,
    onData(stream, session, callback) {
      parseMail(stream)
        .then(async (mail) => {
          const header = (name: string) => {
            const v = mail.headers.get(name);
            return typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : null;
          };
          // Filed under an agency only as the outbox row it names: a header alone cannot put mail in an agency's box.
          // The mailbox is read by the agency's users: single-use links addressed to someone else are hidden.
          await db.query(
            `insert into mailbox (merchant_id, outbox_id, envelope_from, envelope_to, subject, text, html, message_id, size, attachments)
             values ((select merchant_id from email_outbox where id = $2 and merchant_id = $1), $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)`,
            [
              header('x-agency-id'),
              header('x-outbox-id'),
              session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              session.envelope.rcptTo.map((r) => r.address),
              mail.subject ?? null,
              mail.text === undefined ? null : hideSecretLinks(mail.text),
              typeof mail.html === 'string' ? hideSecretLinks(mail.html) : null,
              mail.messageId ?? null,
              (stream as unknown as { sizeExceeded?: boolean }).sizeExceeded
                ? -1
                : Buffer.byteLength(mail.text ?? '') +
                  Buffer.byteLength(typeof mail.html === 'string' ? mail.html : ''),
              // What each attachment was, as it arrived (not its bytes: the mailbox is for reading what was sent).
              JSON.stringify(
                mail.attachments.map((a) => ({
                  filename: a.filename ?? null,
                  content_type: a.contentType,
                  size: a.content.length,
                  sha256: createHash('sha256').update(a.content).digest('hex'),
                })),
              ),
            ],
          );
          callback();
        })
        .catch((e: Error) =>
          callback(Object.assign(new Error(`451 Could not store the message: ${e.message}`), { responseCode: 451 })),
        );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A dropped client connection is the client's problem, never the product's.
  server.on('error', () => undefined);
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://${SENDER.user}:${encodeURIComponent(SENDER.pass)}@${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
