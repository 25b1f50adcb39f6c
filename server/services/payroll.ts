// A pay run (issue 33): the payable timesheet lines of the period not yet paid, one payslip per staff member worked
// out by payslipOf (pay lines, rolled-up holiday pay, gross to net with the year to date), previewed with the lines
// held back and why, or made: a small run in the request's one transaction, a large one (or one the screens ask for)
// as a job that pays a batch of staff per transaction (payRunJob). Either way a batch is its payslips and their
// lines each as a set (createMany): a fixed number of statements whatever the number of lines or staff. A line is
// paid once: an agency's runs (and each step of a run's job) take turns (an advisory lock), and the partial unique
// index of migration 100 refuses a second unreleased payslip line for a timesheet line whatever writes it.
import type { EngineContext } from '../engine/context.js';
import { lockRuns, queueRun, runJob } from '../jobs/runJob.js';
import { HttpError } from '../http.js';
import { payslipOf, settlePayslip, type PayableLine, type StaffPayroll } from '../../core/domain/payroll/payslip.js';
import type { RecordValues } from '../../core/engine/types.js';
import { formatPounds } from '../../core/engine/money.js';
import { taxPeriodOf } from '../../core/domain/payroll/periods.js';
import type { Frequency, LoanPlan, NiLetter, PayrollYear } from '../../core/domain/payroll/rates.js';
import {
  adjustmentOf,
  basisPointsOfPercent,
  deductionsOf,
  lineRow,
  payslipFields,
  pendingAdjustments,
  recordAdjustmentsTaken,
} from './payrollDeductions.js';
import { holidayAndCompanyOf, holidaysToPay, lateCancellationsToPay, selfBillingAgreementsOf } from './payrollLines.js';
import { agreementInForce } from '../../core/domain/payroll/selfBilling.js';
import { analyzeIfYoung } from '../db/statistics.js';

export interface GeneratePayRunInput {
  frequency: Frequency;
  from: string;
  to: string;
  candidate_ids?: number[] | null;
  preview?: boolean | null;
  /** Run as a job with progress whatever its size (the screens ask for it). */
  background?: boolean | null;
}

/** The advisory lock's first key: an agency's pay runs take turns (the second key is the agency). */
const PAY_RUN_LOCK = 33033;

/** Waits for the agency's run (or run step) in progress, and holds the others off until this transaction ends. */
export const lockPayRuns = (ctx: EngineContext) => lockRuns(ctx, PAY_RUN_LOCK);

/**
 * Staff paid per step of a run's job, and the most a run pays in its request: a larger run is a job. A step's
 * statements are the same for one staff member or this many (their lines, their details, two createMany and the
 * run's progress), so a step costs its rows.
 */
export const RUN_STEP_STAFF = 250;

/** RUN_STEP_STAFF, or PAY_RUN_STEP_STAFF for tests that need a run of a few steps over the demo's few staff. */
const stepStaff = () => Number(process.env.PAY_RUN_STEP_STAFF) || RUN_STEP_STAFF;

/**
 * The signed or verified lines of staff in the period ($1 agency, $2 from, $3 to, $4 staff or null); those on an
 * unreleased payslip line are paid already (paidAlready).
 */
const PERIOD_LINES = `l.merchant_id = $1 and l.status in ('signed', 'verified') and l.candidate_id is not null
        and l.paid_in_run is null
        and l.work_date between $2::date and $3::date
        and ($4::int[] is null or l.candidate_id = any($4::int[]))`;

const periodParams = (ctx: EngineContext, input: Pick<GeneratePayRunInput, 'from' | 'to' | 'candidate_ids'>) => [
  ctx.principal.merchantId,
  input.from,
  input.to,
  input.candidate_ids?.length ? input.candidate_ids : null,
];

/**
 * Which of `ids` are on an unreleased payslip line: a lookup of those ids in migration 100's partial unique index.
 * Asked apart from the lines rather than as the lines' anti-join: a run writes the table it reads, faster than its
 * statistics follow, and a planner that still believes it empty joined every line of a batch to every payslip line
 * written so far (a run of 5,000 staff slowed to 40 s a step).
 */
