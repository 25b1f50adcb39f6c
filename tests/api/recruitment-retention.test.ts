import { BUILT_IN_STAGES } from '../../core/domain/recruitment/stages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { eraseExpiredApplications } from '../../server/services/recruitmentRetention';
import { JobEngine } from '../../server/jobs/engineContext';
import { systemPrincipal } from '../../server/engine/handle';
import { queueEmails } from '../../server/notifications/outbox';
import { APPLICATION_RECEIVED } from '../../core/domain/notifications/events';

// Recruitment settings and retention (issue 35): the agency's row (default 6 months, 1–84, admins save, consultants
// read), and the daily job erasing the applications not hired whose last change is older than the agency's months,
// with their CVs, through the engine and in the audit trail; hired ones and another agency's within its own months
// are kept.
let t: TestApp;
let admin: string;
let consultant: string;
let otherAdmin: string;
let n = 0;
const uid = () => `${Date.now().toString(36)}${++n}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function must(res: { statusCode: number; body: string; json(): any }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
// An interview needs its time (the interview dates' own test is recruitment-stages.test.ts).
const act = (token: string, id: number, action: string) =>
  call(
    t.app,
    token,
    'POST',
    `/api/job_applications/${id}/actions/${action}`,
    action === 'interview' ? { interview_at: new Date(Date.now() + 86_400_000).toISOString() } : {},
  );
const newJob = async (token: string) =>
  (await must(await call(t.app, token, 'POST', '/api/vacancies', { title: `Carer ${uid()}`, location: 'Leeds' }), 201))
    .data;
async function newApplication(token: string, jobId: number, cv?: string): Promise<number> {
  const u = uid();
  const body = {
    job_id: jobId,
    first_name: 'Rita',
    last_name: `Retained${u}`,
    email: `rita.${u}@applicant.example`,
    right_to_work: 'yes',
    consent: true,
    ...(cv ? { cv } : {}),
  };
  return (await must(await call(t.app, token, 'POST', '/api/job_applications', body), 201)).data.id;
}
/** The application as if last changed `months` months and `days` days before `now` (the test's own set-up). */
const lastChanged = (id: number, now: Date, months: number, days: number) =>
  fixtureWrite(
    t.db,
    `update job_applications set updated_at = $2::timestamptz - make_interval(months => $3, days => $4) where id = $1`,
    [id, now, months, days],
  );
const exists = async (id: number) =>
  (await t.db.query('select 1 from job_applications where id = $1', [id])).length === 1;
const filesOf = async (id: number) =>
  (
    await t.db.query<{ n: number }>(
      `select count(*)::int as n from files where owner_resource = 'job_applications' and owner_id = $1`,
      [id],
    )
  )[0].n;
const erase = (now: Date) => eraseExpiredApplications(t.db, new JobEngine(t.app), now);

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'otherAdmin'),
  ]);
});
afterAll(() => t?.close());

describe('recruitment settings', () => {
  it('default to 6 months, take 1 to 84 whole months from an admin, and are the agency’s own', async () => {
    expect((await must(await call(t.app, otherAdmin, 'GET', '/api/recruitment_settings'))).data).toEqual({
      retention_months: 6,
      stages: BUILT_IN_STAGES,
      version: 0,
    });
    for (const bad of [0, 85, 2.5, null]) {
      const res = await call(t.app, otherAdmin, 'PUT', '/api/recruitment_settings', { retention_months: bad });
      expect(res.statusCode, `${bad}: ${res.body}`).toBe(422);
      expect(res.json().errors).toHaveProperty('retention_months');
    }
    expect(
      (await call(t.app, consultant, 'PUT', '/api/recruitment_settings', { retention_months: 3 })).statusCode,
    ).toBe(403);
    const saved = await must(
      await call(t.app, otherAdmin, 'PUT', '/api/recruitment_settings', { retention_months: 12, version: 0 }),
    );
    expect(saved).toMatchObject({ data: { retention_months: 12, version: 1 }, message: 'Recruitment settings saved' });
    // A save from a stale read is refused; agency A still has the default months (its demo row names its own stage),
    // and its consultant reads it.
    expect(
      (await call(t.app, otherAdmin, 'PUT', '/api/recruitment_settings', { retention_months: 24, version: 0 }))
        .statusCode,
    ).toBe(409);
    expect((await must(await call(t.app, consultant, 'GET', '/api/recruitment_settings'))).data).toMatchObject({
      retention_months: 6,
      version: 1,
    });
    const [entry] = await auditTrail(t.app, otherAdmin, 'recruitment_settings');
    expect(entry).toMatchObject({ event: 'create', changes: { retention_months: { from: null, to: 12 } } });
  });
});

describe('retention', () => {
  it('erases exactly the applications not hired last changed before the agency’s months, with their CVs, audited', async () => {
    const now = new Date();
    const job = await newJob(admin);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/files?kind=document',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/octet-stream' },
      payload: PDF,
    });
    const cv = (await must(upload, 201)).data.id as string;
    const withCv = await newApplication(admin, job.id, cv);
    const rejected = await newApplication(admin, job.id);
    await must(await act(admin, rejected, 'reject'));
    const inside = await newApplication(admin, job.id);
    const hired = await newApplication(admin, job.id);
    for (const a of ['screen', 'interview', 'offer', 'hire']) await must(await act(admin, hired, a));
    // Agency B keeps its applications 12 months (saved above): 6 months and a day is within them.
    const jobB = await newJob(otherAdmin);
    const ofB = await newApplication(otherAdmin, jobB.id);
    const ofBOlder = await newApplication(otherAdmin, jobB.id);

    await lastChanged(withCv, now, 6, 1);
    await lastChanged(rejected, now, 6, 1);
    await lastChanged(inside, now, 6, -1);
    await lastChanged(hired, now, 6, 10);
    await lastChanged(ofB, now, 6, 1);
    await lastChanged(ofBOlder, now, 12, 1);
    expect(await filesOf(withCv)).toBe(1);

    expect(await erase(now)).toBe(3);
    expect(await exists(withCv)).toBe(false);
    expect(await exists(rejected)).toBe(false);
    expect(await filesOf(withCv)).toBe(0);
    expect((await t.db.query('select 1 from files where id = $1', [cv])).length).toBe(0);
    expect(await exists(inside)).toBe(true);
    expect(await exists(hired)).toBe(true);
    expect(await exists(ofB)).toBe(true);
    expect(await exists(ofBOlder)).toBe(false);
    expect((await call(t.app, admin, 'GET', `/api/job_applications/${withCv}`)).statusCode).toBe(404);

    // In the audit trail, by the product itself, saying why (a rejected one past its lock, named too).
    for (const id of [withCv, rejected]) {
      const [entry] = (await auditTrail(t.app, admin, 'job_applications', id)).filter((e) => e.event === 'delete');
      expect(entry, `application ${id}`).toMatchObject({
        user_name: 'system',
        input: {
          reason: "Not hired, and last changed more than 6 months ago: erased under the agency's data retention",
          overrideLock: 'Data retention',
        },
      });
    }
    // Nothing more to do on a second run the same day.
    expect(await erase(now)).toBe(0);

    // A shorter period takes effect on the next run: one month and a day ago is now past it, a month less a day not.
    const { version } = (await must(await call(t.app, admin, 'GET', '/api/recruitment_settings'))).data;
    await must(await call(t.app, admin, 'PUT', '/api/recruitment_settings', { retention_months: 1, version }));
    const recent = await newApplication(admin, job.id);
    await lastChanged(recent, now, 1, -1);
    expect(await erase(now)).toBe(1);
    expect(await exists(inside)).toBe(false);
    expect(await exists(recent)).toBe(true);
    expect(await exists(hired)).toBe(true);
  });

  it('takes the erased applicant’s personal data out of the trail, keeping the entries and the set’s others', async () => {
    const now = new Date();
    const job = await newJob(admin);
    const [gone, kept] = [await newApplication(admin, job.id), await newApplication(admin, job.id)];
    const [g] = await t.db.query<{ merchant_id: number; last_name: string; email: string }>(
      'select merchant_id, last_name, email from job_applications where id = $1',
      [gone],
    );
    const [k] = await t.db.query<{ last_name: string }>('select last_name from job_applications where id = $1', [kept]);
    const newEmail = `rita.moved.${uid()}@applicant.example`;
    // Set-based writes holding both: one change shared by the two (the screen's note), and each its own (the phones).
    await t.db.transaction(async (tx) => {
      const ctx = await new JobEngine(t.app).context(tx, systemPrincipal(g.merchant_id), now);
      await ctx.engine.act('job_applications', [gone, kept], 'screen', { note: 'Phoned both' });
      await ctx.engine.updateMany('job_applications', [
        { id: gone, email: newEmail, phone: '07700 900111' },
        { id: kept, phone: '07700 900222' },
      ]);
    });
    await lastChanged(gone, now, 7, 0);
    await erase(now);
    expect(await exists(gone)).toBe(false);
    expect(await exists(kept)).toBe(true);

    // Nowhere in the trail's tables, nor through the API.
    const personal = [g.last_name, g.email, newEmail, '07700 900111'];
    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from (select to_jsonb(r)::text as t from audit_rows r
         union all select to_jsonb(s)::text from audit_sets s) e where e.t ilike any($1::text[])`,
      [personal.map((p) => `%${p}%`)],
    );
    expect(n).toBe(0);
    const trail = await auditTrail(t.app, admin, 'job_applications', gone);
    for (const p of personal) expect(JSON.stringify(trail)).not.toContain(p);
    // Each entry still says who, when and what, with the fields' names.
    // (The engine's writes above are at `now`, before the API's create: compared without their order.)
    expect(trail.map((e) => `${e.event} ${e.action ?? ''}`.trim()).sort()).toEqual([
      'action erased',
      'action screen',
      'create',
      'delete',
      'update',
    ]);
    for (const e of trail) expect(e.user_name && e.created_at, JSON.stringify(e)).toBeTruthy();
    const of = (what: string) => trail.find((e) => e.event === what || e.action === what)!;
    expect(of('create').changes).toMatchObject({
      first_name: { from: null, to: 'erased' },
      last_name: { from: null, to: 'erased' },
      email: { from: null, to: 'erased' },
      job_id: { from: null, to: job.id },
    });
    expect(of('update').changes).toEqual({
      email: { from: 'erased', to: 'erased' },
      phone: { from: null, to: 'erased' },
    });
    expect(of('screen').changes).toMatchObject({
      stage: { from: 'applied', to: 'screening' },
      stage_note: { to: 'erased' },
    });
    expect(of('screen').input).toEqual({ note: 'erased' });
    expect(of('erased')).toMatchObject({ user_name: 'system', input: { redactedEntries: 4 } });
    // The other applicant of the shared sets keeps its values.
    const keptTrail = await auditTrail(t.app, admin, 'job_applications', kept);
    expect(keptTrail.find((e) => e.event === 'update')!.changes).toEqual({
      phone: { from: null, to: '07700 900222' },
    });
    expect(keptTrail.find((e) => e.action === 'screen')!.changes).toMatchObject({
      stage_note: { from: null, to: 'Phoned both' },
    });
    expect(keptTrail.find((e) => e.event === 'create')!.changes).toMatchObject({ last_name: { to: k.last_name } });
  });

  it('erases what the applicant was e-mailed, unless another application of theirs stays', async () => {
    const now = new Date();
    const job = await newJob(admin);
    const mails = (email: string) =>
      t.db.query<{ event: string }>('select event from email_outbox where lower(recipient) = lower($1) order by id', [
        email,
      ]);
    const emailOf = async (id: number) =>
      (await t.db.query<{ email: string }>('select email from job_applications where id = $1', [id]))[0].email;
    const gone = await newApplication(admin, job.id);
    const twice = await newApplication(admin, job.id);
    for (const id of [gone, twice]) await must(await act(admin, id, 'reject'));
    const [goneEmail, twiceEmail] = [await emailOf(gone), await emailOf(twice)];
    const [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
      'select merchant_id from job_applications where id = $1',
      [gone],
    );
    // The same person's second application, still open: their e-mails stay while it does.
    const again = await call(t.app, admin, 'POST', '/api/job_applications', {
      job_id: job.id,
      first_name: 'Rita',
      last_name: 'Again',
      email: twiceEmail,
      right_to_work: 'yes',
      consent: true,
    });
    await must(again, 201);
    // The careers form's confirmation, and an e-mail about something else to the same address (a staff invitation).
    await queueEmails(t.db, [
      {
        merchantId,
        recipient: goneEmail,
        subject: 'Your application',
        text: 'Dear Rita',
        html: '<p>Dear Rita</p>',
        event: APPLICATION_RECEIVED,
      },
      { merchantId, recipient: goneEmail, subject: 'Welcome', text: 'Welcome', html: '<p>Welcome</p>', event: 'other' },
    ]);
    expect((await mails(goneEmail)).map((m) => m.event)).toEqual([
      'application.rejected',
      APPLICATION_RECEIVED,
      'other',
    ]);
    expect((await mails(twiceEmail)).map((m) => m.event)).toEqual(['application.rejected']);

    for (const id of [gone, twice]) await lastChanged(id, now, 100, 0);
    expect(await erase(now)).toBe(2);
    expect((await mails(goneEmail)).map((m) => m.event)).toEqual(['other']);
    expect((await mails(twiceEmail)).map((m) => m.event)).toEqual(['application.rejected']);
  });

  it('still refuses any other change to the trail', async () => {
    await expect(
      t.db.query(`update audit_rows set changes = '{}'::jsonb where id = (select max(id) from audit_rows)`),
    ).rejects.toThrow(/cannot be changed/);
    await expect(t.db.query(`delete from audit_sets where id = (select max(id) from audit_sets)`)).rejects.toThrow(
      /cannot be changed/,
    );
    // With the erasure's setting, only what an entry recorded may change: not who made it.
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`select set_config('app.erasure', 'test', true)`);
        await tx.query(`update audit_rows set user_name = 'someone' where id = (select max(id) from audit_rows)`);
      }),
    ).rejects.toThrow(/cannot be changed/);
  });

  it('is a daily job of the recruitment area', async () => {
    const job = t.app.jobs.periodic.find((j) => j.name === 'recruitment-retention');
    expect(job?.everyMs).toBe(24 * 60 * 60_000);
  });
});
