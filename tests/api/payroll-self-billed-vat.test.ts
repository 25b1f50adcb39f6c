import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, monday, type DemoIds } from './timesheetKit';
import { payrollKit } from './payrollKit';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { penceToPounds, vatOfLine } from '../../core/engine/money';
import { vatRateOn } from '../../core/domain/pricing/vat';

// VAT on self-billed pay (issue 33): a run paying one limited-company worker whose company is VAT-registered and one
// whose company is not. The registered company's payslip carries VAT on top of the gross at the standard rate on the
// pay day; the bank payments file pays it net + VAT; the self-billing export shows net, rate, VAT, total and the
// statement VAT Notice 700/62 requires (the other says no VAT is charged); the run's totals and the payroll report
// hold the VAT. A finalised run keeps the VAT number it paid under after the company's record changes.
let t: TestApp;
let admin: string;
let ids: DemoIds;
const { staffOn, verifiedShift } = payrollKit(() => ({ t, admin, ids }));

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const WEEK = 14;
const from = monday(WEEK);
const to = addDaysToDate(from, 6);
const file = (run: number, name: string) => call(t.app, admin, 'GET', `/api/pay_runs/${run}/files/${name}`);
const csv = (body: string) => {
  const [header, ...rows] = parse(body.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
  return { header, rows, col: (row: string[], name: string) => row[header.indexOf(name)] };
};

let registered: number;
let unregistered: number;
let runId: number;
const pay: Record<number, number> = {};

beforeAll(async () => {
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
  ids = await demoIds(t);
  registered = await staffOn({ name: 'Vat registered', paye: false, holiday_pay: 'rolled_up' });
  unregistered = await staffOn({ name: 'Vat unregistered', paye: false, holiday_pay: 'rolled_up' });
  // The companies' details entered as an admin does, through the engine.
  await ok(
    await call(t.app, admin, 'PUT', `/api/candidates/${registered}`, {
      company_name: 'Registered Care Ltd',
      company_number: '12345678',
      company_address: '1 High Street, Leeds, LS1 1AA',
      company_vat_number: 'GB123456789',
    }),
  );
  await ok(
    await call(t.app, admin, 'PUT', `/api/candidates/${unregistered}`, {
      company_name: 'Small Care Ltd',
      company_number: '87654321',
    }),
  );
  for (const [i, who] of [registered, unregistered].entries()) {
    pay[who] = Number((await verifiedShift(who, WEEK)).pay);
    await ok(
      await call(t.app, admin, 'POST', `/api/candidates/${who}/actions/set_bank_details`, {
        sort_code: '40-11-6' + String(i),
        account_number: String(30000000 + i),
        account_name: `Company ${i}`,
      }),
    );
  }
  const made = await ok(
    await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
      frequency: 'weekly',
      from,
      to,
      candidate_ids: [registered, unregistered],
    }),
  );
  runId = made.run_id;
});
afterAll(() => t?.close());

const slipOf = async (who: number) => {
  const [row] = await t.db.query<{ id: number }>(
    'select id from payslips where pay_run_id = $1 and candidate_id = $2',
    [runId, who],
  );
  return ok(await call(t.app, admin, 'GET', `/api/payslips/${row.id}`));
};
const rate = vatRateOn('S', to)!.rate;

