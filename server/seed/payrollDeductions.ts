// The demo's staff deductions and a one-off pay adjustment (issue 33), made through the engine as the agency would:
// a uniform loan of £60 taken £10 a pay day (a recurring deduction with a cap) from the staff member with the most
// payable hours, and a one-off addition for a missed mileage claim waiting for their next run. Between the two, the
// demo's pay runs (server/seed/payRuns.ts): the loan started before the weeks they pay, so their payslips take it;
// the mileage was found two days ago, after them, and waits for the next run.
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EnginePrincipal } from '../engine/context.js';
import { systemPrincipal, withEngine } from '../engine/handle.js';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime.js';
import { seedPayRuns } from './payRuns.js';

/** Whom the demo's deduction and adjustment are for: the staff member paid most often (the demo's runs pay them). */
async function busiestStaff(db: Queryable, merchantId: number): Promise<number | null> {
  const [row] = await db.query<{ candidate_id: number }>(
    `select candidate_id from timesheet_lines where merchant_id = $1 and status in ('signed', 'verified')
        and candidate_id is not null group by candidate_id order by count(*) desc, candidate_id limit 1`,
    [merchantId],
  );
  return row ? Number(row.candidate_id) : null;
}

export async function seedPayrollDeductions(db: Queryable, ctx: SeedContext) {
  await seedPayrollDeductionsAndRuns(db, ctx);
  await seedSelfBillingAgreements(db, ctx);
}

/**
 * The demo's self-billing agreements (issue 33), recorded by its admin through the engine: one with each umbrella or
 * limited-company worker's company, signed about ten months ago for 12 months; the first limited-company worker's
 * ended a week ago (not yet renewed), so a pay run's preview warns of it and its self-billing export says so, and
 * the next one's ends in a fortnight, at the top of the agreements list (by end date).
 */
async function seedSelfBillingAgreements(db: Queryable, ctx: SeedContext) {
  const workers = await db.query<{ id: number }>(
    `select c.id from candidates c
       join employment_types e on e.merchant_id = c.merchant_id and e.id = c.employment_type_id
      where c.merchant_id = $1 and e.paye = false and c.company_name is not null and c.deleted_at is null
      order by (e.name = 'Umbrella company'), c.id`,
    [ctx.merchantId],
  );
  if (!workers.length) return;
  const admin: EnginePrincipal = { ...systemPrincipal(ctx.merchantId), userId: ctx.adminId, name: ctx.adminName };
  const today = agencyToday(ctx.timeZone, new Date());
  const { engine } = withEngine({ db, principal: admin, now: new Date(), timeZone: ctx.timeZone, today }, ctx.engine);
  await engine.createMany(
    'self_billing_agreements',
    workers.map((w, i) => {
      const start = addDaysToDate(today, i === 0 ? -372 : -300);
      const end = i === 0 ? addDaysToDate(today, -7) : i === 1 ? addDaysToDate(today, 14) : addDaysToDate(start, 364);
      return {
        candidate_id: w.id,
        start_date: start,
        end_date: end,
        reference: `SBA-${String(i + 1).padStart(3, '0')}`,
      };
    }),
    { reason: 'Self-billing agreement signed' },
  );
}

async function seedPayrollDeductionsAndRuns(db: Queryable, ctx: SeedContext) {
  const candidateId = await busiestStaff(db, ctx.merchantId);
  if (candidateId === null) return seedPayRuns(db, ctx, null);
  const admin: EnginePrincipal = { ...systemPrincipal(ctx.merchantId), userId: ctx.adminId, name: ctx.adminName };
  const now = Date.now();
  const as = (daysAgo: number) => {
    const when = new Date(now - daysAgo * 86_400_000);
    const today = agencyToday(ctx.timeZone, when);
    return withEngine({ db, principal: admin, now: when, timeZone: ctx.timeZone, today }, ctx.engine);
  };
  const started = as(60);
  await started.engine.create('staff_deductions', {
    candidate_id: candidateId,
    description: 'Uniform loan',
    method: 'fixed',
    amount: 1_000,
    before_tax: false,
    recurring: true,
    start_date: started.today,
    cap: 6_000,
  });
  await seedPayRuns(db, ctx, candidateId);
  await as(2).engine.create('payroll_adjustments', {
    candidate_id: candidateId,
    kind: 'addition',
    amount: 2_340,
    reason: 'Mileage missed from an earlier week (52 miles at 45p)',
  });
}
