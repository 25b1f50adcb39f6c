import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, monday, type DemoIds } from './timesheetKit';
import { payrollKit } from './payrollKit';
import { addDaysToDate, daysBetween } from '../../core/domain/time/agencyTime';
import { payslipView, WEEK_53 } from '../../core/domain/payroll/payslipView';
import { pdfTextOf } from '../pdfText';

// Tax week 53 (issue 33): a weekly pay run whose pay day (the period's last day) is Sunday 5 April 2026 is in tax
// week 53 of 2025-26. It is made, approved and finalised like any other; its PAYE is worked on a week 1 basis (this
// week's pay alone, week 1's free pay), NI at the usual weekly thresholds, and the year to date goes on. Expected
// figures are HMRC's week 1 pay adjustment for 1257L (£241.92, Tables A) and the published 2025-26 rates, worked by
// hand in the comments.
let t: TestApp;
let admin: string;
let ids: DemoIds;
const { staffOn, verifiedShift } = payrollKit(() => ({ t, admin, ids }));

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
/** How many weeks back from this week the week starting `day` (a Monday) is. */
const weeksBackTo = (day: string) => daysBetween(day, monday(0)) / 7;

beforeAll(async () => {
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
  ids = await demoIds(t);
});
afterAll(() => t?.close());

describe('a pay run in tax week 53', () => {
  it('finalises with week 53 taxed on a week 1 basis after a finalised week 52', async () => {
    // Accrued holiday: no rolled-up holiday line, so the week's gross is its one line's pay.
    const who = await staffOn({ name: 'Week fifty-three', paye: true, holiday_pay: 'accrued' });
    await fixtureWrite(
      t.db,
      `update candidates set tax_code = '1257L', tax_week1 = false, ni_category = 'A' where id = $1`,
      [who],
    );
    /** A run of `who` alone for the week starting `from`, its one line paying £500, approved and finalised. */
    const paidWeek = async (from: string) => {
      const line = await verifiedShift(who, weeksBackTo(from));
      await fixtureWrite(t.db, 'update timesheet_lines set pay = 50000 where id = $1', [line.id]);
      const made = await ok(
        await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
          frequency: 'weekly',
          from,
          to: addDaysToDate(from, 6),
          candidate_ids: [who],
        }),
      );
      expect(made.run_id).toEqual(expect.any(Number));
      for (const action of ['approve', 'finalise'])
        await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${made.run_id}/actions/${action}`, {}));
      const [run] = await t.db.query<{ state: string; tax_year: string; tax_period: number }>(
        'select state, tax_year, tax_period from pay_runs where id = $1',
        [made.run_id],
      );
      const [slip] = await t.db.query<Record<string, string>>(
        `select gross, taxable_pay, tax, employee_ni, employer_ni, pension_employee, net, ytd_gross, ytd_tax from payslips
          where pay_run_id = $1 and candidate_id = $2`,
        [made.run_id, who],
      );
      const figures = Object.fromEntries(Object.entries(slip).map(([k, v]) => [k, Number(v)]));
      const [{ id: slipId }] = await t.db.query<{ id: number }>(
        'select id from payslips where pay_run_id = $1 and candidate_id = $2',
        [made.run_id, who],
      );
      return { id: made.run_id as number, run, slip: figures, slipId };
    };

    // Week 52 (pay day Sunday 29 March 2026), cumulative: 52 weeks' free pay (52 × £241.92 =
    // £12,579.84) covers the year's first £500, so no tax. NI 2025-26 weekly: (£500 − £242) × 8% = £20.64 and the
    // employer's (£500 − £96) × 15% = £60.60.
    const week52 = await paidWeek('2026-03-23');
    expect(week52.run).toEqual({ state: 'finalised', tax_year: '2025-26', tax_period: 52 });
    expect(week52.slip).toMatchObject({ gross: 50000, tax: 0, employee_ni: 2064, employer_ni: 6060 });

    // Week 53 (pay day Sunday 5 April 2026): week 1's free pay alone, whatever went before: £500 − £241.92 → £258 at
    // 20% = £51.60 (cumulatively, 53 weeks' free pay would have left £1,000 to date untaxed). NI as every week.
    const week53 = await paidWeek('2026-03-30');
    expect(week53.run).toEqual({ state: 'finalised', tax_year: '2025-26', tax_period: 53 });
    expect(week53.slip).toEqual({
      gross: 50000,
      // Pay for tax (nothing taken before tax): the £258 taxed is its less week 1's free pay.
      taxable_pay: 50000,
      tax: 5160,
      employee_ni: 2064,
      employer_ni: 6060,
      // Auto-enrolment at the usual weekly levels: 5% (the staff member's default) of £500 − £120 = £19.
      pension_employee: 1900,
      net: 50000 - 5160 - 2064 - 1900,
      // The year to date goes on through week 53: both weeks' pay and tax.
      ytd_gross: 100000,
      ytd_tax: 5160 + week52.slip.tax,
    });

    // The payroll bureau's CSV says it is a week 53 payment, as the FPS must.
    const res = await call(t.app, admin, 'GET', `/api/pay_runs/${week53.id}/files/bureau`);
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = parse(res.body, { bom: true }) as string[][];
    const row = rows.find((r) => r[header.indexOf('Payroll ID')] === String(who))!;
    expect([row[header.indexOf('Tax period')], row[header.indexOf('Week 53')], row[header.indexOf('Tax')]]).toEqual([
      '53',
      '53',
      '51.6',
    ]);

    // The payslip says so, in its kept PDF and as the staff member's phone reads it (payslipView); week 52's does not.
    const slip53 = await ok(await call(t.app, admin, 'GET', `/api/payslips/${week53.slipId}`));
    expect(slip53.tax_period).toBe(53);
    expect(payslipView(slip53, [], '').basis).toBe(`Tax code 1257L · NI category A · ${WEEK_53}`);
    const slip52 = await ok(await call(t.app, admin, 'GET', `/api/payslips/${week52.slipId}`));
    expect(payslipView(slip52, [], '').basis).toBe('Tax code 1257L · NI category A');
    const printed = async (slipId: number) => {
      const pdf = await call(t.app, admin, 'GET', `/api/payslips/${slipId}/pdf`);
      expect(pdf.statusCode, pdf.body).toBe(200);
      return pdfTextOf(pdf.rawPayload).replace(/\s+/g, ' ');
    };
    expect(await printed(week53.slipId)).toContain(WEEK_53);
    expect(await printed(week52.slipId)).not.toContain('Tax week 53');
  });
});