describe('VAT on self-billed pay', () => {
  it('the VAT-registered company’s payslip carries VAT on the gross at the standard rate; the other none', async () => {
    const withVat = await slipOf(registered);
    const vat = vatOfLine(pay[registered], rate);
    expect(vat).toBeGreaterThan(0);
    expect(withVat).toMatchObject({
      paye: false,
      paid_to: 'Registered Care Ltd',
      company_number: '12345678',
      company_address: '1 High Street, Leeds, LS1 1AA',
      vat_number: 'GB123456789',
      vat_rate: rate,
      gross: pay[registered],
      net: pay[registered],
      vat,
      amount_paid: pay[registered] + vat,
      employer_cost: 0,
    });
    const without = await slipOf(unregistered);
    expect(without).toMatchObject({
      paid_to: 'Small Care Ltd',
      vat_number: null,
      vat_rate: null,
      vat: 0,
      net: pay[unregistered],
      amount_paid: pay[unregistered],
    });
    // The run's totals: its VAT beside gross, net and employer costs (which VAT, reclaimed as input tax, is not).
    const run = await ok(await call(t.app, admin, 'GET', `/api/pay_runs/${runId}`));
    expect(run).toMatchObject({
      vat,
      gross: pay[registered] + pay[unregistered],
      net: pay[registered] + pay[unregistered],
      employer_costs: 0,
    });
    // The payroll report totals it too.
    const report = await call(t.app, admin, 'GET', `/api/payslips?pay_run_id=${runId}&tab=draft`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().totals).toMatchObject({ vat, gross: run.gross });
  });

  it('the bank payments file pays the registered company net + VAT, the other its net', async () => {
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/approve`, {}));
    const res = await file(runId, 'bank');
    expect(res.statusCode, res.body).toBe(200);
    const { rows, col } = csv(res.body);
    const amountTo = (account: string) =>
      col(
        rows.find((r) => col(r, 'Account number') === account)!,
        'Amount',
      );
    const vat = vatOfLine(pay[registered], rate);
    expect(amountTo('30000000')).toBe(((pay[registered] + vat) / 100).toFixed(2));
    expect(amountTo('30000001')).toBe((pay[unregistered] / 100).toFixed(2));
  });

  it('the self-billing export shows net, rate, VAT, total and the VAT statement; or that none is charged', async () => {
    const res = await file(runId, 'self-billing');
    expect(res.statusCode, res.body).toBe(200);
    const { rows, col } = csv(res.body);
    expect(rows).toHaveLength(2);
    const rowOf = (supplier: string) => rows.find((r) => col(r, 'Supplier') === supplier)!;
    const vat = vatOfLine(pay[registered], rate);
    const r = rowOf('Registered Care Ltd');
    expect({
      supplierAddress: col(r, 'Supplier address'),
      vatNumber: col(r, 'VAT number'),
      net: Number(col(r, 'Net')),
      rate: col(r, 'VAT rate'),
      vat: Number(col(r, 'VAT')),
      total: Number(col(r, 'Total')),
      statement: col(r, 'VAT statement'),
      date: col(r, 'Invoice date'),
      supply: col(r, 'Time of supply'),
    }).toEqual({
      supplierAddress: '1 High Street, Leeds, LS1 1AA',
      vatNumber: 'GB123456789',
      net: penceToPounds(pay[registered]),
      rate: `${rate / 100}%`,
      vat: penceToPounds(vat),
      total: penceToPounds(pay[registered] + vat),
      statement: 'The VAT shown is your output tax due to HMRC.',
      date: to,
      supply: to,
    });
    // The agency is the customer, named as its settings name it.
    const [agency] = await t.db.query<{ name: string }>(
      `select coalesce(nullif(trim(a.legal_name), ''), m.company_name) as name
         from merchants m left join agency_settings a on a.merchant_id = m.id where m.id = $1`,
      [ids.merchantId],
    );
    expect(col(r, 'Customer')).toBe(agency.name);
    expect(col(r, 'Customer address')).not.toBe('');
    const u = rowOf('Small Care Ltd');
    expect([col(u, 'VAT number'), col(u, 'VAT rate'), Number(col(u, 'VAT')), Number(col(u, 'Total'))]).toEqual([
      '',
      '',
      0,
      penceToPounds(pay[unregistered]),
    ]);
    expect(col(u, 'VAT statement')).toBe('No VAT is charged: the supplier is not registered for VAT.');
  });

  it('a finalised run is unchanged after the company’s VAT number changes: its payslip, files and totals', async () => {
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/finalise`, {}));
    const before = {
      slip: await slipOf(registered),
      other: await slipOf(unregistered),
      run: await ok(await call(t.app, admin, 'GET', `/api/pay_runs/${runId}`)),
      selfBilling: (await file(runId, 'self-billing')).body,
      bank: (await file(runId, 'bank')).body,
    };
    // The registered company's number changes; the other company registers for VAT.
    await ok(
      await call(t.app, admin, 'PUT', `/api/candidates/${registered}`, {
        company_vat_number: 'GB987654321',
        company_address: '9 New Road, York',
      }),
    );
    await ok(await call(t.app, admin, 'PUT', `/api/candidates/${unregistered}`, { company_vat_number: 'GB111222333' }));
    const after = {
      slip: await slipOf(registered),
      other: await slipOf(unregistered),
      run: await ok(await call(t.app, admin, 'GET', `/api/pay_runs/${runId}`)),
      selfBilling: (await file(runId, 'self-billing')).body,
      bank: (await file(runId, 'bank')).body,
    };
    const figures = (p: Record<string, unknown>) => ({
      vat_number: p.vat_number,
      vat_rate: p.vat_rate,
      vat: p.vat,
      amount_paid: p.amount_paid,
      company_address: p.company_address,
    });
    expect(figures(after.slip)).toEqual(figures(before.slip));
    expect(figures(after.other)).toEqual(figures(before.other));
    expect(after.run.vat).toBe(before.run.vat);
    expect(after.selfBilling).toBe(before.selfBilling);
    expect(after.bank).toBe(before.bank);
    expect(after.selfBilling).toContain('GB123456789');
    expect(after.selfBilling).not.toContain('GB987654321');
  });

  it('a new run after the change pays the company VAT under its number then; the unregistered one now too', async () => {
    // Another week's work, after the VAT numbers changed.
    const week = WEEK - 1;
    const later = { registered: 0, unregistered: 0 };
    later.registered = Number((await verifiedShift(registered, week)).pay);
    later.unregistered = Number((await verifiedShift(unregistered, week)).pay);
    const made = await ok(
      await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
        frequency: 'weekly',
        from: monday(week),
        to: addDaysToDate(monday(week), 6),
        candidate_ids: [registered, unregistered],
      }),
    );
    const slips = await t.db.query<{ candidate_id: number; vat_number: string; vat: string }>(
      'select candidate_id, vat_number, vat from payslips where pay_run_id = $1 order by candidate_id',
      [made.run_id],
    );
    const r = rate;
    expect(slips.map((s) => [s.candidate_id, s.vat_number, Number(s.vat)])).toEqual(
      [
        [registered, 'GB987654321', vatOfLine(later.registered, r)],
        [unregistered, 'GB111222333', vatOfLine(later.unregistered, r)],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    // Its draft's adjustment keeps the run's VAT number and works the VAT out again on the new gross.
    const slipId = Number(made.payslips[0]);
    const [first] = await t.db.query<{ candidate_id: number; gross: string }>(
      'select candidate_id, gross from payslips where id = $1',
      [slipId],
    );
    await fixtureWrite(t.db, 'update candidates set company_vat_number = null where id = $1', [first.candidate_id]);
    await ok(
      await call(t.app, admin, 'POST', `/api/payslips/${slipId}/actions/adjust`, {
        kind: 'addition',
        amount: 1_000,
        reason: 'Mileage',
      }),
    );
    const adjusted = await ok(await call(t.app, admin, 'GET', `/api/payslips/${slipId}`));
    const gross = Number(first.gross) + 1000;
    expect(adjusted).toMatchObject({ gross, vat: vatOfLine(gross, r), amount_paid: gross + vatOfLine(gross, r) });
    expect(adjusted.vat_number).toMatch(/^GB/);
    // The run's VAT follows (its rollup).
    const [{ vat }] = await t.db.query<{ vat: string }>('select sum(vat) as vat from payslips where pay_run_id = $1', [
      made.run_id,
    ]);
    expect((await ok(await call(t.app, admin, 'GET', `/api/pay_runs/${made.run_id}`))).vat).toBe(Number(vat));
  });
});
