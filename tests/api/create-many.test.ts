import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { principalFromUser, systemContext } from '../../server/engine/routes';
import { withEngine } from '../../server/engine/handle';
import { saveMany } from '../../server/engine/createMany';
import type { EngineContext } from '../../server/engine/context';
import { addDaysToDate, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';

// The engine's set-based create (issue 16 item 2): ctx.engine.createMany validates every record, checks scope,
// references and declared constraints, runs the hooks in set form, inserts in one statement and audits every record
// in another, all or nothing; POST /api/shifts/bulk creates through it with a single create's rules.
const NOW = '2030-01-10T12:00:00.000Z';
const TODAY = '2030-01-10';
const TZ = 'Europe/London';
let t: TestApp;
let admin: string;
let client: string;
let merchantId: number;
let clientId: number;
let site: number;
let otherSite: number;
let role: number;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5, now: NOW });
  [admin, client] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'client')]);
  [{ client_id: clientId, merchant_id: merchantId }] = await t.db.query<{ client_id: number; merchant_id: number }>(
    `select client_id, merchant_id from users where email = 'client@demo.test'`,
  );
  [{ id: site }] = await t.db.query<{ id: number }>(
    'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [merchantId, clientId],
  );
  [{ id: otherSite }] = await t.db.query<{ id: number }>(
    'select id from sites where merchant_id = $1 and client_id <> $2 and deleted_at is null order by id limit 1',
    [merchantId, clientId],
  );
  [{ id: role }] = await t.db.query<{ id: number }>(
    'select job_role_id as id from rate_cards where merchant_id = $1 and client_id = $2 and site_id is null and deleted_at is null order by id limit 1',
    [merchantId, clientId],
  );
});
afterAll(async () => {
  await t?.close();
});

/** Runs `fn` in a transaction as the product itself (the system principal), as a generation run would. */
const asSystem = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
  t.db.transaction(async (tx) => fn(await systemContext(t.app, tx, merchantId)));
