// What a pay run pays besides the hours worked (issue 33): late-cancellation pay the client was charged for, holiday
// taken by staff whose employment type accrues it, each staff member's holiday method, balance and company; and what
// finalising a run marks paid (its timesheet lines and holidays), each as one set-based engine action. One query each
// whatever the number of staff, so a run's statements stay a fixed number.
import type { EngineContext } from '../engine/context.js';
import type { HolidayTaken, LateCancellationPay } from '../../core/domain/payroll/payslip.js';
import type { HolidayMethod } from '../../core/domain/payroll/holidayPay.js';
import type { Agreement } from '../../core/domain/payroll/selfBilling.js';

interface Period {
  from: string;
  to: string;
  candidate_ids?: number[] | null;
}

const group = <T>(rows: { candidate_id: number; item: T }[]) => {
  const by = new Map<number, T[]>();
  for (const r of rows) by.set(Number(r.candidate_id), [...(by.get(Number(r.candidate_id)) ?? []), r.item]);
  return by;
};

/**
 * Shifts of the period (by their start in the agency's zone) cancelled late by the client, still charged, whose rule
 * pays the worker, and not on an unreleased payslip line.
 */
export async function lateCancellationsToPay(ctx: EngineContext, p: Period) {
  const rows = await ctx.db.query<{
    id: number;
    candidate_id: number;
    date: string;
    pay: string;
    hours: string | null;
    role: string | null;
    site: string | null;
  }>(
    `select s.id, s.candidate_id, (s.start_at at time zone $5)::date::text as date, s.cancellation_pay as pay,
            s.cancellation_pay_hours as hours, r.name as role, si.name as site
       from shifts s
       left join job_roles r on r.merchant_id = s.merchant_id and r.id = s.job_role_id
       left join sites si on si.merchant_id = s.merchant_id and si.id = s.site_id
      where s.merchant_id = $1 and s.status = 'cancelled' and s.candidate_id is not null and s.deleted_at is null
        and coalesce(s.cancellation_charge, 0) > 0 and coalesce(s.cancellation_pay, 0) > 0
        and (s.start_at at time zone $5)::date between $2::date and $3::date
        and ($4::int[] is null or s.candidate_id = any($4::int[]))
        and not exists (select 1 from payslip_lines pl where pl.merchant_id = s.merchant_id
                          and pl.cancelled_shift_id = s.id and pl.released_at is null)
      order by s.candidate_id, s.start_at, s.id`,
    [ctx.principal.merchantId, p.from, p.to, p.candidate_ids?.length ? p.candidate_ids : null, ctx.timeZone],
  );
  return group<LateCancellationPay>(
    rows.map((r) => ({
      candidate_id: r.candidate_id,
      item: {
        shiftId: Number(r.id),
        date: r.date,
        hours: Number(r.hours ?? 0),
        pay: Number(r.pay),
        description: [r.role, r.site, r.date].filter(Boolean).join(', '),
      },
    })),
  );
}

/**
 * Booked holidays starting in the period, not on an unreleased payslip line, each with its staff member's pay and
 * minutes worked (sleep-ins aside: no hours of work) in the 52 weeks before its first day.
 */
export async function holidaysToPay(ctx: EngineContext, p: Period) {
  const rows = await ctx.db.query<{
    id: number;
    candidate_id: number;
    starts_on: string;
    ends_on: string;
    hours: string;
    pay: string | null;
    minutes: string | null;
  }>(
    `select h.id, h.candidate_id, h.starts_on::text as starts_on, h.ends_on::text as ends_on, h.hours, w.pay, w.minutes
       from staff_holidays h
       left join lateral (
         select sum(l.pay) as pay, sum(l.paid_minutes) as minutes from timesheet_lines l
           left join shifts sh on sh.merchant_id = l.merchant_id and sh.id = l.shift_id
          where l.merchant_id = h.merchant_id and l.candidate_id = h.candidate_id
            and l.status in ('signed', 'verified') and not coalesce(sh.sleep_in, false)
            and l.work_date >= h.starts_on - 364 and l.work_date < h.starts_on
       ) w on true
      where h.merchant_id = $1 and h.state = 'booked' and h.starts_on between $2::date and $3::date
        and ($4::int[] is null or h.candidate_id = any($4::int[]))
        and not exists (select 1 from payslip_lines pl where pl.merchant_id = h.merchant_id
                          and pl.staff_holiday_id = h.id and pl.released_at is null)
      order by h.candidate_id, h.starts_on, h.id`,
    [ctx.principal.merchantId, p.from, p.to, p.candidate_ids?.length ? p.candidate_ids : null],
  );
  return group<HolidayTaken>(
    rows.map((r) => ({
      candidate_id: r.candidate_id,
      item: {
        id: Number(r.id),
        date: r.starts_on,
        hundredths: Math.round(Number(r.hours) * 100),
        reference: { pay: Number(r.pay ?? 0), minutes: Number(r.minutes ?? 0) },
        description: r.starts_on === r.ends_on ? r.starts_on : `${r.starts_on} to ${r.ends_on}`,
      },
    })),
  );
}

