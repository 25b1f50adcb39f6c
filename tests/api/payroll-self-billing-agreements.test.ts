import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, monday, type DemoIds } from './timesheetKit';
import { payrollKit } from './payrollKit';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

// Self-billing agreements (issue 33; HMRC VAT Notice 700/62): three limited-company workers, one whose company's
// agreement is in force on the pay day, one whose agreement ended the day before it, one with none. The run's preview
// warns of the two without one (and pays all three: a warning, never a refusal); the self-billing export names the
// agreement in force, or says there is none, in its own column.
let t: TestApp;
let admin: string;
let consultant: string;
let ids: DemoIds;
const { staffOn, verifiedShift } = payrollKit(() => ({ t, admin, ids }));

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const WEEK = 15;
const from = monday(WEEK);
const payDay = addDaysToDate(from, 6);
const agreement = (candidate_id: number, start_date: string, end_date: string, reference?: string) =>
  call(t.app, admin, 'POST', '/api/self_billing_agreements', { candidate_id, start_date, end_date, reference });

let inForce: number;
let expired: number;
let none: number;

beforeAll(async () => {
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
  consultant = await loginAs(t.app, 'consultant');
  ids = await demoIds(t);
  const type = { paye: false, holiday_pay: 'rolled_up' };
  inForce = await staffOn({ ...type, name: 'Agreement in force' }, 'In Force Care Ltd');
  expired = await staffOn({ ...type, name: 'Agreement expired' }, 'Lapsed Care Ltd');
  none = await staffOn({ ...type, name: 'Agreement none' }, 'Unsigned Care Ltd');
  for (const who of [inForce, expired, none]) await verifiedShift(who, WEEK);
  // Through the engine, as the profile's form sends them.
  await ok(await agreement(inForce, addDaysToDate(payDay, -364), payDay, 'SBA-IN'), 201);
  await ok(await agreement(expired, addDaysToDate(payDay, -365), addDaysToDate(payDay, -1), 'SBA-OLD'), 201);
});
afterAll(() => t?.close());

describe('self-billing agreements', () => {
  it('the demo records one for each umbrella and limited-company worker, one of them ended (the warning shows)', async () => {
    const rows = await t.db.query<{ candidate_id: number; lapsed: boolean }>(
      `select c.id as candidate_id, not exists (select 1 from self_billing_agreements a
          where a.merchant_id = c.merchant_id and a.candidate_id = c.id and a.end_date >= current_date) as lapsed
         from candidates c join employment_types e on e.merchant_id = c.merchant_id and e.id = c.employment_type_id
        where c.merchant_id = $1 and e.paye = false and c.company_name is not null and c.deleted_at is null
          and c.id <> all($2::int[])`,
      [ids.merchantId, [inForce, expired, none]],
    );
    expect(rows.length).toBeGreaterThan(1);
    const [{ count }] = await t.db.query<{ count: number }>(
      `select count(distinct candidate_id)::int as count from self_billing_agreements
        where merchant_id = $1 and recorded_by is not null and candidate_id = any($2::int[])`,
      [ids.merchantId, rows.map((r) => r.candidate_id)],
    );
    expect(count).toBe(rows.length);
    expect(rows.filter((r) => r.lapsed)).toHaveLength(1);
  });

  it('are recorded through the engine with who recorded them; an end before the start is refused on the field', async () => {
    const [made] = await ok(
      await call(t.app, admin, 'GET', `/api/self_billing_agreements?candidate_id=${inForce}`),
    ).then((d: any) => d as any[]);
    expect(made).toMatchObject({ candidate_id: inForce, end_date: payDay, reference: 'SBA-IN' });
    expect(made.recorded_by).toBeTruthy();
    const bad = await agreement(none, payDay, addDaysToDate(payDay, -1));
    expect(bad.statusCode, bad.body).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('The end or review date is before the agreement starts.');
    // Consultants read them (payroll's rule) but record none.
    expect((await call(t.app, consultant, 'GET', `/api/self_billing_agreements/${made.id}`)).statusCode).toBe(200);
    const refused = await call(t.app, consultant, 'POST', '/api/self_billing_agreements', {
      candidate_id: none,
      start_date: from,
      end_date: payDay,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('the preview warns of each company paid gross without one in force on the pay day, and still pays it', async () => {
    const preview = await ok(
      await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
        frequency: 'weekly',
        from,
        to: payDay,
        candidate_ids: [inForce, expired, none],
        preview: true,
      }),
    );
    expect(preview.payslips).toHaveLength(3);
    expect([...preview.without_agreement].sort((a: any, b: any) => a.candidate_id - b.candidate_id)).toEqual([
      { candidate_id: expired, name: 'Pay Agreement expired', company: 'Lapsed Care Ltd' },
      { candidate_id: none, name: 'Pay Agreement none', company: 'Unsigned Care Ltd' },
    ]);
  });

  it('the self-billing export names the agreement in force, or says there is none', async () => {
    const made = await ok(
      await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
        frequency: 'weekly',
        from,
        to: payDay,
        candidate_ids: [inForce, expired, none],
      }),
    );
    expect(made.payslips).toHaveLength(3);
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${made.run_id}/actions/approve`, {}));
    const res = await call(t.app, admin, 'GET', `/api/pay_runs/${made.run_id}/files/self-billing`);
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = parse(res.body.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
    const col = header.indexOf('Self-billing agreement');
    expect(col).toBeGreaterThan(0);
    const bySupplier = Object.fromEntries(rows.map((r) => [r[header.indexOf('Supplier')], r[col]]));
    expect(bySupplier).toEqual({
      'In Force Care Ltd': `SBA-IN, ${addDaysToDate(payDay, -364)} to ${payDay}`,
      'Lapsed Care Ltd': 'None in force on the pay day',
      'Unsigned Care Ltd': 'None in force on the pay day',
    });
  });
});
