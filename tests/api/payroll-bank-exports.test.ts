import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { call, fixtureWrite, loginAs, makeTestApp, payableWeeks, type TestApp } from './helpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { ACCOUNT_NUMBER_MESSAGE, SORT_CODE_MESSAGE } from '../../core/domain/payroll/bankDetails';
import { penceToPounds } from '../../core/engine/money';
import { BANK_DETAILS_VIEWED } from '../../server/services/bankDetails';
import { agreeOnKey, sealer, sealerOf } from '../../server/secrets/sealing';
import { randomBytes } from 'node:crypto';

// Issue 33, output: a staff member's bank details sealed at rest, masked for admins, hidden from everyone else and
// in full only for admins with each view in the audit trail; and a pay run's three files (the payroll bureau's CSV,
// the BACS bank payments file, the self-billing export), whose figures are the payslips' own. Runs made here over
// the demo's payable lines: one finalised, one left a draft.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let staff: string;
let otherAdmin: string;
let merchantId: number;
let finalised: number;
let draft: number;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, staff, otherAdmin] = await Promise.all(
    ['admin', 'consultant', 'client', 'staff', 'otherAdmin'].map((w) => loginAs(t.app, w as 'admin')),
  );
  const weeks = await payableWeeks(t.db);
  merchantId = weeks.merchantId;
  const mondays = weeks.mondays.slice(0, 2);
  expect(mondays).toHaveLength(2);
  const runs: number[] = [];
  for (const monday of mondays) {
    const made = await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
      frequency: 'weekly',
      from: monday,
      to: addDaysToDate(monday, 6),
    });
    expect(made.statusCode, made.body).toBe(200);
    runs.push(made.json().data.run_id);
  }
  [finalised, draft] = runs;
  for (const action of ['approve', 'finalise'])
    expect((await call(t.app, admin, 'POST', `/api/pay_runs/${finalised}/actions/${action}`, {})).statusCode).toBe(200);
});
afterAll(() => t?.close());

/** Everyone but the agency's admins, with what they get: refused, or (another agency's admin) not found. */
const notAdmins = () =>
  [
    [consultant, 403],
    [client, 403],
    [staff, 403],
    [otherAdmin, 404],
  ] as const;

const setBank = (token: string, id: number, body: Record<string, unknown>) =>
  call(t.app, token, 'POST', `/api/candidates/${id}/actions/set_bank_details`, body);

/** A staff member of the demo agency paid by no run here. */
async function unpaidStaff() {
  const [c] = await t.db.query<{ id: number }>(
    `select id from candidates where merchant_id = $1 and deleted_at is null
        and id not in (select candidate_id from payslips) order by id limit 1`,
    [merchantId],
  );
  return c.id;
}

