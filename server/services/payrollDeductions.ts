// A staff member's deductions and pay adjustments in pay runs (issue 33): what a run reads of them (each deduction with
// what earlier payslips took of it, the adjustments waiting for a run), what it records once it took them, and an
// adjustment made on a draft run's payslip, which works that payslip's gross to net out again. Every write is the
// engine's; the rules are core/domain/payroll/deductions.ts.
import type { EngineContext } from '../engine/context.js';
import type { RecordValues } from '../../core/engine/types.js';
import type { StaffDeduction } from '../../core/domain/payroll/deductions.js';
import type { Adjustment, Payslip, PayslipLine } from '../../core/domain/payroll/payslip.js';

/**
 * A deduction's running total: what its lines took on payslips whose run was not cancelled (a cancelled run's lines
 * are released), optionally leaving one payslip out (the one being worked out again). SQL over `d`.
 */
const TAKEN = (except: string) => `(select coalesce(-sum(pl.amount), 0)::float8 from payslip_lines pl
   where pl.merchant_id = d.merchant_id and pl.staff_deduction_id = d.id and pl.released_at is null${except})`;

/** staff_deductions.taken, the profile's "Taken so far". */
export const takenSql = () => TAKEN('').replace(/\bd\./g, 'staff_deductions.');

/** Each staff member's deductions, in the order they are taken (oldest first), with what was taken of them. */
export async function deductionsOf(ctx: EngineContext, candidateIds: number[], exceptPayslip?: number) {
  const except = exceptPayslip ? ` and pl.payslip_id <> ${Number(exceptPayslip)}` : '';
  const rows = await ctx.db.query<Record<string, string | number | boolean | null>>(
    `select d.id, d.candidate_id, d.description, d.method, d.amount, d.percent::text as percent, d.before_tax,
            d.recurring, d.start_date::text as start_date, d.end_date::text as end_date, d.cap,
            ${TAKEN(except)} as taken,
            (select count(distinct pl.payslip_id) from payslip_lines pl where pl.merchant_id = d.merchant_id
                and pl.staff_deduction_id = d.id and pl.released_at is null${except}) as times
       from staff_deductions d
      where d.merchant_id = $1 and d.candidate_id = any($2::int[])
      order by d.start_date, d.id`,
    [ctx.principal.merchantId, candidateIds],
  );
  const out = new Map<number, StaffDeduction[]>();
  for (const r of rows) {
    const d: StaffDeduction = {
      id: Number(r.id),
      description: String(r.description),
      method: r.method === 'percent' ? 'percent' : 'fixed',
      amount: r.method === 'percent' ? basisPointsOfPercent(r.percent as string | null, 0) : Number(r.amount ?? 0),
      beforeTax: r.before_tax === true,
      recurring: r.recurring === true,
      start: String(r.start_date),
      end: r.end_date == null ? null : String(r.end_date),
      cap: r.cap == null ? null : Number(r.cap),
      taken: Number(r.taken),
      times: Number(r.times),
    };
    out.set(Number(r.candidate_id), [...(out.get(Number(r.candidate_id)) ?? []), d]);
  }
  return out;
}

export const adjustmentOf = (r: RecordValues): Adjustment => ({
  id: Number(r.id),
  kind: r.kind === 'deduction' ? 'deduction' : 'addition',
  amount: Number(r.amount),
  reason: String(r.reason),
});

/** Adjustments waiting for a run (no payslip yet), oldest first, by staff member. */
export async function pendingAdjustments(ctx: EngineContext, candidateIds: number[] | null) {
  const rows = await ctx.db.query(
    `select id, candidate_id, kind, amount, reason from payroll_adjustments
      where merchant_id = $1 and payslip_id is null and ($2::int[] is null or candidate_id = any($2::int[]))
      order by id for update`,
    [ctx.principal.merchantId, candidateIds],
  );
  const out = new Map<number, Adjustment[]>();
  for (const r of rows) out.set(Number(r.candidate_id), [...(out.get(Number(r.candidate_id)) ?? []), adjustmentOf(r)]);
  return out;
}

/**
 * After a run made its payslips: each adjustment it took names its payslip, and what the net floor left of an
 * adjustment's deduction waits for the next run as an adjustment of its own.
 */
export async function recordAdjustmentsTaken(
  ctx: EngineContext,
  slips: { id: number; candidate_id: number; adjustments: readonly Adjustment[]; carried: Payslip['carried'] }[],
  reason: string,
) {
  const taken = slips.flatMap((s) => s.adjustments.map((a) => ({ id: a.id, payslip_id: s.id })));
  if (taken.length) await ctx.engine.updateMany('payroll_adjustments', taken, { reason });
  const rest = slips.flatMap((s) =>
    s.carried.map((c) => ({
      candidate_id: s.candidate_id,
      kind: 'deduction',
      amount: c.amount,
      reason: `${c.reason} (the rest: net pay was too low)`.slice(0, 300),
    })),
  );
  if (rest.length) await ctx.engine.createMany('payroll_adjustments', rest, { reason });
}

/** The payslip lines a run writes: a line's deduction or adjustment only where it has one. */
export const lineRow = (l: PayslipLine, payslipId: number) => {
  const { staff_deduction_id, payroll_adjustment_id, ...rest } = l;
  return {
    ...rest,
    payslip_id: payslipId,
    ...(staff_deduction_id ? { staff_deduction_id } : {}),
    ...(payroll_adjustment_id ? { payroll_adjustment_id } : {}),
  };
};

/** The payslip fields a run stores (the domain's answer without its lines, what it carried and its warnings). */
export const payslipFields = (p: Payslip) => {
  const { lines: _lines, carried: _carried, warnings: _warnings, ...fields } = p;
  return fields;
};

/** Basis points from a stored percentage ('5', '5.5', '3.25'), read from its digits: hundredths beyond are dropped. */
export function basisPointsOfPercent(v: string | null, fallback: number) {
  if (v == null) return fallback;
  const [whole, hundredths = ''] = String(v).split('.');
  return Number(whole) * 100 + Number(hundredths.padEnd(2, '0').slice(0, 2));
}
