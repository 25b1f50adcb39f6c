import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { agreeOnKey, sealedKeyId, sealer, sealerOf, useKey } from '../../server/secrets/sealing';
import { queueRotation } from '../../server/services/bankDetails';
import { runNextJob, workerName } from '../../server/jobs/queue';

// Issue 33, rotating the bank details key: the operator starts every process with the new key (BANK_DETAILS_KEY)
// and the old one readable (BANK_DETAILS_OLD_KEYS); `npm run bank-key:rotate` queues one job per agency, which seals
// every staff member's details again under the new key through the engine, in batches, as the system, with its
// progress; reads accept either key meanwhile; once the last is done, the database names the new key and a process
// with the old one alone refuses to start.
let t: TestApp;
let admin: string;
let merchantId: number;
const original = Buffer.from(inject('bankDetailsKey'), 'hex');
const next = randomBytes(32);

beforeAll(async () => {
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
  [{ merchantId }] = await t.db.query<{ merchantId: number }>(
    `select merchant_id as "merchantId" from users where email = 'admin@demo.test'`,
  );
  useKey(original);
  await agreeOnKey(t.db, sealer());
});
afterAll(async () => {
  // The api project's files share this process: the next file opens the demo's details with the run's key.
  useKey(original);
  process.env.RESEAL_BATCH = '';
  await t?.close();
});

const sealedRows = () =>
  t.db.query<{ id: number; merchant_id: number; sealed: string }>(
    `select id, merchant_id, bank_details_sealed as sealed from candidates
      where bank_details_sealed is not null and deleted_at is null order by id`,
  );
const inFull = async (id: number) => {
  const res = await call(t.app, admin, 'GET', `/api/candidates/${id}/bank_details`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('rotating the bank details key', () => {
  it('reseals every value under the new key in batches as the system; the database then names the new key', async () => {
    const before = await sealedRows();
    const ours = before.filter((r) => r.merchant_id === merchantId);
    // The demo's paid staff have bank details: enough for several batches of two.
    expect(ours.length).toBeGreaterThan(2);
    expect(new Set(before.map((r) => sealedKeyId(r.sealed)))).toEqual(new Set([sealerOf(original).keyId]));
    const details = new Map<number, unknown>();
    for (const r of ours) details.set(r.id, await inFull(r.id));

    // Every process restarted with the new key and the old one readable: it starts (the database still names the old
    // key), and reads what the old key sealed.
    const rotating = useKey(next, [original]);
    await agreeOnKey(t.db, rotating);
    expect(await inFull(ours[0].id)).toEqual(details.get(ours[0].id));
    // A process with the new key alone would not read the old values: it refuses to start until the rotation is done.
    await expect(agreeOnKey(t.db, sealerOf(next))).rejects.toThrow(/sealed with another key/);

    process.env.RESEAL_BATCH = '2';
    const jobs = await queueRotation(t.db);
    expect(jobs.find((j) => j.merchantId === merchantId)?.staff).toBe(ours.length);
    const worker = workerName();
    while ((await runNextJob(t.app.jobs, t.db, worker)) !== null);
    // Each job done, its progress every staff member of its agency.
    const done = await t.db.query<{ merchant_id: number; status: string; done: number; total: number }>(
      `select merchant_id, status, done, total from jobs where id = any($1::int[]) order by id`,
      [jobs.map((j) => j.jobId)],
    );
    expect(done.map((j) => [j.merchant_id, j.status, j.done, j.total])).toEqual(
      jobs.map((j) => [j.merchantId, 'done', j.staff, j.staff]),
    );

    // Every value is sealed under the new key, and opens to the same details.
    const after = await sealedRows();
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(new Set(after.map((r) => sealedKeyId(r.sealed)))).toEqual(new Set([rotating.keyId]));
    for (const r of ours) expect(await inFull(r.id)).toEqual(details.get(r.id));

    // Through the engine as the system: one entry per staff member in their history, holding none of the details.
    const entries = await t.db.query<{ record_id: number; user_name: string; changes: unknown }>(
      `select record_id, user_name, changes from audit_log where merchant_id = $1 and resource = 'candidates'
          and action = 'reseal_bank_details' order by record_id`,
      [merchantId],
    );
    expect(entries.map((e) => e.record_id)).toEqual(ours.map((r) => r.id));
    expect(new Set(entries.map((e) => e.user_name))).toEqual(new Set(['system']));
    for (const [i, e] of entries.entries()) {
      const d = details.get(ours[i].id) as Record<string, unknown>;
      expect(JSON.stringify(e.changes)).not.toContain(String(d.account_number ?? d.accountNumber));
    }

    // The database names the new key: a process with the old key alone now refuses to start; the new one alone starts
    // and reads everything.
    await expect(agreeOnKey(t.db, sealerOf(original))).rejects.toThrow(/sealed with another key/);
    await agreeOnKey(t.db, useKey(next));
    for (const r of ours) expect(await inFull(r.id)).toEqual(details.get(r.id));
    // Run again, there is nothing to do.
    expect(await queueRotation(t.db)).toEqual([]);
  });
});
