import { SMTPServer } from 'smtp-server';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { notify } from '../../server/notifications/notify';
import { emailDelivery, queueEmails, SECRET_PLACEHOLDER, useMailer } from '../../server/notifications/outbox';
import { retryDelayMs } from '../../server/jobs/backoff';
import { runNextJob, workerName } from '../../server/jobs/queue';
import { startEmbeddedSmtp, type EmbeddedSmtp } from '../../server/notifications/smtp';
import { createMailer } from '../../server/notifications/mailer';
import { deliverMail } from './mail';
import type { Queryable } from '../../server/db';

let t: TestApp;
let admin: string;
let consultant: string;
let merchant: number;
let clientA: number;
let smtp: EmbeddedSmtp | undefined;
let port: number;
const mailers: ReturnType<typeof createMailer>[] = [];

const one = async <T = any>(sql: string, params: unknown[] = []) => (await t.db.query<any>(sql, params))[0] as T;
/** The embedded server's address with the product sender's credentials (the same across its restarts here). */
let url: string;
const transport = () => {
  const mailer = createMailer(url);
  mailers.push(mailer);
  return mailer;
};
/** The job worker's round with a transport to the embedded server: what became of the queued mail. */
const sendDue = () => deliverMail(t, transport());
/** Time passes: every queued message's backoff, and its delivery job's, is over. */
const backoffOver = () =>
  t.db.transaction(async (tx) => {
    await tx.query(`update email_outbox set next_attempt_at = now() - interval '1 second' where status = 'queued'`);
    await tx.query(`update jobs set run_after = now() - interval '1 second' where status = 'queued'`);
  });
/** A shift at `site` cancelled: the agency and the client's people are told, by e-mail among others. */
const cancelledAt = (tx: Queryable, site: string) =>
  notify(tx, {
    merchantId: merchant,
    event: 'shift.cancelled',
    title: `Shift cancelled at ${site}`,
    body: 'Probe.',
    link: '/shift-list',
    audience: { agency: true, clientId: clientA },
    data: { site_name: site, shift_date: '3 Mar 2030' },
  });
/** The delivery jobs that send these messages. */
const deliveriesOf = (ids: number[]) =>
  t.db.query<any>(
    `select id, status, attempts, error, payload from jobs
      where kind = $1 and exists (select 1 from jsonb_array_elements_text(payload->'ids') x where x::int = any($2::int[])) order by id`,
    [emailDelivery.kind, ids],
  );

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'consultant')]);
  merchant = (await one(`select id from merchants where company_name = 'Brightway Staffing'`)).id;
  clientA = (await one(`select id from clients where name = 'Meadowbank Care Home'`)).id;
  // The demo's queued mail (none, but a later seed might add some) is not this test's.
  await t.db.query(`update email_outbox set status = 'sent' where status = 'queued'`);
  smtp = await startEmbeddedSmtp(t.db);
  port = smtp.port;
  url = smtp.url;
});
afterAll(async () => {
  for (const m of mailers) m.close();
  await smtp?.close();
  await t?.close();
});

