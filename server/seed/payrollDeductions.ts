// The demo's staff deductions and a one-off pay adjustment (issue 33), made through the engine as the agency would:
// a uniform loan of £60 taken £10 a pay day (a recurring deduction with a cap) from the staff member with the most
// payable hours, and a one-off addition for a missed mileage claim waiting for their next run. Between the two, the
// demo's pay runs (server/seed/payRuns.ts): the loan started before the weeks they pay, so their payslips take it;
// the mileage was found two days ago, after them, and waits for the next run.
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EnginePrincipal } from '../engine/context.js';
import { systemPrincipal, withEngine } from '../engine/handle.js';
import { agencyToday } from '../../core/domain/time/agencyTime.js';
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
