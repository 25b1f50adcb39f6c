import type { Queryable, Row } from '../db/index.js';
import type { SeedContext } from './context.js';
import { insertMany } from './index.js';
import { addDaysToDate, agencyToday, dayOfWeek } from '../../core/domain/time/agencyTime.js';
import { bankHolidays } from '../services/holidays.js';
import type { Region } from '../../core/domain/pricing/types.js';
import { assessBooking } from '../../core/domain/booking/checks.js';
import { shiftInstants } from '../../core/domain/shifts/times.js';
import { cancellationCharge, loadBookingFacts, priceShift, type ShiftTimes } from '../services/booking.js';

interface Planned {
  date: string;
  site: Row;
  roleId: number;
  template: Row;
  /** What happens to it: worked, booked, still open, cancelled (late or not), deleted. */
  fate: 'closed' | 'assigned' | 'open' | 'cancelled' | 'deleted';
  requested?: boolean;
  notes?: string;
}

/** The last Sunday of March (3) or October (10): the clocks change in its early hours. */
function lastSunday(year: number, month: 3 | 10): string {
  let d = addDaysToDate(`${year}-${String(month + 1).padStart(2, '0')}-01`, -1);
  while (dayOfWeek(d) !== 7) d = addDaysToDate(d, -1);
  return d;
}

/**
 * The demo's shifts, four weeks back and four ahead of today: every state (closed, assigned, open, cancelled with
 * and without a late charge, deleted, requested by a client), nights across the clocks going back, bank holidays
 * (a Scottish site's St Andrew's Day, Christmas), each priced as the API prices it. Staff are booked only where
 * they pass every booking check, in date order, so the bookings are the ones an agency could have made.
 */