const viewsOf = async (candidateId: number) =>
  (
    await t.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where resource = 'candidates' and record_id = $1 and action = $2`,
      [candidateId, BANK_DETAILS_VIEWED],
    )
  )[0].n;

describe('bank details', () => {
  it('are sealed in the database: neither the row nor its audit trail holds them in the clear', async () => {
    const id = await unpaidStaff();
    const res = await setBank(admin, id, {
      sort_code: '20-45-77',
      account_number: '3141 5926',
      account_name: 'Wilhelmina Quartermaine',
      roll_number: 'ROLL/998877',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.bank_details_masked).toBe(
      'Sort code ending 77, account ending 5926, building society roll number held',
    );
    expect(res.json().data).not.toHaveProperty('bank_details_sealed');
    const [row] = await t.db.query<{ text: string; sealed: string }>(
      `select c::text as text, bank_details_sealed as sealed from candidates c where id = $1`,
      [id],
    );
    expect(row.sealed).toMatch(/^v1\./);
    const trail = await t.db.query<{ text: string }>(
      `select a::text as text from audit_log a where resource = 'candidates' and record_id = $1`,
      [id],
    );
    expect(trail.length).toBeGreaterThan(0);
    for (const text of [row.text, ...trail.map((a) => a.text)])
      for (const plain of ['204577', '20-45-77', '31415926', '3141 5926', 'Wilhelmina', 'Quartermaine', '998877'])
        expect(text).not.toContain(plain);
    // The trail says they were set, and nothing of them.
    const [entry] = await t.db.query<{ changes: Record<string, unknown>; input: unknown }>(
      `select changes, input from audit_log where resource = 'candidates' and record_id = $1 and action = 'set_bank_details'`,
      [id],
    );
    expect(entry.changes).toEqual({
      bank_details_sealed: { from: null, to: 'set' },
      bank_details_masked: { from: null, to: 'set' },
    });
  });

  it('refuse a sort code or account number that is none, in words next to the field, storing nothing', async () => {
    const id = await unpaidStaff();
    const before = await t.db.query('select bank_details_sealed, version from candidates where id = $1', [id]);
    const res = await setBank(admin, id, { sort_code: '12-34-5', account_number: '1234', account_name: 'A Lee' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({ sort_code: SORT_CODE_MESSAGE, account_number: ACCOUNT_NUMBER_MESSAGE });
    expect(await t.db.query('select bank_details_sealed, version from candidates where id = $1', [id])).toEqual(before);
  });

  it('are masked for admins and absent for consultants: in the record, the list, the export and the history', async () => {
    const id = await unpaidStaff();
    const own = await call(t.app, admin, 'GET', `/api/candidates/${id}`);
    expect(own.json().data.bank_details_masked).toMatch(/^Sort code ending 77, account ending 5926/);
    const seen = await call(t.app, consultant, 'GET', `/api/candidates/${id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data).not.toHaveProperty('bank_details_masked');
    expect(seen.json().data).not.toHaveProperty('bank_details_sealed');
    const list = await call(t.app, consultant, 'GET', `/api/candidates?per_page=100&id=${id}`);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('ending 5926');
    const exported = await call(t.app, consultant, 'GET', '/api/candidates/export?format=csv');
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain('ending 5926');
    expect(exported.body).not.toContain('Bank details');
    const history = await call(
      t.app,
      consultant,
      'GET',
      `/api/audit_entries?resource=candidates&record_id=${id}&per_page=100`,
    );
    expect(history.statusCode).toBe(200);
    expect(history.body).not.toContain('5926');
    expect(history.body).not.toContain('v1.');
    // The admin's export has the masked line, never the sealed value.
    const adminExport = await call(t.app, admin, 'GET', '/api/candidates/export?format=csv');
    expect(adminExport.body).toContain('Sort code ending 77, account ending 5926');
    expect(adminExport.body).not.toMatch(/v1\.[0-9a-f]{16}\./);
    // Client users and staff members read no staff record at all.
    for (const token of [client, staff])
      expect((await call(t.app, token, 'GET', `/api/candidates/${id}`)).statusCode).toBe(403);
  });

  it('are read in full by admins only, each view an entry of the staff member’s audit trail', async () => {
    const id = await unpaidStaff();
    const before = await viewsOf(id);
    for (const [token, status] of notAdmins())
      expect((await call(t.app, token, 'GET', `/api/candidates/${id}/bank_details`)).statusCode).toBe(status);
    expect(await viewsOf(id)).toBe(before);
    for (const n of [1, 2]) {
      const res = await call(t.app, admin, 'GET', `/api/candidates/${id}/bank_details`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json().data).toEqual({
        sort_code: '20-45-77',
        account_number: '31415926',
        account_name: 'Wilhelmina Quartermaine',
        roll_number: 'ROLL/998877',
      });
      expect(await viewsOf(id)).toBe(before + n);
    }
    const [entry] = await t.db.query<{ user_name: string; event: string }>(
      `select user_name, event from audit_log where record_id = $1 and action = $2 order by id desc limit 1`,
      [id, BANK_DETAILS_VIEWED],
    );
    expect(entry).toEqual({ user_name: expect.stringMatching(/\S/), event: 'action' });
    // A consultant may not set them either; a staff member without details answers 404 in words.
    expect(
      (await setBank(consultant, id, { sort_code: '11-22-33', account_number: '12345678', account_name: 'X' }))
        .statusCode,
    ).toBe(403);
    const [none] = await t.db.query<{ id: number }>(
      `select id from candidates where merchant_id = $1 and bank_details_sealed is null and deleted_at is null limit 1`,
      [merchantId],
    );
    const missing = await call(t.app, admin, 'GET', `/api/candidates/${none.id}/bank_details`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/has no bank details yet/);
  });
});

/** The CSV as a spreadsheet reads it: header and rows. */
function csv(body: string) {
  const [header, ...rows] = parse(body, { bom: true }) as string[][];
  return { header, rows, col: (row: string[], name: string) => row[header.indexOf(name)] };
}

async function payslipsOf(runId: number) {
  return t.db.query<Record<string, any>>(
    `select p.*, c.first_name, c.last_name from payslips p join candidates c on c.id = p.candidate_id
      where p.pay_run_id = $1 order by p.id`,
    [runId],
  );
}

