import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, ownedByStaff, row } from './principals';
import { fixtureWrite } from '../helpers';

/**
 * Payroll (issue 33): pay and deductions are the agency's. Gross to net: agency users of either agency calculate
 * (nothing of a record is named); client users and staff members are refused. Pay runs (issue 33.2): admins run,
 * approve, finalise and cancel; consultants read; client users never see payroll (403: no role of theirs is granted);
 * a staff member reads their own finalised payslips and their lines (404 for anyone else's), never a run.
 */
const run = async (ctx: AuthzContext, merchantId: number, state: string, candidates: number[]) => {
  const [r] = await fixtureWrite<{ id: number }>(
    ctx.t.db,
    `insert into pay_runs (merchant_id, period_start, period_end, frequency, tax_year, tax_period, state, staff_count, gross, net, employer_costs)
     values ($1, '2026-11-02', '2026-11-08', 'weekly', '2026-27', 31, $2, $3, 0, 0, 0) returning id`,
    [merchantId, state, candidates.length],
  );
  const slips: number[] = [];
  for (const c of candidates) {
    const [p] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into payslips (merchant_id, pay_run_id, candidate_id, state, period_start, period_end, paye, tax_code, ni_category,
                             gross, holiday_pay, tax, employee_ni, employer_ni, student_loan, pension_employee, pension_employer,
                             net, employer_cost, ytd_gross, ytd_tax, ytd_employee_ni)
       values ($1, $2, $3, $4, '2026-11-02', '2026-11-08', true, '1257L', 'A', 10000, 0, 0, 0, 0, 0, 0, 0, 10000, 0, 10000, 0, 0)
       returning id`,
      [merchantId, r.id, c, state === 'finalised' ? 'finalised' : 'draft'],
    );
    await fixtureWrite(
      ctx.t.db,
      `insert into payslip_lines (merchant_id, payslip_id, kind, description, hours, rate, amount)
       values ($1, $2, 'pay', 'Authz pay', 8, 1250, 10000)`,
      [merchantId, p.id],
    );
    slips.push(p.id);
  }
  return { id: r.id, slips };
};

const otherStaff = async (ctx: AuthzContext, merchantId: number) => {
  const [c] = await ctx.t.db.query<{ id: number }>(
    `select id from candidates where merchant_id = $1 and deleted_at is null
        and id not in (select candidate_id from users where candidate_id is not null) order by id limit 1`,
    [merchantId],
  );
  return c.id;
};

const runAction = (name: string) => row('POST', `/api/pay_runs/:id/actions/${name}`, A, 'ok', F, F, F, N, F, A);

export const payroll: AuthzArea = {
  rows: [
    row('POST', '/api/payroll/calculate', A, 'ok', 'ok', F, F, 'ok', F, A),

    row('GET', '/api/pay_runs', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('GET', '/api/pay_runs/:id', A, 'ok', 'ok', F, F, N, F, A),
    row('POST', '/api/pay_runs', A, F, F, F, F, F, F, A),
    row('PUT', '/api/pay_runs/:id', A, F, F, F, F, F, F, A),
    row('DELETE', '/api/pay_runs/:id', A, F, F, F, F, F, F, A),
    row('GET', '/api/pay_runs/export', A, 'ok', F, F, F, 'ok', F, A),
    row('POST', '/api/pay_runs/actions/generate', A, 'ok', F, F, F, 'ok', F, A),
    runAction('approve'),
    runAction('finalise'),
    runAction('cancel'),

    row('GET', '/api/payslips', A, 'ok', 'ok', F, F, 'ok', 'ok', A),
    ownedByStaff(row('GET', '/api/payslips/:id', A, 'ok', 'ok', F, F, N, N, A), 'ok'),
    row('POST', '/api/payslips', A, F, F, F, F, F, F, A),
    ownedByStaff(row('PUT', '/api/payslips/:id', A, F, F, F, F, F, F, A), F),
    ownedByStaff(row('DELETE', '/api/payslips/:id', A, F, F, F, F, F, F, A), F),
    row('GET', '/api/payslips/export', A, 'ok', F, F, F, 'ok', F, A),
    ownedByStaff(row('GET', '/api/payslips/:id/pdf', A, 'ok', 'ok', F, F, N, N, A), 'ok'),

    row('GET', '/api/payslip_lines', A, 'ok', 'ok', F, F, 'ok', 'ok', A),
    ownedByStaff(row('GET', '/api/payslip_lines/:id', A, 'ok', 'ok', F, F, N, N, A), 'ok'),
    row('POST', '/api/payslip_lines', A, F, F, F, F, F, F, A),
    ownedByStaff(row('PUT', '/api/payslip_lines/:id', A, F, F, F, F, F, F, A), F),
    ownedByStaff(row('DELETE', '/api/payslip_lines/:id', A, F, F, F, F, F, F, A), F),
  ],
  async prepare(ctx) {
    const [me] = await ctx.t.db.query<{ candidate_id: number }>(
      `select candidate_id from users where lower(email) = 'staff@demo.test'`,
    );
    // A finalised run paying someone else and the staff principal (their own payslip for the staffOwn outcomes).
    const a = await run(ctx, ctx.ids.merchantA, 'finalised', [
      await otherStaff(ctx, ctx.ids.merchantA),
      me.candidate_id,
    ]);
    ctx.shared.pay_runs = a.id;
    ctx.shared.payslips = a.slips[0];
    ctx.ownedByStaff.payslips = a.slips[1];
    const [line] = await ctx.t.db.query<{ id: number }>('select id from payslip_lines where payslip_id = $1', [
      a.slips[0],
    ]);
    ctx.shared.payslip_lines = line.id;
    const [own] = await ctx.t.db.query<{ id: number }>('select id from payslip_lines where payslip_id = $1', [
      a.slips[1],
    ]);
    ctx.ownedByStaff.payslip_lines = own.id;
    const b = await run(ctx, ctx.ids.merchantB, 'draft', [await otherStaff(ctx, ctx.ids.merchantB)]);
    ctx.sharedB.pay_runs = b.id;
    ctx.sharedB.payslips = b.slips[0];
    const [lineB] = await ctx.t.db.query<{ id: number }>('select id from payslip_lines where payslip_id = $1', [
      b.slips[0],
    ]);
    ctx.sharedB.payslip_lines = lineB.id;
  },
  createBody: {
    pay_runs: async () => ({}),
    payslips: async () => ({}),
    payslip_lines: async () => ({}),
  },
  fresh: {
    'pay_runs approve': async (ctx) =>
      (await run(ctx, ctx.ids.merchantA, 'draft', [await otherStaff(ctx, ctx.ids.merchantA)])).id,
    'pay_runs finalise': async (ctx) =>
      (await run(ctx, ctx.ids.merchantA, 'approved', [await otherStaff(ctx, ctx.ids.merchantA)])).id,
    'pay_runs cancel': async (ctx) => (await run(ctx, ctx.ids.merchantA, 'draft', [])).id,
    pay_runs: async (ctx) => Number(ctx.shared.pay_runs),
    payslips: async (ctx) => Number(ctx.shared.payslips),
    payslip_lines: async (ctx) => Number(ctx.shared.payslip_lines),
  },
  actionInput: {
    // A preview: the matrix's run pays nothing of the demo's.
    'pay_runs generate': { frequency: 'weekly', from: '2026-11-02', to: '2026-11-08', preview: true },
    'pay_runs cancel': { reason: 'Authz test' },
  },
  requests: {
    'GET /api/payslips/:id/pdf': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/payslips/${otherAgency ? ctx.sharedB.payslips : ctx.shared.payslips}/pdf`,
    }),
    'POST /api/payroll/calculate': () => ({
      method: 'POST',
      url: '/api/payroll/calculate',
      payload: {
        tax_year: '2026-27',
        frequency: 'weekly',
        period: 1,
        gross: 50_000,
        tax_code: '1257L',
        week1: false,
        ytd_gross: 0,
        ytd_tax: 0,
        ni_category: 'A',
      },
    }),
  },
};
