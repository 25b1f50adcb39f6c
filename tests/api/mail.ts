import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db';
import { runNextJob, workerName } from '../../server/jobs/queue';
import { useMailer, type MailSender } from '../../server/notifications/outbox';

export interface Delivered {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * What the product's job worker does with due mail: runs every due job of the queue (the outbox's deliveries among
 * them) with `mailer` as the way out, and answers what became of the outbox's messages: sent, failed for good, or
 * tried and still waiting.
 */
export async function deliverMail(t: { app: FastifyInstance; db: Db }, mailer: MailSender): Promise<Delivered> {
  const before = await t.db.query<{ id: number; attempts: number }>(
    `select id, attempts from email_outbox where status = 'queued'`,
  );
  useMailer(mailer);
  const worker = workerName();
  while ((await runNextJob(t.app.jobs, t.db, worker)) !== null);
  const after = new Map(
    (
      await t.db.query<{ id: number; attempts: number; status: string }>(
        'select id, attempts, status from email_outbox where id = any($1::int[])',
        [before.map((b) => b.id)],
      )
    ).map((r) => [r.id, r]),
  );
  const outcome: Delivered = { sent: 0, retried: 0, failed: 0 };
  for (const b of before) {
    const a = after.get(b.id)!;
    if (a.status === 'sent') outcome.sent += 1;
    else if (a.status === 'failed') outcome.failed += 1;
    else if (a.attempts > b.attempts) outcome.retried += 1;
  }
  return outcome;
}