const file = (token: string, run: number, name: string) =>
  call(t.app, token, 'GET', `/api/pay_runs/${run}/files/${name}`);

describe("the demo's pay runs", () => {
  it('a finalised run of the demo makes its bank payments file: its staff have bank details, entered as an admin does', async () => {
    const [demoRun] = await t.db.query<{ id: number; period_end: string }>(
      `select id, period_end::text from pay_runs where merchant_id = $1 and state = 'finalised' and id <> $2
        order by period_end limit 1`,
      [merchantId, finalised],
    );
    expect(demoRun).toBeDefined();
    const slips = (await payslipsOf(demoRun.id)).filter((s) => Number(s.net) > 0);
    expect(slips.length).toBeGreaterThan(1);
    const res = await file(admin, demoRun.id, 'bank');
    expect(res.statusCode, res.body).toBe(200);
    const { rows, col } = csv(res.body);
    expect(rows).toHaveLength(slips.length);
    // Each net pay; the umbrella company's with its VAT (the demo's umbrella company is registered).
    expect(slips.some((s) => Number(s.vat) > 0)).toBe(true);
    expect(rows.map((r) => Number(col(r, 'Amount'))).sort()).toEqual(
      slips.map((s) => Number(s.amount_paid) / 100).sort(),
    );
    for (const r of rows) {
      expect(col(r, 'Sort code')).toMatch(/^\d{6}$/);
      expect(col(r, 'Account number')).toMatch(/^\d{8}$/);
      expect(col(r, 'Reference')).toBe(`PAY ${demoRun.period_end}`);
    }
    // Entered through the engine's action: sealed, masked on the record, and in each staff member's history.
    const staffIds = [...new Set(slips.map((s) => Number(s.candidate_id)))];
    const entered = await t.db.query<{ id: number; sealed: string; masked: string; actions: number }>(
      `select c.id, c.bank_details_sealed as sealed, c.bank_details_masked as masked,
              (select count(*)::int from audit_log a where a.resource = 'candidates' and a.record_id = c.id
                  and a.action = 'set_bank_details') as actions
         from candidates c where c.id = any($1::int[]) order by c.id`,
      [staffIds],
    );
    expect(entered).toHaveLength(staffIds.length);
    for (const c of entered) {
      expect(c.sealed).toMatch(/^v1\./);
      expect(c.masked).toMatch(/^Sort code ending \d{2}, account ending \d{4}$/);
      expect(c.actions).toBeGreaterThanOrEqual(1);
      for (const r of rows) expect(c.sealed).not.toContain(col(r, 'Account number'));
    }
  });
});

describe("a staff member's own bank details", () => {
  it('are read by the staff member, masked only, their own and nobody else’s', async () => {
    const [me] = await t.db.query<{ id: number }>(
      `select candidate_id as id from users where lower(email) = 'staff@demo.test'`,
    );
    const own = async () => {
      const res = await call(t.app, staff, 'GET', '/api/staff_bank_details');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      return res;
    };
    // The demo's staff member is paid through the demo's runs, so they have bank details: masked.
    expect((await own()).json().data.masked).toMatch(/^Sort code ending \d{2}, account ending \d{4}$/);
    expect(
      (await setBank(admin, me.id, { sort_code: '77-66-56', account_number: '9911 5678', account_name: 'My Own' }))
        .statusCode,
    ).toBe(200);
    // Someone else's changed meanwhile never shows.
    const other = await unpaidStaff();
    expect(
      (await setBank(admin, other, { sort_code: '10-20-99', account_number: '55554321', account_name: 'Not Mine' }))
        .statusCode,
    ).toBe(200);
    const res = await own();
    expect(res.json()).toEqual({ data: { masked: 'Sort code ending 56, account ending 5678' } });
    for (const full of ['776656', '77-66-56', '99115678', '9911 5678', 'My Own', '4321'])
      expect(res.body).not.toContain(full);
    // Everyone else is refused: the route is the staff member's own.
    for (const token of [admin, consultant, client, otherAdmin])
      expect((await call(t.app, token, 'GET', '/api/staff_bank_details')).statusCode).toBe(403);
  });
});