async function paidAlready(ctx: EngineContext, ids: number[]) {
  if (!ids.length) return new Map<number, number>();
  const rows = await ctx.db.query<{ id: number; pay_run_id: number }>(
    `select pl.timesheet_line_id as id, p.pay_run_id from payslip_lines pl
       join payslips p on p.merchant_id = pl.merchant_id and p.id = pl.payslip_id
      where pl.merchant_id = $1 and pl.timesheet_line_id = any($2::int[]) and pl.released_at is null`,
    [ctx.principal.merchantId, ids],
  );
  // Each line's run: the one that pays it.
  return new Map(rows.map((r) => [Number(r.id), Number(r.pay_run_id)]));
}

/** The staff with a line in the period not yet paid (or named, with an adjustment waiting), in order. Three queries. */
async function payableStaff(ctx: EngineContext, input: GeneratePayRunInput) {
  const rows = await ctx.db.query<{ id: number; candidate_id: number }>(
    `select l.id, l.candidate_id from timesheet_lines l where ${PERIOD_LINES} order by l.candidate_id`,
    periodParams(ctx, input),
  );
  const paid = await paidAlready(
    ctx,
    rows.map((r) => Number(r.id)),
  );
  const staff = new Set(rows.filter((r) => !paid.has(Number(r.id))).map((r) => Number(r.candidate_id)));
  // Late-cancellation pay and holiday taken are paid without hours too.
  for (const id of (await lateCancellationsToPay(ctx, input)).keys()) staff.add(id);
  for (const id of (await holidaysToPay(ctx, input)).keys()) staff.add(id);
  // Staff named in the run are paid their adjustments waiting even without hours (a leaver's correction).
  if (input.candidate_ids?.length)
    for (const id of (await pendingAdjustments(ctx, input.candidate_ids)).keys()) staff.add(id);
  return [...staff].sort((a, b) => a - b);
}

/** Signed or verified lines of the period, of staff members, not on an unreleased payslip line. Two queries. */
async function payableLines(ctx: EngineContext, input: Pick<GeneratePayRunInput, 'from' | 'to' | 'candidate_ids'>) {
  const rows = await ctx.db.query<{
    id: number;
    candidate_id: number;
    date: string;
    minutes: number | null;
    pay: string | number | null;
    role: string | null;
    site: string | null;
    sleep_in: boolean;
  }>(
    `select l.id, l.candidate_id, l.work_date::text as date, l.paid_minutes as minutes, l.pay,
            r.name as role, s.name as site, coalesce(sh.sleep_in, false) as sleep_in
       from timesheet_lines l
       left join job_roles r on r.merchant_id = l.merchant_id and r.id = l.job_role_id
       left join sites s on s.merchant_id = l.merchant_id and s.id = l.site_id
       left join shifts sh on sh.merchant_id = l.merchant_id and sh.id = l.shift_id
      where ${PERIOD_LINES}
      order by l.candidate_id, l.work_date, l.id`,
    periodParams(ctx, input),
  );
  const paid = await paidAlready(
    ctx,
    rows.map((r) => Number(r.id)),
  );
  const byStaff = new Map<number, PayableLine[]>();
  for (const r of rows) {
    if (paid.has(Number(r.id))) continue;
    const line: PayableLine = {
      id: Number(r.id),
      date: r.date,
      minutes: Number(r.minutes ?? 0),
      pay: Number(r.pay ?? 0),
      description: [r.role, r.site, r.date].filter(Boolean).join(', '),
      sleepIn: r.sleep_in === true,
    };
    const own = byStaff.get(Number(r.candidate_id));
    if (own) own.push(line);
    else byStaff.set(Number(r.candidate_id), [line]);
  }
  return byStaff;
}

/**
 * Each staff member's payroll details, with the year to date of the runs paid before `payDay` in its tax year: an
 * approved run counts as a finalised one (it is paid as approved), a draft does not, and a run paid later (made out of
 * order) never changes this one's cumulative tax. One query.
 */
