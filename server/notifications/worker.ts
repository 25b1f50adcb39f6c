import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Db } from '../db/index.js';
import { createMailer, DEFAULT_FROM, isPermanent } from './mailer.js';
import {
  claimDue,
  markFailed,
  markRetry,
  markSent,
  SECRET_PLACEHOLDER,
  secretLinkOf,
  setPublicUrl,
  type ClaimedEmail,
} from './outbox.js';
import { startEmbeddedSmtp, type EmbeddedSmtp } from './smtp.js';

export interface WorkerOptions {
  /** What sends: a nodemailer transport (createMailer), or one made with the first mail (startNotifications). */
  mailer: { sendMail(message: SendMailOptions): Promise<{ messageId?: string }> };
  /** The sender's address; the agency's name is shown beside it. */
  from?: string;
  /** How often to look for due mail. */
  pollMs?: number;
  /** Messages claimed at a time. */
  batch?: number;
}

export interface SendResult {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * The background sender: claims due e-mails from the outbox (FOR UPDATE SKIP LOCKED, so several processes
 * share the work), sends them over SMTP, and records the outcome. A temporary failure (the server down, a 4xx)
 * is retried with a growing pause and never given up; only a permanent refusal (5xx) marks a message failed.
 * Periodic jobs are server/jobs/periodic.ts's, run by the job worker.
 */
export class NotificationWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;

  constructor(
    private db: Db,
    private options: WorkerOptions,
  ) {}

  /** Sends every due message (in batches) and answers what happened. */
  async sendDue(): Promise<SendResult> {
    const total: SendResult = { sent: 0, retried: 0, failed: 0 };
    const batch = this.options.batch ?? 100;
    for (;;) {
      const claimed = await claimDue(this.db, batch);
      if (claimed.length === 0) break;
      const r = await this.sendBatch(claimed);
      total.sent += r.sent;
      total.retried += r.retried;
      total.failed += r.failed;
      // A batch that could not go out will not go out now either: wait for the backoff.
      if (claimed.length < batch || r.sent === 0) break;
    }
    return total;
  }

  private async sendBatch(claimed: ClaimedEmail[]): Promise<SendResult> {
    const agencies = new Map(
      (
        await this.db.query<{ id: number; company_name: string }>(
          'select id, company_name from merchants where id = any($1::int[])',
          [[...new Set(claimed.map((c) => c.merchant_id))]],
        )
      ).map((m) => [m.id, m.company_name]),
    );
    const from = this.options.from ?? DEFAULT_FROM;
    const outcomes = await Promise.all(
      claimed.map(async (m) => {
        try {
          let { text, html } = m;
          if (m.secret_kind) {
            // The single-use link is made now and lives only in what is sent; the outbox keeps the placeholder.
            const link = secretLinkOf(m.secret_kind);
            const token = link && m.secret_ref !== null ? await link.mint(this.db, m.secret_ref) : null;
            if (!token)
              return {
                m,
                ok: false as const,
                permanent: true,
                error: new Error(
                  'Not sent: its link is no longer valid (replaced or withdrawn before it could be sent, used, or expired).',
                ),
              };
            text = text.split(SECRET_PLACEHOLDER).join(token);
            html = html.split(SECRET_PLACEHOLDER).join(token);
          }
          const info = await this.options.mailer.sendMail({
            from: { name: agencies.get(m.merchant_id) ?? '', address: from },
            to: m.recipient_name ? { name: m.recipient_name, address: m.recipient } : m.recipient,
            subject: m.subject,
            text,
            html,
            headers: { 'X-Agency-Id': String(m.merchant_id), 'X-Outbox-Id': String(m.id) },
          });
          return { m, ok: true as const, messageId: (info.messageId as string | undefined) ?? null };
        } catch (error) {
          return { m, ok: false as const, permanent: isPermanent(error), error };
        }
      }),
    );
    const sent = outcomes.filter((o) => o.ok).map((o) => ({ id: o.m.id, messageId: o.ok ? o.messageId : null }));
    await markSent(this.db, sent);
    let retried = 0;
    let failed = 0;
    for (const o of outcomes) {
      if (o.ok) continue;
      const message = (o.error as Error)?.message ?? String(o.error);
      if (o.permanent) {
        failed += 1;
        await markFailed(this.db, o.m.id, message);
      } else {
        retried += 1;
        await markRetry(this.db, o.m.id, o.m.attempts, message);
      }
    }
    return { sent: sent.length, retried, failed };
  }

  /** One round: the due mail. */
  async tick() {
    try {
      await this.sendDue();
    } catch (e) {
      console.error('Sending e-mail failed:', e);
    }
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.timer = setTimeout(loop, this.options.pollMs ?? 1000);
      });
    };
    loop();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

export interface NotificationsOptions {
  /** A real SMTP server; without it the embedded one is started. */
  smtpUrl?: string;
  /** The embedded server's port (0: any free one). */
  smtpPort?: number;
  /** The product's public address, for links in e-mails. */
  publicUrl?: string;
  from?: string;
  pollMs?: number;
}

export interface RunningNotifications {
  worker: NotificationWorker;
  /** The embedded SMTP server once it has started (with the first mail), when SMTP_URL is not set. */
  readonly smtp?: EmbeddedSmtp;
  close(): Promise<void>;
}

/**
 * Starts the notification side of the product: the worker, and with the first mail to send the SMTP transport and,
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
  const worker = new NotificationWorker(db, {
    mailer: { sendMail: async (message) => (await connect()).sendMail(message) },
    from: options.from,
    pollMs: options.pollMs,
  });
  worker.start();
  return {
    worker,
    get smtp() {
      return smtp;
    },
    async close() {
      await worker.stop();
      // A connection being made as the worker stopped is closed with the rest.
      await connecting?.catch(() => undefined);
      mailer?.close();
      await smtp?.close();
    },
  };
}