describe("a pay run's files", () => {
  it('the payroll bureau CSV is each PAYE payslip’s gross to net, to the penny', async () => {
    const res = await file(admin, finalised, 'bureau');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const { header, rows, col } = csv(res.body);
    expect(header.slice(0, 4)).toEqual(['Payroll ID', 'Surname', 'Forenames', 'NI number']);
    const slips = (await payslipsOf(finalised)).filter((s) => s.paye);
    expect(slips.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(slips.length);
    const [run] = await t.db.query<{ tax_year: string; tax_period: number; period_end: string }>(
      `select tax_year, tax_period, period_end::text from pay_runs where id = $1`,
      [finalised],
    );
    for (const s of slips) {
      const r = rows.find((x) => col(x, 'Payroll ID') === String(s.candidate_id))!;
      expect(r, `payslip ${s.id}`).toBeDefined();
      const money = (name: string) => Number(col(r, name));
      expect({
        gross: money('Gross pay'),
        taxable: money('Taxable pay'),
        tax: money('Tax'),
        employeeNi: money('Employee NI'),
        employerNi: money('Employer NI'),
        loan: money('Student loan'),
        pension: money('Employee pension'),
        employerPension: money('Employer pension'),
        net: money('Net pay'),
        ytdGross: money('Taxable pay to date'),
        ytdTax: money('Tax to date'),
        ytdNi: money('Employee NI to date'),
      }).toEqual({
        gross: penceToPounds(Number(s.gross)),
        taxable: penceToPounds(Number(s.taxable_pay)),
        tax: penceToPounds(Number(s.tax)),
        employeeNi: penceToPounds(Number(s.employee_ni)),
        employerNi: penceToPounds(Number(s.employer_ni)),
        loan: penceToPounds(Number(s.student_loan)),
        pension: penceToPounds(Number(s.pension_employee)),
        employerPension: penceToPounds(Number(s.pension_employer)),
        net: penceToPounds(Number(s.net)),
        ytdGross: penceToPounds(Number(s.ytd_gross)),
        ytdTax: penceToPounds(Number(s.ytd_tax)),
        ytdNi: penceToPounds(Number(s.ytd_employee_ni)),
      });
      expect([col(r, 'Tax code'), col(r, 'Tax year'), col(r, 'Tax period'), col(r, 'Payment date')]).toEqual([
        s.tax_code ?? '',
        run.tax_year,
        String(run.tax_period),
        run.period_end,
      ]);
      expect(col(r, 'Pay frequency')).toBe('W1');
    }
    // Written by the exports' own CSV writer: a name that looks like a formula is neutralised.
    const s0 = slips[0];
    await fixtureWrite(t.db, 'update candidates set last_name = $2 where id = $1', [s0.candidate_id, '=1+2']);
    try {
      const again = csv((await file(admin, finalised, 'bureau')).body);
      const r = again.rows.find((x) => again.col(x, 'Payroll ID') === String(s0.candidate_id))!;
      expect(again.col(r, 'Surname')).toBe("'=1+2");
    } finally {
      await fixtureWrite(t.db, 'update candidates set last_name = $2 where id = $1', [s0.candidate_id, s0.last_name]);
    }
  });

  it('the bank payments file refuses, naming them, while staff paid have no bank details; then pays each net', async () => {
    const slips = (await payslipsOf(finalised)).filter((s) => Number(s.net) > 0);
    expect(slips.length).toBeGreaterThan(1);
    const refused = await file(admin, finalised, 'bank');
    expect(refused.statusCode).toBe(409);
    // The demo's payroll staff have bank details of their own (the demo's runs are paid through them): the first
    // paid who has none is named.
    const [first] = await t.db.query<{ first_name: string; last_name: string }>(
      `select first_name, last_name from candidates where id = any($1::int[]) and bank_details_sealed is null
        order by id limit 1`,
      [slips.map((s) => Number(s.candidate_id))],
    );
    expect(refused.json().message).toContain(`${first.first_name} ${first.last_name}`);
    expect(refused.json().message).toMatch(/^The bank payments file was not made: \d+ staff members? paid by this run/);
    // Every staff member paid given bank details (one a building society account, whose roll number is its reference).
    const ids = [...new Set(slips.map((s) => Number(s.candidate_id)))];
    for (const [i, id] of ids.entries())
      expect(
        (
          await setBank(admin, id, {
            sort_code: `40-11-${String(10 + i).padStart(2, '0')}`,
            account_number: String(20000000 + i),
            account_name: i === 0 ? 'Zoë O’Brien-Smith & Partners Ltd' : `Staff ${i}`,
            roll_number: i === 0 ? 'RN 12345/6' : null,
          })
        ).statusCode,
      ).toBe(200);
    const counts = async () => {
      const out: number[] = [];
      for (const id of ids) out.push(await viewsOf(id));
      return out;
    };
    const views = await counts();
    const res = await file(admin, finalised, 'bank');
    expect(res.statusCode, res.body).toBe(200);
    const { header, rows, col } = csv(res.body);
    expect(header).toEqual(['Sort code', 'Account number', 'Account name', 'Amount', 'Reference']);
    expect(rows).toHaveLength(slips.length);
    const [run] = await t.db.query<{ period_end: string }>('select period_end::text from pay_runs where id = $1', [
      finalised,
    ]);
    for (const s of slips) {
      const i = ids.indexOf(Number(s.candidate_id));
      const r = rows.find((x) => col(x, 'Account number') === String(20000000 + i))!;
      expect(r).toEqual([
        `4011${String(10 + i).padStart(2, '0')}`,
        String(20000000 + i),
        i === 0 ? 'ZOE O BRIEN-SMITH' : `STAFF ${i}`,
        // Net pay, with the VAT of a VAT-registered company (payroll-self-billed-vat.test.ts).
        (Number(s.amount_paid) / 100).toFixed(2),
        i === 0 ? 'RN 12345/6' : `PAY ${run.period_end}`,
      ]);
    }
    // Each staff member whose details it holds has the file's view in their history.
    expect(await counts()).toEqual(views.map((n) => n + 1));
  });

  it('the self-billing export is each umbrella and limited-company payslip’s gross and VAT, paid to its company', async () => {
    // A finalised run paying an umbrella or limited-company worker (the demo's own runs pay the earliest weeks).
    const [withCompany] = await t.db.query<{ id: number }>(
      `select r.id from pay_runs r where r.merchant_id = $1 and r.state = 'finalised'
          and exists (select 1 from payslips p where p.pay_run_id = r.id and not p.paye) order by r.id limit 1`,
      [merchantId],
    );
    const run = withCompany?.id ?? finalised;
    const res = await file(admin, run, 'self-billing');
    expect(res.statusCode, res.body).toBe(200);
    const { rows, col } = csv(res.body);
    const slips = (await payslipsOf(run)).filter((s) => !s.paye);
    // The demo's umbrella and limited-company workers are paid by the run.
    expect(slips.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(slips.length);
    for (const s of slips) {
      const r = rows.find((x) => col(x, 'Self-billing invoice') === `SB-${String(s.id).padStart(6, '0')}`)!;
      expect(Number(col(r, 'Net'))).toBe(penceToPounds(Number(s.gross)));
      expect(Number(col(r, 'VAT'))).toBe(penceToPounds(Number(s.vat)));
      expect(Number(col(r, 'Total'))).toBe(penceToPounds(Number(s.gross) + Number(s.vat)));
      expect(col(r, 'Supplier')).toBe(s.paid_to);
      expect(col(r, 'VAT number')).toBe(s.vat_number ?? '');
      expect(col(r, 'VAT statement')).toBe(
        s.vat_number
          ? 'The VAT shown is your output tax due to HMRC.'
          : 'No VAT is charged: the supplier is not registered for VAT.',
      );
    }
    // PAYE staff are never in it, nor umbrella workers in the bureau's file.
    const bureau = csv((await file(admin, run, 'bureau')).body);
    expect(bureau.rows).toHaveLength((await payslipsOf(run)).filter((s) => s.paye).length);
  });

  it('are refused for a draft and a cancelled run, and to everyone but the agency’s admins', async () => {
    for (const name of ['bureau', 'bank', 'self-billing']) {
      const res = await file(admin, draft, name);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'This pay run is a draft: its payslips may still change. Approve it, then export its files.',
      );
      for (const [token, status] of notAdmins())
        expect((await file(token, finalised, name)).statusCode, `${name}`).toBe(status);
    }
    expect(
      (await call(t.app, admin, 'POST', `/api/pay_runs/${draft}/actions/cancel`, { reason: 'Test' })).statusCode,
    ).toBe(200);
    const cancelled = await file(admin, draft, 'bank');
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().message).toBe('This pay run is cancelled: it pays nothing, so it has no files.');
    // Each file exported is in the run's history.
    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where resource = 'pay_runs' and record_id = $1 and action = 'file_exported'`,
      [finalised],
    );
    expect(n).toBeGreaterThanOrEqual(3);
  });
});

describe("the bank details' key", () => {
  it('is the one every process on the database agrees on: another key refuses to start, in words', async () => {
    await agreeOnKey(t.db, sealer());
    // Again with the same key (a second process sharing it, a restart): fine.
    await agreeOnKey(t.db, sealer());
    await expect(agreeOnKey(t.db, sealerOf(randomBytes(32)))).rejects.toThrow(
      /This database's bank details were sealed with another key than this server's .* set BANK_DETAILS_KEY/,
    );
  });
});