export async function seedShifts(db: Queryable, ctx: SeedContext) {
  const m = ctx.merchantId;
  const today = agencyToday(ctx.timeZone);
  const rand = ctx.random;
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const sites = await db.query(
    'select id, client_id, name, region from sites where merchant_id = $1 and client_id = any($2) and deleted_at is null order by id',
    [m, ctx.clientIds],
  );
  const templates = await db.query('select * from shift_templates where merchant_id = $1 order by id', [m]);
  const roles = await db.query<{ job_role_id: number }>(
    `select job_role_id from candidates where merchant_id = $1 and status = 'approved' and activated and compliance_complete and job_role_id is not null and deleted_at is null
      group by job_role_id order by count(*) desc, job_role_id limit 4`,
    [m],
  );
  if (!sites.length || !templates.length || !roles.length) return;
  const template = (name: string) => templates.find((t) => t.name === name) ?? templates[0];
  const siteIn = (region: Region) => sites.find((s) => s.region === region) ?? sites[0];
  // The client panel's demo client (the first) gets a steady share of the shifts.
  const ownSites = sites.filter((s) => s.client_id === ctx.clientIds[0]);

  const plans: Planned[] = [];
  for (let offset = -28; offset <= 28; offset++) {
    const date = addDaysToDate(today, offset);
    const perDay = 2 + Math.floor(rand() * 3);
    for (let i = 0; i < perDay; i++) {
      const site = i === 0 && ownSites.length ? pick(ownSites) : pick(sites);
      const past = offset < 0;
      const roll = rand();
      const fate: Planned['fate'] = past
        ? roll < 0.75
          ? 'closed'
          : roll < 0.85
            ? 'cancelled'
            : roll < 0.93
              ? 'open'
              : 'deleted'
        : roll < 0.5
          ? 'assigned'
          : roll < 0.85
            ? 'open'
            : roll < 0.93
              ? 'cancelled'
              : 'deleted';
      plans.push({
        date,
        site,
        roleId: pick(roles).job_role_id,
        template: pick(templates.filter((t) => !t.sleep_in)),
        fate,
        requested: !past && fate === 'open' && rand() < 0.3,
      });
    }
  }
  // Nights across the clocks going back (13 hours), the latest before today and any within the four weeks ahead.
  const year = Number(today.slice(0, 4));
  for (const sunday of [lastSunday(year - 1, 10), lastSunday(year, 3), lastSunday(year, 10), lastSunday(year + 1, 3)]) {
    const night = addDaysToDate(sunday, -1);
    if (night < addDaysToDate(today, -110) || night > addDaysToDate(today, 28)) continue;
    plans.push({
      date: night,
      site: sites[0],
      roleId: roles[0].job_role_id,
      template: template('Night'),
      fate: night < today ? 'closed' : 'assigned',
      notes: 'The clocks change during this night.',
    });
  }
  // Bank holidays: each region's in the window (St Andrew's Day at a Scottish site), and Christmas ahead.
  for (const region of ['england_wales', 'scotland', 'northern_ireland'] as Region[]) {
    for (const h of [...bankHolidays(region, year), ...bankHolidays(region, year + 1)]) {
      const ahead = region === 'england_wales' ? 45 : 28;
      if (h.date < addDaysToDate(today, -28) || h.date > addDaysToDate(today, ahead)) continue;
      plans.push({
        date: h.date,
        site: siteIn(region),
        roleId: roles[0].job_role_id,
        template: template('Long day'),
        fate: h.date < today ? 'closed' : 'assigned',
        notes: `${h.name}: bank holiday rates.`,
      });
    }
  }
  plans.sort((a, b) => a.date.localeCompare(b.date));

  // Staff who could be booked, by job role; tried in a shuffled order per shift.
  const staff = await db.query<{ id: number; job_role_id: number }>(
    `select id, job_role_id from candidates where merchant_id = $1 and status = 'approved' and activated and deleted_at is null and job_role_id = any($2) order by id`,
    [m, roles.map((r) => r.job_role_id)],
  );
  const now = new Date().toISOString();
  for (const plan of plans) {
    const { start, end } = shiftInstants(plan.date, plan.template.start_time, plan.template.end_time, ctx.timeZone);
    const shift: ShiftTimes = {
      client_id: Number(plan.site.client_id),
      site_id: Number(plan.site.id),
      job_role_id: plan.roleId,
      start,
      end,
      break_minutes: Number(plan.template.break_minutes),
      sleep_in: !!plan.template.sleep_in,
    };
    let price;
    try {
      price = await priceShift(db, m, shift, null);
    } catch {
      continue; // no card for this role at this client: the demo simply has no such shift
    }
    const [row] = await db.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, template_id, start_at, end_at, break_minutes, sleep_in, notes, requested_by_client, created_by,
                           paid_minutes, pay, charge, on_costs, margin, price_lines, rate_card_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, least(now(), $6::timestamptz - interval '10 days')) returning *`,
      [
        m,
        shift.client_id,
        shift.site_id,
        shift.job_role_id,
        plan.template.id,
        start,
        end,
        shift.break_minutes,
        shift.sleep_in,
        plan.notes ?? null,
        !!plan.requested,
        plan.requested ? 'Helen Carter' : ctx.adminName,
        price.paid_minutes,
        price.pay,
        price.charge,
        price.on_costs,
        price.margin,
        JSON.stringify(price.price_lines),
        price.rate_card_id,
      ],
    );
    shift.id = row.id;
    const set = (fields: Record<string, unknown>) => {
      const keys = Object.keys(fields);
      return db.query(
        `update shifts set ${keys.map((k, i) => `${k} = $${i + 3}`).join(', ')} where merchant_id = $1 and id = $2`,
        [m, row.id, ...keys.map((k) => fields[k])],
      );
    };
    if (plan.fate === 'closed' || plan.fate === 'assigned') {
      const pool = staff
        .filter((s) => s.job_role_id === plan.roleId)
        .map((s) => s.id)
        .sort(() => rand() - 0.5)
        .slice(0, 25);
      const facts = await loadBookingFacts(db, m, ctx.timeZone, shift, pool, agencyToday(ctx.timeZone));
      const fit = pool.find((id) => {
        const f = facts.get(id);
        if (!f) return false;
        const a = assessBooking(f);
        return a.hard.length === 0 && a.soft.length === 0;
      });
      // Nobody passes every check: the shift stays open (a past one unfilled), as it would have.
      if (fit === undefined) continue;
      const booked = await priceShift(db, m, shift, fit);
      await set({
        status: plan.fate,
        candidate_id: fit,
        paid_minutes: booked.paid_minutes,
        pay: booked.pay,
        on_costs: booked.on_costs,
        margin: booked.margin,
        price_lines: JSON.stringify(booked.price_lines),
      });
    } else if (plan.fate === 'cancelled') {
      const at = new Date(
        Math.min(Date.parse(start) - (rand() < 0.4 ? 3 : 72) * 3600_000, Date.parse(now)),
      ).toISOString();
      // The home cancels a booked shift: late ones are charged by its rule (only the client's own cancellation of a
      // booked shift is); the agency's own cancellations are free.
      const bookedOn = staff.find((s) => s.job_role_id === plan.roleId)?.id ?? null;
      const byClient = bookedOn !== null && rand() < 0.7;
      const { late } = await cancellationCharge(
        db,
        m,
        { ...row, status: byClient ? 'assigned' : 'open', candidate_id: byClient ? bookedOn : null },
        at,
        byClient ? 'client' : 'agency',
        false,
      );
      await set({
        status: 'cancelled',
        candidate_id: byClient ? bookedOn : null,
        cancelled_at: at,
        cancelled_by: byClient ? 'Helen Carter' : ctx.adminName,
        cancel_requested_by: byClient ? 'client' : 'agency',
        cancel_reason: byClient
          ? 'Resident moved to hospital; cover no longer needed.'
          : 'Covered by the home’s own staff.',
        cancellation_minutes: late ? Math.round(late.hours * 60) : null,
        cancellation_charge: late?.charge ?? null,
        cancellation_rule_charge: late?.charge ?? null,
        cancellation_pay: late && late.pay > 0 ? late.pay : null,
        cancellation_pay_hours: late && late.pay > 0 ? late.payHours : null,
      });
    } else if (plan.fate === 'deleted') {
      await set({ deleted_at: now, deleted_by: ctx.adminName, deleted_reason: 'Entered twice by mistake.' });
    }
  }
  await seedStaffRequests(
    db,
    ctx,
    staff.map((s) => s.id),
  );
  await seedLaterRise(db, ctx);
}

/**
 * One staff member's own pay rise, agreed after their bookings of the past fortnight (issue 30.6): their shifts keep
 * the price they were booked at, and their timesheet lines (seeded next, priced on their times) pay the rise and
 * say why they differ from the booking.
 */
async function seedLaterRise(db: Queryable, ctx: SeedContext) {
  const m = ctx.merchantId;
  const from = addDaysToDate(agencyToday(ctx.timeZone), -14);
  const [worked] = await db.query<{ candidate_id: number; job_role_id: number; pay: number }>(
    `select s.candidate_id, s.job_role_id, max((l->>'pay_rate')::int) as pay
       from shifts s cross join jsonb_array_elements(s.price_lines) l
      where s.merchant_id = $1 and s.status in ('assigned', 'closed') and s.deleted_at is null and not s.sleep_in
        and l->>'band' = 'weekday_day' and s.start_at >= $2::date and s.start_at < now()
        and not exists (select 1 from candidate_rates r where r.merchant_id = $1 and r.candidate_id = s.candidate_id)
      group by s.candidate_id, s.job_role_id order by count(*) desc, s.candidate_id limit 1`,
    [m, from],
  );
  if (!worked) return;
  const pay = Number(worked.pay) + 50;
  await insertMany(db, 'candidate_rates', [
    {
      merchant_id: m,
      candidate_id: worked.candidate_id,
      job_role_id: worked.job_role_id,
      effective_from: from,
      pay_weekday_day: pay,
      pay_weekday_night: null,
      pay_saturday: null,
      pay_sunday: null,
      pay_bank_holiday: null,
      notes: 'Weekday day rise agreed after the fortnight was booked; back-dated',
    },
  ]);
}

/**
 * Staff requests on two open shifts of the coming weeks (issue 17), each from a staff member who passes every hard
 * booking check for it, as the staff page would have let them ask.
 */
async function seedStaffRequests(db: Queryable, ctx: SeedContext, staffIds: number[]) {
  const m = ctx.merchantId;
  const open = await db.query(
    `select * from shifts where merchant_id = $1 and status = 'open' and deleted_at is null and start_at > now() + interval '1 day'
      order by start_at, id limit 10`,
    [m],
  );
  let made = 0;
  for (const r of open) {
    if (made === 2) break;
    const shift: ShiftTimes = {
      id: r.id,
      client_id: r.client_id,
      site_id: r.site_id,
      job_role_id: r.job_role_id,
      start: new Date(r.start_at).toISOString(),
      end: new Date(r.end_at).toISOString(),
      break_minutes: r.break_minutes,
      paid_minutes: r.paid_minutes,
    };
    const facts = await loadBookingFacts(db, m, ctx.timeZone, shift, staffIds, agencyToday(ctx.timeZone));
    const who = staffIds.find((id) => {
      const f = facts.get(id);
      return !!f && assessBooking(f).hard.length === 0;
    });
    if (who === undefined) continue;
    await db.query(`insert into shift_requests (merchant_id, shift_id, candidate_id, note) values ($1, $2, $3, $4)`, [
      m,
      r.id,
      who,
      made === 0 ? 'I have worked on this unit before.' : null,
    ]);
    made++;
  }
}