describe('the outbox and the embedded SMTP server', () => {
  it('sends queued mail over SMTP into the mailbox, with the agency and outbox ids', async () => {
    await t.db.transaction((tx) => cancelledAt(tx, 'First Probe House'));
    const queued = await t.db.query<{ id: number; recipient: string }>(
      `select id, recipient from email_outbox where status = 'queued' and subject like '%First Probe House%'`,
    );
    expect(queued.length).toBeGreaterThan(0);
    const result = await sendDue();
    expect(result).toMatchObject({ sent: queued.length, retried: 0, failed: 0 });
    const received = await t.db.query<any>(
      'select merchant_id, outbox_id, envelope_to, subject, html from mailbox where outbox_id = any($1::int[])',
      [queued.map((q) => q.id)],
    );
    expect(received).toHaveLength(queued.length);
    for (const r of received) {
      expect(r.merchant_id).toBe(merchant);
      expect(r.subject).toBe('Shift cancelled at First Probe House');
      expect(r.html).toContain('Brightway Staffing');
    }
    const rows = await t.db.query<any>(
      'select status, attempts, sent_at, message_id from email_outbox where id = any($1::int[])',
      [queued.map((q) => q.id)],
    );
    for (const r of rows)
      expect(r).toMatchObject({
        status: 'sent',
        attempts: 1,
        sent_at: expect.any(String),
        message_id: expect.any(String),
      });
  });

  it('keeps mail queued while the SMTP server is down, retrying with backoff, and delivers each message exactly once when it is back', async () => {
    const w = { sendDue };
    await smtp!.close();
    smtp = undefined;
    const ids = await t.db.transaction((tx) =>
      queueEmails(
        tx,
        [1, 2, 3].map((n) => ({
          merchantId: merchant,
          recipient: `outage-${n}@probe.test`,
          subject: `Outage probe ${n}`,
          text: 'Hello',
          html: '<p>Hello</p>',
          event: 'shift.cancelled',
        })),
      ),
    );
    const state = () =>
      t.db.query<any>(
        'select id, status, attempts, last_error, next_attempt_at > now() as waiting from email_outbox where id = any($1::int[]) order by id',
        [ids],
      );

    expect(await w.sendDue()).toMatchObject({ sent: 0, retried: 3 });
    for (const r of await state())
      expect(r).toMatchObject({
        status: 'queued',
        attempts: 1,
        waiting: true,
        last_error: expect.stringMatching(/ECONNREFUSED|connect/i),
      });
    // One job sends them, on the one queue: it waits the shared backoff, the moment each message shows as its next try.
    const schedule = () =>
      t.db.query<any>(
        `select (extract(epoch from j.run_after - j.updated_at) * 1000)::int as wait_ms, j.run_after = o.next_attempt_at as same
           from email_outbox o, jobs j where o.id = any($1::int[]) and j.id = $2`,
        [ids, deliveries[0].id],
      );
    const deliveries = await deliveriesOf(ids);
    expect(deliveries).toEqual([
      expect.objectContaining({
        status: 'queued',
        attempts: 1,
        error: expect.stringMatching(/^3 not sent yet: .*connect/i),
      }),
    ]);
    for (const r of await schedule()) expect(r).toEqual({ wait_ms: retryDelayMs(1), same: true });
    // Within the backoff nothing is tried.
    expect(await w.sendDue()).toMatchObject({ sent: 0, retried: 0 });
    await backoffOver();
    expect(await w.sendDue()).toMatchObject({ sent: 0, retried: 3 });
    for (const r of await state()) expect(r).toMatchObject({ status: 'queued', attempts: 2 });
    for (const r of await schedule()) expect(r).toEqual({ wait_ms: retryDelayMs(2), same: true });

    smtp = await startEmbeddedSmtp(t.db, { port });
    await backoffOver();
    expect(await w.sendDue()).toMatchObject({ sent: 3, retried: 0 });
    await backoffOver();
    expect(await w.sendDue()).toMatchObject({ sent: 0 });
    for (const r of await state()) expect(r).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(await deliveriesOf(ids)).toEqual([expect.objectContaining({ status: 'done', attempts: 3, error: null })]);
    const received = await t.db.query<{ outbox_id: number; n: number }>(
      'select outbox_id, count(*)::int as n from mailbox where outbox_id = any($1::int[]) group by outbox_id order by outbox_id',
      [ids],
    );
    expect(received).toEqual(ids.map((id) => ({ outbox_id: id, n: 1 })));
  });

  it('marks a message failed when the server refuses it for good (5xx), and sends the rest', async () => {
    const strict = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 500,
      onRcptTo(address, _session, cb) {
        if (address.address.startsWith('nobody'))
          return cb(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
        cb();
      },
      onData(stream, _s, cb) {
        stream.resume();
        stream.on('end', () => cb());
      },
    });
    await new Promise<void>((r) => strict.listen(0, '127.0.0.1', () => r()));
    const mailer = createMailer(`smtp://127.0.0.1:${(strict.server.address() as { port: number }).port}`);
    try {
      const [bad, good] = await t.db.transaction((tx) =>
        queueEmails(
          tx,
          ['nobody@probe.test', 'somebody@probe.test'].map((to) => ({
            merchantId: merchant,
            recipient: to,
            subject: 'Strict probe',
            text: 'x',
            html: '<p>x</p>',
            event: 'shift.filled',
          })),
        ),
      );
      await deliverMail(t, mailer);
      expect(await one('select status, attempts, last_error from email_outbox where id = $1', [bad])).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: expect.stringMatching(/550/),
      });
      expect(await one('select status from email_outbox where id = $1', [good])).toEqual({ status: 'sent' });
    } finally {
      mailer.close();
      await new Promise<void>((r) => strict.close(() => r()));
    }
  });

  it('two job workers share the deliveries without sending a message twice (SKIP LOCKED claims; on PostgreSQL, two connections)', async () => {
    // Eight transactions, eight delivery jobs: each worker takes the next job nobody holds.
    const ids = (
      await Promise.all(
        Array.from({ length: 8 }, (_, j) =>
          t.db.transaction((tx) =>
            queueEmails(
              tx,
              Array.from({ length: 5 }, (_, n) => ({
                merchantId: merchant,
                recipient: `pair-${j}-${n}@probe.test`,
                subject: `Pair probe ${j}.${n}`,
                text: 'x',
                html: '<p>x</p>',
                event: 'shift.filled',
              })),
            ),
          ),
        ),
      )
    ).flat();
    useMailer(transport());
    const work = async (name: string) => {
      const ran: number[] = [];
      for (let id; (id = await runNextJob(t.app.jobs, t.db, name)) !== null;) ran.push(id);
      return ran;
    };
    const [a, b] = await Promise.all([work(workerName()), work(workerName())]);
    const deliveries = await deliveriesOf(ids);
    expect(deliveries).toHaveLength(8);
    // Every job was run by one of them, once.
    expect([...a, ...b].sort()).toEqual(deliveries.map((d) => d.id).sort());
    for (const d of deliveries) expect(d).toMatchObject({ status: 'done', attempts: 1 });
    const received = await one<{ n: number; distinct: number }>(
      'select count(*)::int as n, count(distinct outbox_id)::int as distinct from mailbox where outbox_id = any($1::int[])',
      [ids],
    );
    expect(received).toEqual({ n: 40, distinct: 40 });
  });

  it('one queue: the outbox is sent by jobs of a kind the communication area lists, queued with the mail', async () => {
    expect(t.app.registry.areas.find((a) => a.name === 'communication')?.jobKinds).toContain(emailDelivery);
    expect(t.app.jobs.jobKinds.get(emailDelivery.kind)).toBe(emailDelivery);
    const ids = await t.db.transaction((tx) =>
      queueEmails(tx, [
        { merchantId: merchant, recipient: 'one-queue@probe.test', subject: 'q', text: 'x', html: 'x', event: 'other' },
      ]),
    );
    expect(await deliveriesOf(ids)).toEqual([
      expect.objectContaining({ status: 'queued', attempts: 0, payload: { ids } }),
    ]);
    expect(await sendDue()).toMatchObject({ sent: 1 });
    expect(await deliveriesOf(ids)).toEqual([expect.objectContaining({ status: 'done', attempts: 1 })]);
  });

  it('a write that rolls back queues no mail and no job', async () => {
    const count = () =>
      one<{ mails: number; jobs: number }>(
        `select (select count(*)::int from email_outbox) as mails, (select count(*)::int from jobs where kind = $1) as jobs`,
        [emailDelivery.kind],
      );
    const before = await count();
    await expect(
      t.db.transaction(async (tx) => {
        await cancelledAt(tx, 'Rolled Back House');
        // It did queue mail (and its job) inside the transaction...
        const inside = await tx.query<{ n: number }>(
          `select count(*)::int as n from jobs where kind = $1 and status = 'queued'
             and exists (select 1 from email_outbox o where o.subject like '%Rolled Back House%')`,
          [emailDelivery.kind],
        );
        expect(inside[0].n).toBeGreaterThan(0);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    // ...and nothing of it is left to send.
    expect(await count()).toEqual(before);
  });
});

describe('the mailbox API', () => {
  it('lists what the embedded server received for the agency, and shows one with its text and HTML; admins only', async () => {
    const list = await call(t.app, admin, 'GET', '/api/mailbox?per_page=5');
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBeGreaterThan(3);
    const first = list.json().data[0];
    expect(first).toMatchObject({
      id: expect.any(Number),
      subject: expect.any(String),
      envelope_to: expect.any(Array),
    });
    const shown = await call(t.app, admin, 'GET', `/api/mailbox/${first.id}`);
    expect(shown.json().data).toMatchObject({ text: expect.any(String), html: expect.any(String) });
    expect((await call(t.app, consultant, 'GET', '/api/mailbox')).statusCode).toBe(403);
    const other = await loginAs(t.app, 'otherAdmin');
    expect((await call(t.app, other, 'GET', `/api/mailbox/${first.id}`)).statusCode).toBe(404);
  });
});

describe('the embedded SMTP server takes mail only from the product (issue 13, item 15)', () => {
  const forged = (mailer: ReturnType<typeof createMailer>, headers: Record<string, string>) =>
    mailer.sendMail({
      from: 'someone@probe.test',
      to: 'admin@demo.test',
      subject: 'Forged probe',
      text: 'Reset your password at http://evil.example',
      headers,
    });

  it('refuses a sender without the credentials made at start, or with wrong ones: nothing reaches any mailbox', async () => {
    const [outbox] = await t.db.transaction((tx) =>
      queueEmails(tx, [
        {
          merchantId: merchant,
          recipient: 'x@probe.test',
          subject: 'Real',
          text: 'x',
          html: '<p>x</p>',
          event: 'shift.filled',
        },
      ]),
    );
    const headers = { 'X-Agency-Id': String(merchant), 'X-Outbox-Id': String(outbox) };
    const anonymous = createMailer(`smtp://127.0.0.1:${port}`);
    const wrong = createMailer(`smtp://product-sender:not-the-password@127.0.0.1:${port}`);
    mailers.push(anonymous, wrong);
    await expect(forged(anonymous, headers)).rejects.toMatchObject({ responseCode: 530 });
    await expect(forged(wrong, headers)).rejects.toMatchObject({ responseCode: 535 });
    expect(await one(`select count(*)::int as n from mailbox where subject = 'Forged probe'`)).toEqual({ n: 0 });
    // The product's own sender gets in.
    const own = createMailer(url);
    mailers.push(own);
    await own.sendMail({
      from: 'no-reply@staffing.local',
      to: 'x@probe.test',
      subject: 'Own probe',
      text: 'x',
      headers,
    });
    expect(await one(`select merchant_id from mailbox where subject = 'Own probe'`)).toEqual({ merchant_id: merchant });
  });

  it('files mail under an agency only as the outbox row it names says', async () => {
    const [otherAgency] = await t.db.query<{ id: number }>(
      `select id from merchants where id <> $1 order by id limit 1`,
      [merchant],
    );
    const [outbox] = await t.db.transaction((tx) =>
      queueEmails(tx, [
        {
          merchantId: merchant,
          recipient: 'y@probe.test',
          subject: 'Real',
          text: 'x',
          html: '<p>x</p>',
          event: 'shift.filled',
        },
      ]),
    );
    const own = createMailer(url);
    mailers.push(own);
    await own.sendMail({
      from: 'no-reply@staffing.local',
      to: 'y@probe.test',
      subject: 'Misfiled probe',
      text: 'x',
      headers: { 'X-Agency-Id': String(otherAgency.id), 'X-Outbox-Id': String(outbox) },
    });
    expect(await one(`select merchant_id from mailbox where subject = 'Misfiled probe'`)).toEqual({
      merchant_id: null,
    });
  });

  it('a staff invitation reaches the mailbox with its link hidden: the agency cannot read a working link (item 10)', async () => {
    const made = await call(t.app, admin, 'POST', '/api/candidates', {
      first_name: 'Mailbox',
      last_name: 'Probe',
      email: 'mailbox.probe@invite.example',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(
      (await call(t.app, admin, 'POST', `/api/candidates/${made.json().data.id}/staff_invite`, {})).statusCode,
    ).toBe(200);
    await sendDue();
    const [received] = await t.db.query<{ id: number; text: string }>(
      `select id, text from mailbox where 'mailbox.probe@invite.example' = any(envelope_to)`,
    );
    expect(received.text).toContain(`/staff-app/invite/${SECRET_PLACEHOLDER}`);
    // The link was made and sent (its hash is kept), but no working token is anywhere the agency reads.
    expect(
      await one(
        `select token_hash is not null as minted from capability_links where resource = 'staff_logins' and record_id in (select id from users where candidate_id = $1)`,
        [made.json().data.id],
      ),
    ).toEqual({ minted: true });
    const shown = await call(t.app, admin, 'GET', `/api/mailbox/${received.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toMatch(/\/staff-app\/invite\/[\w-]{16,}/);
  });

  it('an agency or client user\u2019s invitation reaches the mailbox with its link hidden too', async () => {
    const address = 'mailbox.user.probe@invite.example';
    const made = await call(t.app, admin, 'POST', '/api/users', {
      name: 'Mailbox User Probe',
      email: address,
      role: 'consultant',
    });
    expect(made.statusCode, made.body).toBe(201);
    await sendDue();
    const [received] = await t.db.query<{ id: number; text: string; html: string }>(
      `select id, text, html from mailbox where $1 = any(envelope_to)`,
      [address],
    );
    expect(received.text).toContain(`/invite/${SECRET_PLACEHOLDER}`);
    expect(
      await one(
        `select token_hash is not null as minted from capability_links where resource = 'users' and record_id = $1`,
        [made.json().data.id],
      ),
    ).toEqual({ minted: true });
    const shown = await call(t.app, admin, 'GET', `/api/mailbox/${received.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toMatch(/\/invite\/[\w-]{16,}/);
  });
});
