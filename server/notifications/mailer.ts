import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';
import type nodemailerModule from 'nodemailer';

// nodemailer takes about 70 ms of CPU to load: loaded when the first transport is made (startNotifications makes it
// with the first mail to send), not with the product.
let nodemailer: typeof nodemailerModule | undefined;
const loadNodemailer = () => (nodemailer ??= createRequire(import.meta.url)('nodemailer') as typeof nodemailerModule);

/** The sender's address of every e-mail (MAIL_FROM), the agency's name shown beside it. */
export const DEFAULT_FROM = 'no-reply@staffing.local';

/**
 * The SMTP transport: SMTP_URL (smtp://user:pass@host:587, smtps://… for implicit TLS), or the embedded server
 * on a local port. Pooled, so a burst of mail reuses a few connections.
 */
export function createMailer(smtpUrl: string): Transporter {
  const url = new URL(smtpUrl);
  // The embedded server is on this machine: plain SMTP, no certificate to check.
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return loadNodemailer().createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    ignoreTLS: local,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    pool: true,
    maxConnections: 5,
    maxMessages: Infinity,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/** Whether an SMTP error is permanent (a 5xx answer): retrying the same message cannot succeed. */
export function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: number })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
