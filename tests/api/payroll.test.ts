import type { FastifyInstance } from 'fastify';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// POST /api/payroll/calculate (issue 33.1): gross to net over HTTP, in pence, agency users only, bad input in words.
// The expected figures are the ones worked by hand in tests/unit/domain/payroll.test.ts from the published rates.
let t: TestApp;
let app: FastifyInstance;
let admin: string;
let consultant: string;
let client: string;
let staff: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  app = t.app;
  [admin, consultant, client, staff] = await Promise.all([
    loginAs(app, 'admin'),
    loginAs(app, 'consultant'),
    loginAs(app, 'client'),
    loginAs(app, 'staff'),
  ]);
});
afterAll(() => t?.close());

const body = {
  tax_year: '2026-27',
  frequency: 'monthly',
  period: 1,
  gross: 300_000,
  tax_code: '1257L',
  week1: false,
  ytd_gross: 0,
  ytd_tax: 0,
  ni_category: 'A',
  student_loan_plans: ['plan2'],
  pension: { employee_percent: 5, employer_percent: 3, opted_out: false },
};
const calculate = (payload: unknown, token = admin) => call(app, token, 'POST', '/api/payroll/calculate', payload);

describe('POST /api/payroll/calculate', () => {
  it('answers gross to net in pence: a month of £3,000 on 1257L, A, plan 2 and a 5% / 3% pension', async () => {
    const res = await calculate(body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      tax_year: '2026-27',
      gross: 300_000,
      tax: 39_020,
      employee_ni: 15_616,
      employer_ni: 38_745,
      student_loan: 4_900,
      student_loans: { plan2: 4_900 },
      pension_employee: 12_400,
      pension_employer: 7_440,
      net: 228_064,
      week1: false,
      pay_adjustment: 104_826,
      taxable_pay: 195_100,
      tax_due: 39_020,
      regulatory_limit_applied: false,
      qualifying_earnings: 248_000,
      ytd_gross: 300_000,
      ytd_tax: 39_020,
    });
  });

  it('carries the year to date: a refund in a month without pay, a Scottish code, a K code held at half the pay', async () => {
    const refund = await calculate({
      ...body,
      period: 2,
      gross: 0,
      ytd_gross: 200_000,
      ytd_tax: 19_020,
      student_loan_plans: [],
    });
    expect(refund.json()).toMatchObject({ tax: -19_020, net: 19_020, ytd_tax: 0 });
    const scottish = await calculate({ ...body, gross: 200_000, tax_code: 'S1257L' }, consultant);
    expect(scottish.json()).toMatchObject({ tax: 18_689 });
    const k = await calculate({ ...body, gross: 100_000, tax_code: 'K5000', student_loan_plans: [] });
    expect(k.json()).toMatchObject({ tax: 50_000, tax_due: 143_846, regulatory_limit_applied: true });
    const w1 = await calculate({ ...body, period: 7, tax_code: '1257L M1', ytd_gross: 3_000_000, ytd_tax: 500_000 });
    expect(w1.json()).toMatchObject({ week1: true, tax: 39_020, ytd_tax: 539_020 });
  });

  it.each([
    [{ tax_code: '1257Q' }, 'tax_code', /not a tax code/],
    [{ tax_code: 'D2' }, 'tax_code', /D0 to D1/],
    [{ frequency: 'weekly', period: 54 }, 'period', /from 1 to 53/],
    [{ period: 13 }, 'period', /from 1 to 12/],
    [{ tax_year: '2027-28' }, 'tax_year', /2025-26 or 2026-27/],
    [{ tax_year: '2025-26', student_loan_plans: ['plan5'] }, 'student_loan_plans', /April 2026/],
  ])('refuses %j with 422 naming %s in words', async (change, field, words) => {
    const res = await calculate({ ...body, ...change });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual({ [field]: expect.stringMatching(words) });
  });

  it('names every field it cannot take at once, and takes no body that is not an object', async () => {
    const res = await calculate({ ...body, tax_code: '', period: 'one', gross: -1 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['gross', 'period', 'tax_code']);
    const none = await calculate([1, 2]);
    expect(none.statusCode).toBe(422);
  });

  it('is for agency users only: client users and staff members are refused', async () => {
    expect((await calculate(body, client)).statusCode).toBe(403);
    expect((await calculate(body, staff)).statusCode).toBe(403);
    expect((await call(app, undefined, 'POST', '/api/payroll/calculate', body)).statusCode).toBe(401);
  });
});
