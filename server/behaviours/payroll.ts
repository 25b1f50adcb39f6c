// What pay runs and payslips do on the server beyond their declarations (issue 33.2): generation, finalising each
// payslip with its run, and releasing a cancelled run's lines. Totals, locks and kept PDFs are the engine's
// (core/resources/payroll/resource.ts).
import type { ResourceBehaviour } from '../engine/context.js';
import type { Problems } from '../../core/engine/validate.js';
import { HttpError } from '../http.js';
import { adjustPayslip, generatePayRun, lockPayRuns } from '../services/payroll.js';
import { takenSql } from '../services/payrollDeductions.js';
import { markPaidByRun } from '../services/payrollLines.js';
import { emailPayslips, emailStatusSql, payslipAddresses, resendPayslip } from '../services/payslipDelivery.js';
import { requeueJob } from '../jobs/queue.js';
import { fileNameSql } from '../files/store.js';
import type { Frequency } from '../../core/domain/payroll/rates.js';

/** What a second unreleased payslip line for one timesheet line is refused with (migration 100's index). */
const PAID_ONCE =
  'This timesheet line is already on another payslip: it is paid again only once that run is cancelled.';
/** The same for a late cancellation's pay and a holiday taken (migration 113's indexes). */
const PAID_ONCE_BY_FIELD: Record<string, string> = {
  timesheet_line_id: PAID_ONCE,
  cancelled_shift_id:
    'This late cancellation is already paid on another payslip: it is paid again only once that run is cancelled.',
  staff_holiday_id:
    'This holiday is already paid on another payslip: it is paid again only once that run is cancelled.',
};

export const payRunsBehaviour: ResourceBehaviour = {
  collection: {
    // The input is validated by the action's declaration (frequency, from and to required; candidate_ids references).
    generate: (ctx, input) =>
      generatePayRun(ctx, {
        frequency: String(input.frequency) as Frequency,
        from: String(input.from),
        to: String(input.to),
        candidate_ids: Array.isArray(input.candidate_ids) ? input.candidate_ids.map(Number) : null,
        preview: input.preview === true,
        background: input.background === true,
      }),
  },
  computed: {
    // Made once its last staff member is paid (or it was cancelled meanwhile); stopped when its job used its
    // attempts (Resume tries again); being made until then.
    progress: () =>
      `(case when finished_at is not null or state <> 'draft' then 'done'
             when exists (select 1 from jobs j where j.id = job_id and j.status = 'failed') then 'failed'
             else 'running' end)`,
    staff_total: () => 'cardinality(candidates)',
  },
  actions: {
    async resume(ctx, run) {
      if (run.job_id != null) await requeueJob(ctx.db, ctx.principal.merchantId, Number(run.job_id));
      return {};
    },
    /**
     * Each payslip finalised by its own declared transition, as a set: the engine keeps each one's PDF. The timesheet
     * lines and holidays it paid are marked paid, each set by one action (markPaidByRun). Each payslip is then
     * e-mailed to its staff member with its kept PDF, in this transaction (emailPayslips).
     */
    async finalise(ctx, run) {
      await markPaidByRun(ctx, Number(run.id));
      const slips = await ctx.db.query<{ id: number }>(
        'select id from payslips where merchant_id = $1 and pay_run_id = $2 order by id',
        [ctx.principal.merchantId, run.id],
      );
      if (slips.length)
        await ctx.engine.act(
          'payslips',
          slips.map((s) => s.id),
          'finalise',
          {},
          { reason: `Pay run ${String(run.id)} finalised` },
        );
      await emailPayslips(ctx, Number(run.id));
    },
    /** A cancelled run pays nothing: its lines are released, so their timesheet lines can be paid by another run. */
    async cancel(ctx, run) {
      // After a step of the run's job that may be paying it now: the next step finds it cancelled and stops.
      await lockPayRuns(ctx);
      const lines = await ctx.db.query<{ id: number }>(
        `select l.id from payslip_lines l join payslips p on p.merchant_id = l.merchant_id and p.id = l.payslip_id
          where l.merchant_id = $1 and p.pay_run_id = $2 and l.released_at is null order by l.id`,
        [ctx.principal.merchantId, run.id],
      );
      if (lines.length)
        await ctx.engine.updateMany(
          'payslip_lines',
          lines.map((l) => ({ id: l.id, released_at: ctx.now.toISOString() })),
          { reason: 'Pay run cancelled' },
        );
      // Its adjustments wait for the staff member's next run, as its timesheet lines do.
      const adjustments = await ctx.db.query<{ id: number }>(
        `select a.id from payroll_adjustments a join payslips p on p.merchant_id = a.merchant_id and p.id = a.payslip_id
          where a.merchant_id = $1 and p.pay_run_id = $2 order by a.id`,
        [ctx.principal.merchantId, run.id],
      );
      if (adjustments.length)
        await ctx.engine.updateMany(
          'payroll_adjustments',
          adjustments.map((a) => ({ id: a.id, payslip_id: null })),
          { reason: 'Pay run cancelled' },
        );
    },
  },
};

/** The payslip's lines not released (a cancelled run's are), with the timesheet each pays. */
const linesOf = (where: string) =>
  `from payslip_lines l where l.merchant_id = payslips.merchant_id and l.payslip_id = payslips.id and l.released_at is null and ${where}`;