export async function staffPayroll(ctx: EngineContext, ids: number[], taxYear: string, payDay: string) {
  const rows = await ctx.db.query<{
    id: number;
    name: string;
    paye: boolean | null;
    tax_code: string | null;
    tax_week1: boolean | null;
    ni_category: string | null;
    student_loan_plans: string[] | null;
    pension_opted_out: boolean | null;
    pension_employee_percent: string | null;
    pension_employer_percent: string | null;
    ytd_gross: string | null;
    ytd_tax: string | null;
    ytd_employee_ni: string | null;
    ytd_taxable: string | null;
  }>(
    `select c.id, trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) as name, e.paye,
            c.tax_code, c.tax_week1, c.ni_category, c.student_loan_plans, c.pension_opted_out,
            c.pension_employee_percent, c.pension_employer_percent, y.ytd_gross, y.ytd_tax, y.ytd_employee_ni,
            y.ytd_taxable
       from candidates c
       left join employment_types e on e.merchant_id = c.merchant_id and e.id = c.employment_type_id
       left join (
         select p.candidate_id, sum(p.gross) as ytd_gross, sum(p.tax) as ytd_tax, sum(p.employee_ni) as ytd_employee_ni,
                sum(coalesce(p.taxable_pay, p.gross)) as ytd_taxable
           from payslips p join pay_runs r on r.merchant_id = p.merchant_id and r.id = p.pay_run_id
          where p.merchant_id = $1 and p.candidate_id = any($2::int[]) and r.state in ('approved', 'finalised')
            and r.tax_year = $3 and r.period_end < $4
          group by p.candidate_id
       ) y on y.candidate_id = c.id
      where c.merchant_id = $1 and c.id = any($2::int[])`,
    [ctx.principal.merchantId, ids, taxYear, payDay],
  );
  const bp = basisPointsOfPercent;
  return new Map(
    rows.map((r): [number, { name: string; staff: StaffPayroll }] => [
      Number(r.id),
      {
        name: r.name,
        staff: {
          // No employment type: PAYE, as most agency workers are.
          paye: r.paye ?? true,
          taxCode: r.tax_code,
          week1: r.tax_week1 === true,
          niCategory: (r.ni_category as NiLetter | null) ?? null,
          studentLoanPlans: (r.student_loan_plans ?? []) as LoanPlan[],
          pension: {
            employeePercent: bp(r.pension_employee_percent, 500),
            employerPercent: bp(r.pension_employer_percent, 300),
            optedOut: r.pension_opted_out === true,
          },
          ytdGross: Number(r.ytd_gross ?? 0),
          ytdTax: Number(r.ytd_tax ?? 0),
          ytdEmployeeNi: Number(r.ytd_employee_ni ?? 0),
          ytdTaxable: Number(r.ytd_taxable ?? 0),
        },
      },
    ]),
  );
}

/** One payslip per staff member of `byStaff`, worked out with their details and year to date (one query). */
async function payslipsFor(
  ctx: EngineContext,
  byStaff: Map<number, PayableLine[]>,
  tax: TaxPeriod,
  input: Period & Pick<GeneratePayRunInput, 'candidate_ids'>,
) {
  // Adjustments waiting for a run join the payslip of a staff member it pays; one named in the run is paid them even
  // without hours (a leaver's correction, GenerateSingleStaff).
  const pending = await pendingAdjustments(
    ctx,
    input.candidate_ids?.length ? input.candidate_ids : [...byStaff.keys()],
  );
  for (const id of pending.keys()) if (!byStaff.has(id)) byStaff.set(id, []);
  // Late-cancellation pay and holiday taken (issue 33) make a payslip of their own too.
  const lateCancellations = await lateCancellationsToPay(ctx, input);
  const holidays = await holidaysToPay(ctx, input);
  for (const id of [...lateCancellations.keys(), ...holidays.keys()]) if (!byStaff.has(id)) byStaff.set(id, []);
  const ids = [...byStaff.keys()];
  const [details, deductions, holidayAndCompany] = await Promise.all([
    staffPayroll(ctx, ids, tax.year.taxYear, input.to),
    deductionsOf(ctx, ids),
    holidayAndCompanyOf(ctx, ids, input.to),
  ]);
  return (
    [...byStaff]
      .map(([candidateId, lines]) => {
        const who = details.get(candidateId)!;
        const adjustments = pending.get(candidateId) ?? [];
        return {
          candidate_id: candidateId,
          name: who.name,
          adjustments,
          ...payslipOf(
            lines,
            { ...who.staff, ...holidayAndCompany.get(candidateId) },
            tax.year,
            input.frequency,
            tax.period,
            {
              adjustments,
              deductions: deductions.get(candidateId),
              period: { start: input.from, end: input.to },
              lateCancellations: lateCancellations.get(candidateId),
              holidayTaken: holidays.get(candidateId),
            },
          ),
        };
      })
      // Holiday the balance does not cover waits: a staff member with nothing else to pay has no payslip.
      .filter((p) => p.lines.length > 0)
  );
}

