import type { Transporter } from 'nodemailer';
import type { Db } from '../db/index.js';
import { createMailer } from './mailer.js';
import { setPublicUrl, useMailer } from './outbox.js';
import { startEmbeddedSmtp, type EmbeddedSmtp } from './smtp.js';

export interface NotificationsOptions {
  /** A real SMTP server; without it the embedded one is started. */
  smtpUrl?: string;
  /** The embedded server's port (0: any free one). */
  smtpPort?: number;
  /** The product's public address, for links in e-mails. */
  publicUrl?: string;
  from?: string;
}

export interface RunningNotifications {
  /** The embedded SMTP server once it has started (with the first mail), when SMTP_URL is not set. */
  readonly smtp?: EmbeddedSmtp;
  close(): Promise<void>;
}

/**
 * Starts the notification side of the product: the way out for mail, which the job worker's e-mail jobs send
 * through (server/notifications/outbox.ts, `emailDelivery`), and with the first mail to send the SMTP transport and,
 * when SMTP_URL is not set, the embedded SMTP server. Neither is loaded before that (the mail packages are about
 * 120 ms of CPU to load), so a start that has no mail to send answers its first request sooner.
 */
export async function startNotifications(db: Db, options: NotificationsOptions = {}): Promise<RunningNotifications> {
  setPublicUrl(options.publicUrl ?? null);
  let smtp: EmbeddedSmtp | undefined;
  let mailer: Transporter | undefined;
  let connecting: Promise<Transporter> | undefined;
  const connect = () =>
    (connecting ??= (async () => {
      if (!options.smtpUrl) smtp = await startEmbeddedSmtp(db, { port: options.smtpPort ?? 0 });
      return (mailer = createMailer(options.smtpUrl ?? smtp!.url));
    })().catch((e: unknown) => {
      // Tried again with the next mail (the worker retries it): the port may be free by then.
      connecting = undefined;
      throw e;
    }));
  useMailer({ sendMail: async (message) => (await connect()).sendMail(message) }, options.from);
  return {
    get smtp() {
      return smtp;
    },
    // The job worker is stopped first (server/index.ts): no mail is being sent.
    async close() {
      useMailer(null);
      // A connection being made as the worker stopped is closed with the rest.
      await connecting?.catch(() => undefined);
      mailer?.close();
      await smtp?.close();
    },
  };
}
