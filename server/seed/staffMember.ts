// Issue 29.18: the demo's staff member (staff@demo.test) has a working life to show on their phone page: shifts
// worked in the past weeks and booked ahead (the long day at Meadowbank on Saturday that their chat says the agency
// booked), a shift worked yesterday whose hours they still have to enter and have signed, and an open shift they
// could ask for. Written as the shifts seed writes its shifts (priced as the API prices them, booked only where every
// hard booking check passes).
import type { Queryable, Row } from '../db/index.js';
import type { SeedContext } from './context.js';
import { assessShift, priceShift, type ShiftTimes } from '../services/booking.js';
import { DEMO_STAFF } from './chat.js';
import {
  addDaysToDate,
  agencyToday,
  dayOfWeek,
  daysBetween,
  startOfWeekMonday,
} from '../../core/domain/time/agencyTime.js';
import { shiftInstants } from '../../core/domain/shifts/times.js';

/** The two panel clients' phone approvers and their PINs (README's demo logins): the first client's, the second's. */
export const DEMO_APPROVERS = [
  { name: 'Grace Okafor', job_title: 'Unit manager', pin: '246810' },
  { name: 'Tom Reilly', job_title: 'Deputy manager', pin: '135790' },
] as const;

interface Plan {
  date: string;
  from: string;
  to: string;
  client: number;
  status: 'closed' | 'assigned' | 'open';
  notes?: string;
}

export async function seedDemoStaffShifts(db: Queryable, ctx: SeedContext) {
  const m = ctx.merchantId;
  const tz = ctx.timeZone;
  const today = agencyToday(tz);
  const [me] = await db.query<{ id: number; job_role_id: number | null }>(
    `select c.id, c.job_role_id from users u join candidates c on c.merchant_id = u.merchant_id and c.id = u.candidate_id
      where u.merchant_id = $1 and u.email = $2`,
    [m, DEMO_STAFF.email],
  );
  if (!me?.job_role_id) return;
  const [meadowbank, oakwood] = ctx.clientIds;
  const sites = new Map<number, Row>();
  for (const client of [meadowbank, oakwood]) {
    const [site] = await db.query(
      'select id, client_id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
      [m, client],
    );
    if (site) sites.set(client, site);
  }
  const fits = async (shift: ShiftTimes) => {
    const checks = await assessShift(db, m, tz, shift, me.id, today);
    return checks.hard.length === 0 && !checks.soft.some((c) => c.code === 'unavailable');
  };
  const lastMonday = addDaysToDate(startOfWeekMonday(today), -7);
  // The first Saturday after today: the long day their chat speaks of.
  let saturday = addDaysToDate(today, 1);
  while (dayOfWeek(saturday) !== 6) saturday = addDaysToDate(saturday, 1);
  const plans: Plan[] = [
    { date: addDaysToDate(lastMonday, -5), from: '08:00', to: '16:00', client: meadowbank, status: 'closed' },
    { date: addDaysToDate(lastMonday, 1), from: '08:00', to: '20:00', client: meadowbank, status: 'closed' },
    // The last of last week: signed on their phone by Meadowbank's approver (server/seed/timesheets.ts).
    { date: addDaysToDate(lastMonday, 3), from: '08:00', to: '16:00', client: meadowbank, status: 'closed' },
    // Worked yesterday: its hours are still to be entered and signed on the phone.
    { date: addDaysToDate(today, -1), from: '07:00', to: '15:00', client: oakwood, status: 'closed' },
    {
      date: saturday,
      from: '08:00',
      to: '20:00',
      client: meadowbank,
      status: 'assigned',
      notes: 'Long day. Bring your badge; parking behind the main building.',
    },
    { date: addDaysToDate(saturday, 3), from: '08:00', to: '16:00', client: oakwood, status: 'assigned' },
  ];
  // They said yes to these (their chat): their availability says so too.
  const booked = plans.filter((p) => p.status === 'assigned').map((p) => p.date);
  await db.query('delete from availability where merchant_id = $1 and candidate_id = $2 and date = any($3::date[])', [
    m,
    me.id,
    booked,
  ]);
  await db.query(
    `insert into availability (merchant_id, candidate_id, date, status) select $1, $2, d, 'available' from unnest($3::date[]) as d`,
    [m, me.id, booked],
  );
  // An open shift they could ask for: the first day ahead that suits them (every hard check, and not a day they
  // marked unavailable), away from their bookings.
  for (let d = 2; d <= 14; d++) {
    const date = addDaysToDate(today, d);
    if (plans.some((p) => Math.abs(daysBetween(p.date, date)) < 2)) continue;
    const site = sites.get(meadowbank);
    if (!site) break;
    const { start, end } = shiftInstants(date, '14:00', '22:00', tz);
    const shift = { client_id: meadowbank, site_id: Number(site.id), job_role_id: me.job_role_id, start, end };
    if (!(await fits(shift))) continue;
    plans.push({
      date,
      from: '14:00',
      to: '22:00',
      client: meadowbank,
      status: 'open',
      notes: 'Late shift: cover asked for.',
    });
    break;
  }
  for (const plan of plans) {
    const site = sites.get(plan.client);
    if (!site) continue;
    const { start, end } = shiftInstants(plan.date, plan.from, plan.to, tz);
    const shift: ShiftTimes = {
      client_id: plan.client,
      site_id: Number(site.id),
      job_role_id: me.job_role_id,
      start,
      end,
      break_minutes: 30,
    };
    // Booked only where an agency could have booked them; offered only where the staff page would offer it.
    if (!(await fits(shift))) continue;
    let price;
    try {
      price = await priceShift(db, m, shift, plan.status === 'open' ? null : me.id);
    } catch {
      continue; // no rate card for their role at this client
    }
    await db.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, break_minutes, sleep_in, notes,
                           status, candidate_id, created_by, paid_minutes, pay, charge, on_costs, margin, price_lines,
                           rate_card_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, false, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
               least(now(), $5::timestamptz - interval '10 days'))`,
      [
        m,
        shift.client_id,
        shift.site_id,
        shift.job_role_id,
        start,
        end,
        shift.break_minutes,
        plan.notes ?? null,
        plan.status,
        plan.status === 'open' ? null : me.id,
        ctx.adminName,
        price.paid_minutes,
        price.pay,
        price.charge,
        price.on_costs,
        price.margin,
        JSON.stringify(price.price_lines),
        price.rate_card_id,
      ],
    );
  }
}