/**
 * The self-billed staff of a preview (umbrella and limited-company workers) whose company has no self-billing agreement
 * in force on the pay day, with the company the run pays: a warning, not a refusal (docs/decisions.md, "Issue 33 —
 * self-billing agreements").
 */
async function withoutAgreement(
  ctx: EngineContext,
  slips: { candidate_id: number; name: string; paye: boolean; paid_to: string | null }[],
  payDay: string,
) {
  const selfBilled = slips.filter((p) => !p.paye);
  if (!selfBilled.length) return [];
  const agreements = await selfBillingAgreementsOf(
    ctx,
    selfBilled.map((p) => p.candidate_id),
  );
  return selfBilled
    .filter((p) => !agreementInForce(agreements.get(p.candidate_id) ?? [], payDay))
    .map((p) => ({ candidate_id: p.candidate_id, name: p.name, company: p.paid_to ?? p.name }));
}

type Period = Pick<GeneratePayRunInput, 'frequency' | 'from' | 'to'>;
type TaxPeriod = { year: PayrollYear; period: number };

/** The pay day's tax year and period, or the refusal in words on the field. */
function taxPeriodFor(input: Period): TaxPeriod {
  if (input.to < input.from) throw new HttpError(422, 'The period ends before it starts.', { to: 'Ends before From.' });
  const tax = taxPeriodOf(input.to, input.frequency);
  if ('error' in tax) throw new HttpError(422, tax.error, { to: tax.error });
  return tax;
}

/**
 * The period's timesheet lines of staff a run does not pay, and why: not signed or verified yet (their status), or
 * already on another run's payslip (that run, until it is cancelled). Two queries.
 */
async function heldBack(ctx: EngineContext, input: GeneratePayRunInput) {
  const rows = await ctx.db.query<{
    id: number;
    candidate_id: number;
    name: string;
    date: string;
    status: string;
    pay: string | null;
  }>(
    `select l.id, l.candidate_id, trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) as name,
            l.work_date::text as date, l.status, l.pay
       from timesheet_lines l
       join candidates c on c.merchant_id = l.merchant_id and c.id = l.candidate_id
      where l.merchant_id = $1 and l.work_date between $2::date and $3::date
        and ($4::int[] is null or l.candidate_id = any($4::int[]))
      order by name, l.candidate_id, l.work_date, l.id`,
    periodParams(ctx, input),
  );
  const paid = await paidAlready(
    ctx,
    rows.map((r) => Number(r.id)),
  );
  const payable = new Set(['signed', 'verified']);
  return rows
    .filter((r) => !payable.has(r.status) || paid.has(Number(r.id)))
    .map((r) => ({
      timesheet_line_id: Number(r.id),
      candidate_id: Number(r.candidate_id),
      name: r.name,
      date: r.date,
      pay: Number(r.pay ?? 0),
      // On a run already (whatever its status now), else not signed or verified yet.
      reason: paid.has(Number(r.id)) ? ('on_run' as const) : ('unsigned' as const),
      status: r.status,
      pay_run_id: paid.get(Number(r.id)) ?? null,
    }));
}

/** The payslips of `candidateIds` in run `runId`: their lines not yet paid, two engine writes for the whole batch. */
async function payBatch(
  ctx: EngineContext,
  run: { id: number } & Period,
  tax: TaxPeriod,
  candidateIds: number[],
): Promise<{ payslips: number[]; lines: number }> {
  const batch = { ...run, candidate_ids: candidateIds };
  const slips = await payslipsFor(ctx, await payableLines(ctx, batch), tax, batch);
  // Staff whose lines another run paid meanwhile (and who have no adjustment waiting) get no payslip.
  if (slips.length === 0) return { payslips: [], lines: 0 };
  const reason = `Pay run ${String(run.id)}`;
  const made = await ctx.engine.createMany(
    'payslips',
    slips.map(({ name: _name, adjustments: _adjustments, candidate_id, ...p }) => ({
      ...payslipFields(p),
      candidate_id,
      pay_run_id: run.id,
      period_start: run.from,
      period_end: run.to,
    })),
    { reason },
  );
  const lines = slips.flatMap((p, i) => p.lines.map((l) => lineRow(l, Number(made[i].id))));
  // Each line's foreign key check finds its payslip by the unique key, not by reading the agency's payslips.
  await analyzeIfYoung(ctx.db, 'payslips');
  await ctx.engine.createMany('payslip_lines', lines, { reason });
  await recordAdjustmentsTaken(
    ctx,
    slips.map((p, i) => ({ ...p, id: Number(made[i].id) })),
    reason,
  );
  return { payslips: made.map((p) => Number(p.id)), lines: lines.length };
}

