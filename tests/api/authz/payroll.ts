import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, ownedByStaff, row } from './principals';
import { call, fixtureWrite } from '../helpers';

/**
 * Payroll (issue 33): pay and deductions are the agency's. Gross to net: agency users of either agency calculate
 * (nothing of a record is named); client users and staff members are refused. Pay runs (issue 33.2): admins run,
 * approve, finalise, cancel and resume (a run being made); consultants read; client users never see payroll (403:
 * no role of theirs is granted); a staff member reads their own finalised payslips and their lines (404 for anyone
 * else's), never a run.
 */
/** A run with its payslips; `made: false` is a run still being made (its job would pay the rest). */
const run = async (ctx: AuthzContext, merchantId: number, state: string, candidates: number[], made = true) => {
  const [r] = await fixtureWrite<{ id: number }>(
    ctx.t.db,
    `insert into pay_runs (merchant_id, period_start, period_end, frequency, tax_year, tax_period, state, staff_count, gross, net,
                           employer_costs, candidates, candidates_done, finished_at)
     values ($1, '2026-11-02', '2026-11-08', 'weekly', '2026-27', 31, $2, $3, 0, 0, 0, $4, $3,
             case when $5 then now() end) returning id`,
    [merchantId, state, candidates.length, candidates, made],
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

/** A booked holiday of a staff member, written directly (the matrix's fixture: no balance is checked). */
const holiday = async (ctx: AuthzContext, merchantId: number, candidateId: number) => {
  const [h] = await fixtureWrite<{ id: number }>(
    ctx.t.db,
    `insert into staff_holidays (merchant_id, candidate_id, starts_on, ends_on, hours, state)
     values ($1, $2, '2026-12-07', '2026-12-07', 1, 'booked') returning id`,
    [merchantId, candidateId],
  );
  return h.id;
};

/**
 * A staff member of agency A whose employment type accrues holiday, with 100 hours banked by an approved run: what
 * the admin's POST of holiday taken needs.
 */
const accruingStaff = async (ctx: AuthzContext) => {
  const candidate = await otherStaff(ctx, ctx.ids.merchantA);
  const [type] = await fixtureWrite<{ id: number }>(
    ctx.t.db,
    `insert into employment_types (merchant_id, name, paye, holiday_pay) values ($1, 'Authz accrues', true, 'accrued')
     returning id`,
    [ctx.ids.merchantA],
  );
  await fixtureWrite(ctx.t.db, 'update candidates set employment_type_id = $2 where id = $1', [candidate, type.id]);
  const banked = await run(ctx, ctx.ids.merchantA, 'approved', [candidate]);
  await fixtureWrite(ctx.t.db, 'update payslips set holiday_hours_accrued = 100 where id = $1', [banked.slips[0]]);
  return candidate;
};

/** A staff member with bank details in each agency (not ctx.shared: its keys are resources). */
const banked = { a: 0, b: 0 };
const BANK = { sort_code: '12-34-56', account_number: '12345678', account_name: 'Authz Account' };

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
    runAction('resume'),

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
    // A draft's adjustment: admins only; staff never adjust their own pay.
    ownedByStaff(row('POST', '/api/payslips/:id/actions/adjust', A, 'ok', F, F, F, N, F, A), F),
    // A finalised payslip e-mailed again: admins only; a staff member reads theirs on their page instead.
    ownedByStaff(row('POST', '/api/payslips/:id/actions/resend_email', A, 'ok', F, F, F, N, F, A), F),

    // Deductions and pending adjustments are the agency's: admins write, consultants read, nobody else sees them.
    row('GET', '/api/staff_deductions', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('GET', '/api/staff_deductions/:id', A, 'ok', 'ok', F, F, N, F, A),
    row('POST', '/api/staff_deductions', A, 'ok', F, F, F, 'ok', F, A),
    row('PUT', '/api/staff_deductions/:id', A, 'ok', F, F, F, N, F, A),
    row('DELETE', '/api/staff_deductions/:id', A, 'ok', F, F, F, N, F, A),
    row('GET', '/api/staff_deductions/export', A, 'ok', F, F, F, 'ok', F, A),
    row('GET', '/api/payroll_adjustments', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('GET', '/api/payroll_adjustments/:id', A, 'ok', 'ok', F, F, N, F, A),
    row('POST', '/api/payroll_adjustments', A, 'ok', F, F, F, 'ok', F, A),
    row('PUT', '/api/payroll_adjustments/:id', A, F, F, F, F, F, F, A),
    row('DELETE', '/api/payroll_adjustments/:id', A, F, F, F, F, F, F, A),
    row('GET', '/api/payroll_adjustments/export', A, 'ok', F, F, F, 'ok', F, A),
    // Self-billing agreements are the agency's too: admins write, consultants read, client users and staff never.
    row('GET', '/api/self_billing_agreements', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('GET', '/api/self_billing_agreements/:id', A, 'ok', 'ok', F, F, N, F, A),
    row('POST', '/api/self_billing_agreements', A, 'ok', F, F, F, 'ok', F, A),
    row('PUT', '/api/self_billing_agreements/:id', A, 'ok', F, F, F, N, F, A),
    row('DELETE', '/api/self_billing_agreements/:id', A, 'ok', F, F, F, N, F, A),
    row('GET', '/api/self_billing_agreements/export', A, 'ok', F, F, F, 'ok', F, A),

    // Holiday taken (accruing employment types): admins record and cancel it, consultants read it, a staff member
    // reads their own; the other agency's admin cannot name agency A's staff member (422).
    row('GET', '/api/staff_holidays', A, 'ok', 'ok', F, F, 'ok', 'ok', A),
    ownedByStaff(row('GET', '/api/staff_holidays/:id', A, 'ok', 'ok', F, F, N, N, A), 'ok'),
    row('POST', '/api/staff_holidays', A, 201, F, F, F, 422, F, A),
    ownedByStaff(row('PUT', '/api/staff_holidays/:id', A, 'ok', F, F, F, N, F, A), F),
    ownedByStaff(row('DELETE', '/api/staff_holidays/:id', A, F, F, F, F, F, F, A), F),
    ownedByStaff(row('POST', '/api/staff_holidays/:id/actions/cancel', A, 'ok', F, F, F, N, F, A), F),

    // Bank details: admins set and read them in full (each view audited); nobody else, not the staff member either.
    ownedByStaff(row('POST', '/api/candidates/:id/actions/set_bank_details', A, 'ok', F, F, F, N, F, A), F),
    ownedByStaff(row('GET', '/api/candidates/:id/bank_details', A, 'ok', F, F, F, N, F, A), F),
    // …but a staff member reads their own, masked only (their phone page), and nobody else's.
    row('GET', '/api/staff_bank_details', A, F, F, F, F, F, 'ok', A),
    // A run's files: admins of its agency only.
    ...(['bureau', 'bank', 'self-billing'] as const).map((f) =>
      row('GET', `/api/pay_runs/:id/files/${f}`, A, 'ok', F, F, F, N, F, A),
    ),
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
    for (const [merchantId, into] of [
      [ctx.ids.merchantA, ctx.shared],
      [ctx.ids.merchantB, ctx.sharedB],
    ] as const) {
      const candidateId = await otherStaff(ctx, merchantId);
      const [d] = await fixtureWrite<{ id: number }>(
        ctx.t.db,
        `insert into staff_deductions (merchant_id, candidate_id, description, method, amount, start_date)
         values ($1, $2, 'Authz loan', 'fixed', 500, '2026-11-02') returning id`,
        [merchantId, candidateId],
      );
      into.staff_deductions = d.id;
      const [a] = await fixtureWrite<{ id: number }>(
        ctx.t.db,
        `insert into payroll_adjustments (merchant_id, candidate_id, kind, amount, reason)
         values ($1, $2, 'addition', 500, 'Authz correction') returning id`,
        [merchantId, candidateId],
      );
      into.payroll_adjustments = a.id;
      const [sba] = await fixtureWrite<{ id: number }>(
        ctx.t.db,
        `insert into self_billing_agreements (merchant_id, candidate_id, start_date, end_date, reference)
         values ($1, $2, '2026-01-01', '2026-12-31', 'Authz agreement') returning id`,
        [merchantId, candidateId],
      );
      into.self_billing_agreements = sba.id;
    }
    // Bank details for agency A's run's staff (its bank file pays them) and agency B's staff member.
    for (const [token, slips] of [
      [ctx.setup, a.slips],
      [ctx.setupB, b.slips],
    ] as const)
      for (const slip of slips) {
        const [{ candidate_id }] = await ctx.t.db.query<{ candidate_id: number }>(
          'select candidate_id from payslips where id = $1',
          [slip],
        );
        await ctx.must(
          await call(ctx.t.app, token, 'POST', `/api/candidates/${candidate_id}/actions/set_bank_details`, BANK),
        );
        if (token === ctx.setup && slip === a.slips[0]) banked.a = candidate_id;
        if (token === ctx.setupB) banked.b = candidate_id;
      }
    ctx.shared.accruing = await accruingStaff(ctx);
    ctx.shared.staff_holidays = await holiday(ctx, ctx.ids.merchantA, Number(ctx.shared.accruing));
    ctx.ownedByStaff.staff_holidays = await holiday(ctx, ctx.ids.merchantA, me.candidate_id);
    ctx.sharedB.staff_holidays = await holiday(ctx, ctx.ids.merchantB, await otherStaff(ctx, ctx.ids.merchantB));
  },
  createBody: {
    pay_runs: async () => ({}),
    payslips: async () => ({}),
    payslip_lines: async () => ({}),
    // Each agency's admin for a staff member of their own.
    staff_deductions: async (ctx, token) => ({
      candidate_id: await otherStaff(ctx, token === ctx.tokens.otherAdmin ? ctx.ids.merchantB : ctx.ids.merchantA),
      description: 'Authz loan',
      method: 'fixed',
      amount: 500,
      start_date: '2026-11-02',
    }),
    payroll_adjustments: async (ctx, token) => ({
      candidate_id: await otherStaff(ctx, token === ctx.tokens.otherAdmin ? ctx.ids.merchantB : ctx.ids.merchantA),
      kind: 'addition',
      amount: 500,
      reason: 'Authz correction',
    }),
    self_billing_agreements: async (ctx, token) => ({
      candidate_id: await otherStaff(ctx, token === ctx.tokens.otherAdmin ? ctx.ids.merchantB : ctx.ids.merchantA),
      start_date: '2026-11-02',
      end_date: '2027-11-01',
      reference: 'Authz agreement',
    }),
    staff_holidays: async (ctx) => ({
      candidate_id: ctx.shared.accruing,
      starts_on: '2026-12-14',
      ends_on: '2026-12-14',
      hours: 0.5,
    }),
  },
  fresh: {
    'pay_runs approve': async (ctx) =>
      (await run(ctx, ctx.ids.merchantA, 'draft', [await otherStaff(ctx, ctx.ids.merchantA)])).id,
    'pay_runs finalise': async (ctx) =>
      (await run(ctx, ctx.ids.merchantA, 'approved', [await otherStaff(ctx, ctx.ids.merchantA)])).id,
    'pay_runs cancel': async (ctx) => (await run(ctx, ctx.ids.merchantA, 'draft', [])).id,
    'payslips adjust': async (ctx) =>
      (await run(ctx, ctx.ids.merchantA, 'draft', [await otherStaff(ctx, ctx.ids.merchantA)])).slips[0],
    'payslips resend_email': async (ctx) =>
      (await run(ctx, ctx.ids.merchantA, 'finalised', [await otherStaff(ctx, ctx.ids.merchantA)])).slips[0],
    'pay_runs resume': async (ctx) => (await run(ctx, ctx.ids.merchantA, 'draft', [], false)).id,
    pay_runs: async (ctx) => Number(ctx.shared.pay_runs),
    payslips: async (ctx) => Number(ctx.shared.payslips),
    payslip_lines: async (ctx) => Number(ctx.shared.payslip_lines),
    'staff_holidays cancel': async (ctx) => holiday(ctx, ctx.ids.merchantA, Number(ctx.shared.accruing)),
    staff_holidays: async (ctx) => Number(ctx.shared.staff_holidays),
  },
  actionInput: {
    // A preview: the matrix's run pays nothing of the demo's.
    'pay_runs generate': { frequency: 'weekly', from: '2026-11-02', to: '2026-11-08', preview: true },
    'pay_runs cancel': { reason: 'Authz test' },
    'payslips adjust': { kind: 'addition', amount: 100, reason: 'Authz test' },
    'candidates set_bank_details': BANK,
  },
  requests: {
    'GET /api/candidates/:id/bank_details': (_ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/candidates/${otherAgency ? banked.b : banked.a}/bank_details`,
    }),
    ...Object.fromEntries(
      ['bureau', 'bank', 'self-billing'].map((f) => [
        `GET /api/pay_runs/:id/files/${f}`,
        (ctx: AuthzContext, _p: unknown, otherAgency: boolean) => ({
          method: 'GET' as const,
          url: `/api/pay_runs/${otherAgency ? ctx.sharedB.pay_runs : ctx.shared.pay_runs}/files/${f}`,
        }),
      ]),
    ),
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