/**
 * Each staff member's holiday method (their employment type's; rolled up without one), their holiday balance in
 * hundredths of an hour (the payslips of approved and finalised runs paid before `payDay`), and their company (its
 * name, number, address and VAT number, which the payslip keeps as they are now).
 */
export async function holidayAndCompanyOf(ctx: EngineContext, ids: number[], payDay: string) {
  const rows = await ctx.db.query<{
    id: number;
    holiday_pay: HolidayMethod | null;
    balance_hours: string | null;
    company_name: string | null;
    company_number: string | null;
    company_address: string | null;
    company_vat_number: string | null;
  }>(
    `select c.id, e.holiday_pay, c.company_name, c.company_number, c.company_address, c.company_vat_number,
            b.balance_hours
       from candidates c
       left join employment_types e on e.merchant_id = c.merchant_id and e.id = c.employment_type_id
       left join lateral (
         select sum(p.holiday_hours_accrued - p.holiday_hours_taken) as balance_hours
           from payslips p join pay_runs r on r.merchant_id = p.merchant_id and r.id = p.pay_run_id
          where p.merchant_id = c.merchant_id and p.candidate_id = c.id and r.state in ('approved', 'finalised')
            and r.period_end < $3
       ) b on true
      where c.merchant_id = $1 and c.id = any($2::int[])`,
    [ctx.principal.merchantId, ids, payDay],
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        holiday: r.holiday_pay ?? ('rolled_up' as HolidayMethod),
        // Hours to hundredths of an hour.
        holidayBalance: Math.round(Number(r.balance_hours ?? 0) * 100),
        companyName: r.company_name,
        companyNumber: r.company_number,
        companyAddress: r.company_address,
        companyVatNumber: r.company_vat_number,
      },
    ]),
  );
}

/**
 * A run finalised: the timesheet lines it paid hold for good (each names the run; their amend and withdraw guards, and
 * every other write, say so in words), and the holidays it paid are paid. Each is one set-based engine action. Lines
 * of a timesheet the agency locked are held by that lock already.
 */
export async function markPaidByRun(ctx: EngineContext, runId: number) {
  await markPaid(ctx, runId, {
    resource: 'timesheet_lines',
    paidBy: 'timesheet_line_id',
    from: `timesheet_lines r join timesheets t on t.merchant_id = r.merchant_id and t.id = r.timesheet_id`,
    open: `t.status <> 'locked' and r.status in ('signed', 'verified') and r.paid_in_run is null`,
    input: { pay_run_id: runId },
  });
  await markPaid(ctx, runId, {
    resource: 'staff_holidays',
    paidBy: 'staff_holiday_id',
    from: 'staff_holidays r',
    open: `r.state = 'booked'`,
    input: {},
  });
}

/** The records of `from` (as r) the run's unreleased payslip lines pay by `paidBy`, still `open`: mark_paid on them. */
async function markPaid(
  ctx: EngineContext,
  runId: number,
  m: { resource: string; paidBy: string; from: string; open: string; input: Record<string, unknown> },
) {
  const rows = await ctx.db.query<{ id: number }>(
    `select r.id from ${m.from}
      where r.merchant_id = $1 and ${m.open}
        and r.id in (select pl.${m.paidBy} from payslip_lines pl
                       join payslips p on p.merchant_id = pl.merchant_id and p.id = pl.payslip_id
                      where pl.merchant_id = $1 and p.pay_run_id = $2 and pl.released_at is null)
      order by r.id`,
    [ctx.principal.merchantId, runId],
  );
  if (rows.length)
    await ctx.engine.act(
      m.resource,
      rows.map((r) => r.id),
      'mark_paid',
      m.input,
      { reason: `Pay run ${String(runId)} finalised` },
    );
}

/**
 * The self-billing agreements of staff members (`ids`), by staff member, with their dates as text: which one is in
 * force on a day is the domain's (agreementInForce). One query.
 */
export async function selfBillingAgreementsOf(ctx: EngineContext, ids: number[]) {
  const rows = await ctx.db.query<{ candidate_id: number } & Agreement>(
    `select candidate_id, start_date::text as start_date, end_date::text as end_date, reference
       from self_billing_agreements where merchant_id = $1 and candidate_id = any($2::int[])`,
    [ctx.principal.merchantId, ids],
  );
  const out = new Map<number, Agreement[]>();
  for (const { candidate_id, ...a } of rows) {
    const id = Number(candidate_id);
    out.set(id, [...(out.get(id) ?? []), a]);
  }
  return out;
}