/**
 * POST /api/pay_runs/actions/generate: the preview (each payslip with its lines and gross to net, and the lines held
 * back), or the run. The run's row keeps the staff it pays in order; a small run pays them in this transaction, a
 * large one (or one asked for in the background) is queued as a job paying RUN_STEP_STAFF a step (payRunJob), and
 * answers 202 with { run_id, job_id, staff }.
 */
export async function generatePayRun(ctx: EngineContext, input: GeneratePayRunInput) {
  const tax = taxPeriodFor(input);
  if (input.preview) {
    const slips = await payslipsFor(ctx, await payableLines(ctx, input), tax, input);
    return {
      tax_year: tax.year.taxYear,
      tax_period: tax.period,
      staff_count: slips.length,
      gross: slips.reduce((s, p) => s + p.gross, 0),
      net: slips.reduce((s, p) => s + p.net, 0),
      employer_costs: slips.reduce((s, p) => s + p.employer_cost, 0),
      vat: slips.reduce((s, p) => s + p.vat, 0),
      payslips: slips,
      held_back: await heldBack(ctx, input),
      without_agreement: await withoutAgreement(ctx, slips, input.to),
    };
  }
  await lockPayRuns(ctx);
  const staff = await payableStaff(ctx, input);
  if (staff.length === 0) return { run_id: null, payslips: [], lines: 0 };
  const run = await ctx.engine.create(
    'pay_runs',
    {
      period_start: input.from,
      period_end: input.to,
      frequency: input.frequency,
      tax_year: tax.year.taxYear,
      tax_period: tax.period,
      started_by: ctx.principal.name,
      candidates: staff,
      candidates_done: 0,
    },
    { reason: 'Pay run' },
  );
  const runId = Number(run.id);
  if (input.background || staff.length > stepStaff())
    return queueRun(
      ctx,
      { kind: payRunJob, resource: 'pay_runs', id: runId, total: staff.length, reason: 'Pay run queued' },
      { staff: staff.length },
    );
  const made = await payBatch(ctx, { id: runId, ...input }, tax, staff);
  await ctx.engine.update(
    'pay_runs',
    runId,
    { candidates_done: staff.length, finished_at: ctx.now.toISOString() },
    { reason: 'Pay run made' },
  );
  return { run_id: runId, ...made };
}

/**
 * Where a step of a run's job may be held, for a test that kills the process mid-run: with PAY_RUN_PAUSE set, each
 * step after the first waits, its batch's payslips written but not committed, while another session holds advisory
 * lock (RUN_PAUSE_LOCK, agency). Unset (always, in production) it costs nothing.
 */
export const PAY_RUN_PAUSE_LOCK = 33034;

/**
 * A large run, RUN_STEP_STAFF a step, each step one transaction with the job's progress (runJob): the batch's lines
 * not yet paid, their payslips and lines (payBatch), and the run's progress. A step rolled back by a killed process
 * leaves nothing of its batch (payslips and lines commit together, with the run's candidates_done and the job's
 * progress) and is done again by the next worker; a committed step is never repeated, and a line paid meanwhile by
 * another run is not found again, so no line is paid twice. A run cancelled while it is being made stops at its next
 * step.
 */
export const payRunJob = runJob({
  kind: 'pay-run',
  resource: 'pay_runs',
  lock: PAY_RUN_LOCK,
  pause: { env: 'PAY_RUN_PAUSE', lock: PAY_RUN_PAUSE_LOCK },
  doneField: 'candidates_done',
  label: 'Pay run',
  item: 'staff',
  async read(ctx, runId) {
    const [run] = await ctx.db.query<{
      state: string;
      frequency: Frequency;
      from: string;
      to: string;
      candidates: number[];
      candidates_done: number;
    }>(
      `select state, frequency, period_start::text as "from", period_end::text as "to", candidates, candidates_done
         from pay_runs where merchant_id = $1 and id = $2`,
      [ctx.principal.merchantId, runId],
    );
    return { ...run, done: run.candidates_done, total: run.candidates.length };
  },
  async work(ctx, run, runId) {
    // Cancelled while it was being made: nothing more is paid (its lines were released by the cancelling).
    if (run.state !== 'draft') return null;
    const batch = run.candidates.slice(run.done, run.done + stepStaff()).map(Number);
    const period = { id: runId, frequency: run.frequency, from: run.from, to: run.to };
    if (batch.length) await payBatch(ctx, period, taxPeriodFor(period), batch);
    return { taken: batch.length };
  },
});