const countOf = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from (${sql}) as x`, params))[0].n;
const shiftCount = () => countOf('select 1 from shifts where merchant_id = $1', [merchantId]);
const auditCount = () =>
  countOf(`select 1 from audit_log where merchant_id = $1 and resource = 'shifts'`, [merchantId]);

/** An open shift of the client at `time` on the day `day` days from today, 8 hours long. */
function shiftAt(day: number, time: string, values: Record<string, unknown> = {}) {
  const start = zonedDateTimeToInstant(addDaysToDate(TODAY, day), time, TZ);
  return {
    client_id: clientId,
    site_id: site,
    job_role_id: role,
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 8 * 3600_000).toISOString(),
    ...values,
  };
}

describe('ctx.engine.createMany', () => {
  it('creates 5,000 shifts or none: one bad row refuses them all, named; each created one is priced, versioned and audited', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) =>
      shiftAt(1 + (i % 250), `${String(6 + (i % 12)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`),
    );
    const bad = rows.map((r, i) => (i === 3217 ? { ...r, site_id: otherSite } : r));
    const [shiftsBefore, auditBefore] = [await shiftCount(), await auditCount()];
    const refused = await asSystem((ctx) => ctx.engine.createMany('shifts', bad)).catch((e) => e);
    expect(refused).toMatchObject({
      status: 422,
      errors: { 'rows[3217].site_id': 'Choose one of the client’s sites.' },
    });
    expect(Object.keys(refused.errors)).toEqual(['rows[3217].site_id']);
    expect(refused.message).toBe(
      'Nothing was created: 1 of the 5000 shifts has a problem. Row 3218 (rows[3217]), Site: Choose one of the client’s sites.',
    );
    expect([await shiftCount(), await auditCount()]).toEqual([shiftsBefore, auditBefore]);

    const created = await asSystem((ctx) => ctx.engine.createMany('shifts', rows, { input: { run: 'test' } }));
    expect(created).toHaveLength(5000);
    // In the order given, with ids that follow it.
    expect(created.map((r) => r.start_at)).toEqual(rows.map((r) => r.start_at));
    expect(created.every((r, i) => i === 0 || r.id > created[i - 1].id)).toBe(true);
    for (const r of created) {
      expect(r).toMatchObject({ version: 1, status: 'open', created_by: 'system', requested_by_client: false });
      expect(r.charge).toBeGreaterThan(0);
      expect(r.paid_minutes).toBeGreaterThan(0);
    }
    // What it answers is what was stored.
    const [first] = await t.db.query(
      `select ${Object.keys(created[0])
        .map((k) => `"${k}"`)
        .join(', ')} from shifts where id = $1`,
      [created[0].id],
    );
    expect(created[0]).toEqual(first);
    const ids = created.map((r) => r.id);
    const [trail] = await t.db.query(
      `select count(*)::int as entries, count(distinct record_id)::int as records,
              count(*) filter (where event = 'create' and user_name = 'system' and input = '{"run": "test"}'::jsonb)::int as as_asked
         from audit_log where merchant_id = $1 and resource = 'shifts' and record_id = any($2::int[])`,
      [merchantId, ids],
    );
    expect(trail).toEqual({ entries: 5000, records: 5000, as_asked: 5000 });
    expect(await shiftCount()).toBe(shiftsBefore + 5000);
  });

  it('names each bad row and field in words, and creates none', async () => {
    const rows = [
      shiftAt(3, '08:00'),
      shiftAt(3, '09:00', { start_at: undefined }),
      shiftAt(3, '10:00', { end_at: shiftAt(3, '09:00').start_at }),
      shiftAt(3, '11:00', { job_role_id: 'nurse' }),
      shiftAt(3, '12:00', { client_id: 2147483600 }),
    ];
    const before = await shiftCount();
    const refused = await asSystem((ctx) => ctx.engine.createMany('shifts', rows)).catch((e) => e);
    expect(refused.status).toBe(422);
    expect(refused.errors).toEqual({
      'rows[1].start_at': 'Required',
      'rows[2].end_at': 'The shift must end after it starts.',
      'rows[3].job_role_id': 'Choose an existing record',
      'rows[4].client_id': 'This record does not exist any more; choose another',
    });
    expect(refused.message).toMatch(
      /^Nothing was created: 4 of the 5 shifts have problems\. Row 2 \(rows\[1\]\), Starts: Required;/,
    );
    expect(await shiftCount()).toBe(before);
  });

  it('checks declared constraints in set form: values unique together (among the rows too), a site within its client', async () => {
    const [c1] = await t.db.query<{ id: number }>(
      'select id from candidates where merchant_id = $1 and deleted_at is null order by id limit 1',
      [merchantId],
    );
    const day = (n: number) => addDaysToDate(TODAY, n);
    const stored = await call(t.app, admin, 'POST', '/api/availability', {
      candidate_id: c1.id,
      date: day(40),
      status: 'day',
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const rows = [day(41), day(42), day(41), day(40)].map((date) => ({ candidate_id: c1.id, date, status: 'night' }));
    const refused = await asSystem((ctx) => ctx.engine.createMany('availability', rows)).catch((e) => e);
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.errors)).toEqual(['rows[2].date', 'rows[3].date']);
    expect(refused.errors['rows[2].date']).toBe(refused.errors['rows[3].date']);

    // A child's entries are filed under its parent, as a single create's are.
    const made = await asSystem((ctx) => ctx.engine.createMany('availability', rows.slice(0, 2)));
    const subjects = await t.db.query(
      `select subject_resource, subject_id from audit_log where resource = 'availability' and record_id = any($1::int[])`,
      [made.map((r) => r.id)],
    );
    expect(subjects).toEqual([
      { subject_resource: 'candidates', subject_id: c1.id },
      { subject_resource: 'candidates', subject_id: c1.id },
    ]);

    const restriction = {
      candidate_id: c1.id,
      client_id: clientId,
      reason: 'Asked not to return',
      restricted_on: TODAY,
    };
    const within = await asSystem((ctx) =>
      ctx.engine.createMany('candidate_restrictions', [
        { ...restriction, site_id: site },
        { ...restriction, site_id: otherSite },
      ]),
    ).catch((e) => e);
    expect(within.status).toBe(422);
    expect(Object.keys(within.errors)).toEqual(['rows[1].site_id']);
    // A behaviour without a set form runs its single-row hook for each record (who recorded the restriction).
    const [made1] = await asSystem((ctx) =>
      ctx.engine.createMany('candidate_restrictions', [{ ...restriction, site_id: site }], { reason: 'Imported' }),
    );
    expect(made1).toMatchObject({ recorded_by: 'system', version: 1 });
  });
  it('stores list fields (references, choices) as a single create does, and checks every id of a list', async () => {
    const roles = (
      await t.db.query<{ id: number }>('select id from job_roles where merchant_id = $1 order by id limit 2', [
        merchantId,
      ])
    ).map((r) => r.id);
    const single = await call(t.app, admin, 'POST', '/api/document_categories', {
      name: 'Set form single',
      job_role_ids: roles,
    });
    expect(single.statusCode, single.body).toBe(201);
    const refused = await asSystem((ctx) =>
      ctx.engine.createMany('document_categories', [
        { name: 'Set form A', job_role_ids: roles },
        { name: 'Set form B', job_role_ids: [roles[0], 2147483600] },
      ]),
    ).catch((e) => e);
    expect(Object.keys(refused.errors)).toEqual(['rows[1].job_role_ids']);
    const made = await asSystem((ctx) =>
      ctx.engine.createMany('document_categories', [
        { name: 'Set form A', job_role_ids: roles },
        { name: 'Set form C', job_role_ids: [] },
      ]),
    );
    expect(made.map((r) => r.job_role_ids)).toEqual([roles, []]);
    const changes = async (id: number) =>
      (
        await t.db.query(`select changes from audit_log where resource = 'document_categories' and record_id = $1`, [
          id,
        ])
      )[0].changes;
    const { name: _a, ...fromSingle } = await changes(single.json().data.id);
    const { name: _b, ...fromMany } = await changes(made[0].id);
    expect(fromMany).toEqual(fromSingle);

    const [setting] = await asSystem((ctx) =>
      ctx.engine.createMany('notification_settings', [
        { event: 'shift.requested', channels: ['email', 'alert'], recipients: ['agency_admins'] },
      ]),
    );
    expect(setting).toMatchObject({ channels: ['email', 'alert'], recipients: ['agency_admins'], version: 1 });
  });
});

describe('the audit entries of a create of many (one builder for every writer, issue 31.6)', () => {
  it('are the ones single creates write: filed under what the declaration names, a hash only as set', async () => {
    const staff = (
      await t.db.query<{ id: number; name: string }>(
        `select c.id, c.first_name || ' ' || c.last_name as name from candidates c
          where c.merchant_id = $1 and not exists (select 1 from users u where u.candidate_id = c.id) order by c.id limit 2`,
        [merchantId],
      )
    ).map((c, i) => ({ candidate_id: c.id, name: c.name, email: `filed-${i}@example.test`, password_hash: 'h4sh' }));
    const [one] = await asSystem(async (ctx) => [await ctx.engine.create('staff_logins', staff[0])]);
    const [many] = await asSystem((ctx) => ctx.engine.createMany('staff_logins', [staff[1]]));
    const entry = async (id: number) =>
      (
        await t.db.query(
          `select subject_resource, subject_id, event, changes, user_name, login_type from audit_log where resource = 'staff_logins' and record_id = $1`,
          [id],
        )
      )[0];
    // Staff sign-ins are filed under their staff member (filedUnder), whichever way they were made.
    expect(await entry(one.id)).toMatchObject({ subject_resource: 'candidates', subject_id: staff[0].candidate_id });
    expect(await entry(many.id)).toMatchObject({ subject_resource: 'candidates', subject_id: staff[1].candidate_id });
    const { changes: fromOne, ...single } = await entry(one.id);
    const { changes: fromMany, ...set } = await entry(many.id);
    expect({ ...set, subject_id: 0 }).toEqual({ ...single, subject_id: 0 });
    expect(fromMany.password_hash).toEqual({ from: null, to: 'set' });
    const differ = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      Object.keys({ ...a, ...b }).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    expect(differ(fromOne, fromMany).sort()).toEqual(['candidate_id', 'email', 'name']);
  });
});

describe('saveMany (a caller’s create of many)', () => {
  it('applies the field write policy and custom fields per record, checks unique values among the records too', async () => {
    const [u] = await t.db.query(`select * from users where email = 'admin@demo.test'`);
    const asAdmin = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
      t.db.transaction(async (tx) => {
        const base = await systemContext(t.app, tx, merchantId);
        return fn(withEngine({ ...base, principal: principalFromUser(u as any) }, t.app.engine));
      });
    const staff = (n: number, extra: Record<string, unknown> = {}) => ({
      first_name: 'Set',
      last_name: `Form ${n}`,
      email: `set.form.${n}@example.test`,
      custom_fields: { uniform_size: 'M', driver: true },
      ...extra,
    });
    const refused = await asAdmin((ctx) =>
      saveMany(ctx, t.app.engine.get('candidates')!, [
        staff(1),
        staff(2, { email: 'SET.FORM.1@example.test' }),
        staff(3, { status: 'approved' }),
        staff(4, { custom_fields: { uniform_size: 'Huge' } }),
      ]),
    ).catch((e) => e);
    expect(refused.status, refused.message).toBe(422);
    expect(Object.keys(refused.errors)).toEqual([
      'rows[1].email',
      'rows[2].status',
      'rows[3].custom_fields.uniform_size',
    ]);

    const single = await call(t.app, admin, 'POST', '/api/candidates', staff(5));
    expect(single.statusCode, single.body).toBe(201);
    const [made] = await asAdmin((ctx) => saveMany(ctx, t.app.engine.get('candidates')!, [staff(6)]));
    expect(made).toMatchObject({ custom_fields: { uniform_size: 'M', driver: true }, version: 1, status: 'pending' });
    const changes = async (id: number) =>
      (await t.db.query(`select changes from audit_log where resource = 'candidates' and record_id = $1`, [id]))[0]
        .changes;
    const { last_name: _a, email: _b, ...fromSingle } = await changes(single.json().data.id);
    const { last_name: _c, email: _d, ...fromMany } = await changes(made.id);
    expect(fromMany).toEqual(fromSingle);
    expect(fromMany['custom_fields.uniform_size']).toEqual({ from: null, to: 'M' });
  });
});

describe('POST /api/shifts/bulk', () => {
  const bulk = (token: string, body: Record<string, unknown>) =>
    call(t.app, token, 'POST', '/api/shifts/bulk', {
      client_id: clientId,
      site_id: site,
      job_role_id: role,
      start_time: '08:00',
      end_time: '16:00',
      ...body,
    });

  it('a client user’s requests start in the future, as a single request’s do: earlier today is refused, naming the date', async () => {
    const before = await shiftCount();
    const earlier = await bulk(client, { dates: [addDaysToDate(TODAY, 2), TODAY] });
    expect(earlier.statusCode, earlier.body).toBe(422);
    expect(earlier.json().errors).toEqual({
      'dates[1]': '10 Jan 2030: A requested shift must start in the future.',
      dates: '10 Jan 2030: A requested shift must start in the future.',
    });
    // The same shift asked for alone is refused by the same rule.
    const single = await call(t.app, client, 'POST', '/api/shifts', shiftAt(0, '08:00'));
    expect(single.statusCode).toBe(422);
    expect(single.json().errors.start_at).toBe('A requested shift must start in the future.');
    expect(await shiftCount()).toBe(before);

    const later = await bulk(client, {
      dates: [TODAY, addDaysToDate(TODAY, 2)],
      start_time: '14:00',
      end_time: '20:00',
    });
    expect(later.statusCode, later.body).toBe(201);
    expect(later.json().count).toBe(2);
    for (const s of later.json().data) {
      expect(s).toMatchObject({ requested_by_client: true, status: 'open', version: 1 });
      // The client reads them as it reads any shift: never the pay or margin.
      expect(s).not.toHaveProperty('pay');
      expect(s).not.toHaveProperty('margin');
    }
    expect(await auditCount()).toBeGreaterThan(0);
    const entries = await countOf(
      `select 1 from audit_log where resource = 'shifts' and event = 'create' and record_id = any($1::int[])`,
      [later.json().data.map((s: { id: number }) => s.id)],
    );
    expect(entries).toBe(2);
  });

  it('refuses a site of another client for the whole request, a date past the start’s limit by its place, never 500', async () => {
    const before = await shiftCount();
    const elsewhere = await bulk(admin, {
      site_id: otherSite,
      dates: [addDaysToDate(TODAY, 5), addDaysToDate(TODAY, 6)],
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(422);
    expect(elsewhere.json().errors).toEqual({ site_id: 'Choose one of the client’s sites.' });

    const far = await bulk(admin, { dates: [addDaysToDate(TODAY, 5), '2032-03-01'], staff_needed: 2 });
    expect(far.statusCode, far.body).toBe(422);
    expect(Object.keys(far.json().errors).sort()).toEqual(['dates', 'dates[1]']);
    expect(far.json().errors['dates[1]']).toMatch(/^1 Mar 2032: Must be on or before/);

    const typo = await bulk(admin, { dates: [addDaysToDate(TODAY, 5), '2030-13-45'] });
    expect(typo.statusCode).toBe(422);
    expect(typo.json().errors['dates[1]']).toBe('Dates are written yyyy-MM-dd; 2030-13-45 is not one.');
    expect(await shiftCount()).toBe(before);
  });

  it('stores and audits each shift as a single create of it would', async () => {
    // Text as an array's element must be quoted and escaped, and the word NULL stays a word.
    const notes = 'Ward "B", {side} door \\ back\nNULL';
    const values = shiftAt(20, '07:00', { notes });
    const single = await call(t.app, admin, 'POST', '/api/shifts', values);
    expect(single.statusCode, single.body).toBe(201);
    expect(single.json().data.notes).toBe(notes);
    const many = await bulk(admin, {
      dates: [addDaysToDate(TODAY, 20)],
      start_time: '07:00',
      end_time: '15:00',
      notes,
    });
    expect(many.statusCode, many.body).toBe(201);
    const [one, other] = [single.json().data, many.json().data[0]];
    const { id: _a, created_at: _b, updated_at: _c, ...a } = one;
    const { id: _d, created_at: _e, updated_at: _f, ...b } = other;
    expect(b).toEqual(a);
    const entry = async (id: number) =>
      (
        await t.db.query(
          `select event, changes, user_id, user_name, login_type, subject_resource from audit_log where resource = 'shifts' and record_id = $1`,
          [id],
        )
      )[0];
    expect(await entry(other.id)).toEqual(await entry(one.id));
  });
});