const clientsOf = (select: string) =>
  `(select ${select} from payslip_lines l
      join timesheet_lines tl on tl.merchant_id = l.merchant_id and tl.id = l.timesheet_line_id
      join timesheets t on t.merchant_id = tl.merchant_id and t.id = tl.timesheet_id
      join clients c on c.merchant_id = t.merchant_id and c.id = t.client_id
     where l.merchant_id = payslips.merchant_id and l.payslip_id = payslips.id and l.released_at is null)`;

export const payslipsBehaviour: ResourceBehaviour = {
  // A staff member reads a payslip once it is finalised: a draft may still change.
  scope: (principal) => (principal.loginType === 'staff' ? `state = 'finalised'` : null),
  actions: {
    adjust: adjustPayslip,
    // The address it is e-mailed to, kept by its finalising (the run's finalise queues the e-mail).
    finalise: async (ctx, slip) => (await payslipAddresses(ctx, [slip]))[0],
    // E-mailed again (an address added since, or the e-mail lost): one outbox e-mail, the kept staff copy attached.
    resend_email: (ctx, slip) => resendPayslip(ctx, slip),
  },
  actionsMany: { finalise: (ctx, slips) => payslipAddresses(ctx, slips) },
  // The payroll report's columns and choices (docs/decisions.md, "Issue 33 — the payroll report").
  computed: {
    run_state: () =>
      `(select r.state from pay_runs r where r.merchant_id = payslips.merchant_id and r.id = payslips.pay_run_id)`,
    tax_period: () =>
      `(select r.tax_period from pay_runs r where r.merchant_id = payslips.merchant_id and r.id = payslips.pay_run_id)`,
    employment_type_id: () =>
      `(select c.employment_type_id from candidates c where c.merchant_id = payslips.merchant_id and c.id = payslips.candidate_id)`,
    client_ids: () => clientsOf(`coalesce(array_agg(distinct c.id order by c.id), '{}')`),
    clients: () => clientsOf(`string_agg(distinct c.name, ', ' order by c.name)`),
    hours: () => `(select coalesce(sum(l.hours), 0) ${linesOf(`l.kind = 'pay'`)})`,
    email_status: emailStatusSql,
  },
  computedFilters: {
    // The run's state from the runs of that state (pay_runs_state's index), not each payslip's subquery.
    run_state: (value, bind) =>
      `pay_run_id in (select r.id from pay_runs r where r.merchant_id = payslips.merchant_id and r.state = ${bind(value)})`,
  },
};

/** A deduction's running total, which its cap holds to across runs. */
export const staffDeductionsBehaviour: ResourceBehaviour = {
  computed: { taken: takenSql },
};

export const payslipLinesBehaviour: ResourceBehaviour = {
  scope: (principal) =>
    principal.loginType === 'staff' ? `payslip_id in (select id from payslips where state = 'finalised')` : null,
  async refusedByDatabase(_ctx, _e, error) {
    if (error.code !== '23505') return;
    const field = Object.keys(PAID_ONCE_BY_FIELD).find((f) => error.detail?.includes(f));
    if (field) return new HttpError(409, PAID_ONCE_BY_FIELD[field], { [field]: PAID_ONCE_BY_FIELD[field] });
  },
};

/**
 * Holiday taken is recorded for staff whose employment type accrues holiday, within their balance less the holidays
 * already booked and not yet paid (a pay run pays it from the balance; none would be left to pay it).
 */
export const staffHolidaysBehaviour: ResourceBehaviour = {
  async beforeSave(ctx, e): Promise<Problems | void> {
    if (e.action) return;
    const candidateId = Number(e.record.candidate_id);
    const [who] = await ctx.db.query<{ name: string; holiday_pay: string | null; paye: boolean | null; left: string }>(
      `select trim(c.first_name || ' ' || c.last_name) as name, e.holiday_pay, e.paye,
              coalesce((select sum(p.holiday_hours_accrued - p.holiday_hours_taken)
                          from payslips p join pay_runs r on r.merchant_id = p.merchant_id and r.id = p.pay_run_id
                         where p.merchant_id = c.merchant_id and p.candidate_id = c.id
                           and r.state in ('approved', 'finalised')), 0)
              - coalesce((select sum(h.hours) from staff_holidays h where h.merchant_id = c.merchant_id
                            and h.candidate_id = c.id and h.state = 'booked' and h.id <> $3), 0) as left
         from candidates c left join employment_types e on e.merchant_id = c.merchant_id and e.id = c.employment_type_id
        where c.merchant_id = $1 and c.id = $2`,
      [ctx.principal.merchantId, candidateId, Number(e.stored?.id ?? 0)],
    );
    if (!who) return;
    if (who.paye === false || who.holiday_pay !== 'accrued')
      return {
        candidate_id: {
          message: `${who.name}'s employment type does not accrue holiday: their holiday pay is rolled up into each payslip.`,
        },
      };
    const left = Number(who.left);
    if (Number(e.record.hours) > left)
      return { hours: { message: `${who.name} has ${left} hours of holiday left to take (booked holiday counted).` } };
    if (!e.stored) e.record.recorded_by = ctx.principal.name;
  },
};

/** Who recorded a self-billing agreement (the list shows it), and its signed copy's name for the file link. */
export const selfBillingAgreementsBehaviour: ResourceBehaviour = {
  computed: { file_name: () => fileNameSql('self_billing_agreements', 'file') },
  async beforeSave(ctx, e) {
    if (!e.action && !e.stored) e.record.recorded_by = ctx.principal.name;
  },
};