/**
 * POST /api/payslips/:id/actions/adjust (the engine refuses it, in words, once the run is approved or finalised):
 * the adjustment, and the payslip's gross to net again from its pay lines, its adjustments and the staff member's
 * deductions; answers the payslip's new figures (the action's patch). A deduction larger than the net pay left is
 * refused naming the amount.
 */
export async function adjustPayslip(ctx: EngineContext, slip: RecordValues, input: RecordValues) {
  const [run] = await ctx.db.query<{ frequency: Frequency; period_start: string; period_end: string }>(
    `select frequency, period_start::text as period_start, period_end::text as period_end from pay_runs
      where merchant_id = $1 and id = $2`,
    [ctx.principal.merchantId, slip.pay_run_id],
  );
  const tax = taxPeriodOf(run.period_end, run.frequency);
  if ('error' in tax) throw new HttpError(422, tax.error);
  const candidateId = Number(slip.candidate_id);
  const made = await ctx.engine.create(
    'payroll_adjustments',
    { candidate_id: candidateId, kind: input.kind, amount: input.amount, reason: input.reason, payslip_id: slip.id },
    { reason: `Payslip ${String(slip.id)}` },
  );
  const lines = await ctx.db.query(
    `select id, kind, amount, payroll_adjustment_id from payslip_lines
      where merchant_id = $1 and payslip_id = $2 and released_at is null order by id`,
    [ctx.principal.merchantId, slip.id],
  );
  // Its pay lines stay as they are; its deductions and adjustments are taken again, with the new one.
  const again = lines.filter((l) => l.kind === 'deduction' || l.kind === 'adjustment');
  const adjustments = (
    await ctx.db.query(
      `select id, kind, amount, reason from payroll_adjustments where merchant_id = $1 and payslip_id = $2 order by id`,
      [ctx.principal.merchantId, slip.id],
    )
  ).map(adjustmentOf);
  const pay = lines.filter((l) => !again.includes(l)).reduce((s, l) => s + Number(l.amount), 0);
  const who = (await staffPayroll(ctx, [candidateId], tax.year.taxYear, run.period_end)).get(candidateId)!;
  const deductions = (await deductionsOf(ctx, [candidateId], Number(slip.id))).get(candidateId) ?? [];
  // The holiday hours and the company paid (its name, number, address and VAT number) stay as the run made them.
  const text = (v: unknown) => (v == null ? null : String(v));
  const p = settlePayslip(
    {
      lines: [],
      gross: pay,
      holiday_pay: Number(slip.holiday_pay ?? 0),
      holiday_hours_accrued: Number(slip.holiday_hours_accrued ?? 0),
      holiday_hours_taken: Number(slip.holiday_hours_taken ?? 0),
    },
    {
      ...who.staff,
      companyName: text(slip.paid_to),
      companyNumber: text(slip.company_number),
      companyAddress: text(slip.company_address),
      companyVatNumber: text(slip.vat_number),
    },
    tax.year,
    run.frequency,
    tax.period,
    { adjustments, deductions, period: { start: run.period_start, end: run.period_end } },
  );
  if (p.carried.some((c) => c.adjustment_id === Number(made.id))) {
    const others = adjustments.filter((a) => a.id !== Number(made.id));
    const left = settlePayslip(
      { lines: [], gross: pay, holiday_pay: 0 },
      who.staff,
      tax.year,
      run.frequency,
      tax.period,
      {
        adjustments: others,
        deductions,
        period: { start: run.period_start, end: run.period_end },
      },
    ).net;
    const why = `More than the net pay left on this payslip (${formatPounds(left)}): take the rest in the next run.`;
    throw new HttpError(422, why, { amount: why });
  }
  const reason = `Adjustment: ${String(input.reason)}`;
  await ctx.engine.deleteMany(
    'payslip_lines',
    again.map((l) => Number(l.id)),
    { reason },
  );
  await ctx.engine.createMany(
    'payslip_lines',
    p.lines.map((l) => lineRow(l, Number(slip.id))),
    { reason },
  );
  return payslipFields(p);
}
