import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import { insertMany } from './index.js';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime.js';
import { DEFAULT_RULES } from '../../core/domain/pricing/price.js';
import { DEFAULT_ON_COST_RATES, DEFAULT_WAGE_FLOORS } from '../../core/domain/pricing/oncosts.js';
import { BANDS, type Band } from '../../core/domain/pricing/types.js';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** The dated on-cost rates and wage floors of an agency, from the pricing domain's defaults. */
export async function seedRateSettings(db: Queryable, merchantId: number) {
  await insertMany(
    db,
    'on_cost_rates',
    DEFAULT_ON_COST_RATES.map((r) => ({
      merchant_id: merchantId,
      effective_from: r.effective_from,
      employer_ni_percent: r.employer_ni_percent,
      ni_threshold_weekly: r.ni_threshold_weekly_pence ?? null,
      holiday_pay_percent: r.holiday_pay_percent,
    })),
  );
  const floorName = (age: number) =>
    age >= 21
      ? 'National Living Wage (21 and over)'
      : age >= 18
        ? 'National Minimum Wage (18 to 20)'
        : 'National Minimum Wage (16 and 17)';
  await insertMany(
    db,
    'wage_floors',
    DEFAULT_WAGE_FLOORS.map((f) => ({
      merchant_id: merchantId,
      effective_from: f.effective_from,
      min_age: f.min_age,
      hourly: f.hourly_pence,
      name: floorName(f.min_age),
    })),
  );
}

/** A client_rules row from the domain's defaults with some changes. */
function rulesRow(merchantId: number, clientId: number | null, changes: Record<string, unknown> = {}) {
  return {
    merchant_id: merchantId,
    client_id: clientId,
    night_start: DEFAULT_RULES.nightStart,
    night_end: DEFAULT_RULES.nightEnd,
    weekend_start_day: WEEKDAYS[DEFAULT_RULES.weekendStart.weekday],
    weekend_start_time: DEFAULT_RULES.weekendStart.time,
    weekend_end_day: WEEKDAYS[DEFAULT_RULES.weekendEnd.weekday],
    weekend_end_time: DEFAULT_RULES.weekendEnd.time,
    split_at_boundaries: DEFAULT_RULES.splitAtBoundaries,
    break_rules: JSON.stringify(
      DEFAULT_RULES.breakRules.map((b) => ({ min_hours: b.minHours, break_minutes: b.breakMinutes })),
    ),
    minimum_charge_hours: DEFAULT_RULES.minimumChargeHours,
    sleep_in_pay: 6000,
    sleep_in_charge: 9500,
    late_cancel_within_hours: DEFAULT_RULES.lateCancellation?.withinHours ?? null,
    late_cancel_charge_hours: DEFAULT_RULES.lateCancellation?.chargeHours ?? null,
    ...changes,
  };
}

// What each band pays and charges over the weekday day rate.
const UPLIFT: Record<Band, number> = {
  weekday_day: 1,
  weekday_night: 1.1,
  saturday: 1.15,
  sunday: 1.2,
  bank_holiday: 1.5,
};
/** Pay never below this in the demo's current cards: the National Living Wage from April 2026, and a little. */
const PAY_FLOOR = 1280;

function rates(pay: number, charge: number) {
  const out: Record<string, number> = {};
  for (const b of BANDS) {
    out[`pay_${b}`] = Math.round((pay * UPLIFT[b]) / 5) * 5;
    out[`charge_${b}`] = Math.round((charge * UPLIFT[b]) / 5) * 5;
  }
  return out;
}

// Sites moved to Scotland and Northern Ireland, by client name: where their bank holidays differ.
const REGIONAL: { client: string; region: 'scotland' | 'northern_ireland'; city: string; postcode: string }[] = [
  { client: 'Cedar Park Lodge', region: 'scotland', city: 'Glasgow', postcode: 'G12 8QQ' },
  { client: 'Silverdale Lodge', region: 'scotland', city: 'Edinburgh', postcode: 'EH3 9DR' },
  { client: 'Fernlea Care Home', region: 'northern_ireland', city: 'Belfast', postcode: 'BT9 6AD' },
  { client: 'Calder Valley Hospital', region: 'northern_ireland', city: 'Londonderry', postcode: 'BT48 6DQ' },
];

/**
 * Rates & rules of the demo agency: on-cost rates and wage floors, the agency's default rules and a few clients'
 * own, shift templates, a rate card for every client and job role (a current one, an earlier version for some,
 * site-specific ones for the hospitals), a few staff members' own pay, and sites in Scotland and Northern Ireland.
 */
export async function seedRates(db: Queryable, ctx: SeedContext) {
  const m = ctx.merchantId;
  const today = agencyToday(ctx.timeZone);
  await seedRateSettings(db, m);

  const clients = await db.query<{ id: number; name: string }>(
    'select id, name from clients where merchant_id = $1 and id = any($2) order by id',
    [m, ctx.clientIds],
  );
  const sites = await db.query<{ id: number; client_id: number; name: string; address: any }>(
    'select id, client_id, name, address from sites where merchant_id = $1 and deleted_at is null order by id',
    [m],
  );
  const roles = await db.query<{ id: number; name: string; default_pay_rate: number; default_charge_rate: number }>(
    'select id, name, default_pay_rate, default_charge_rate from job_roles where merchant_id = $1 order by id',
    [m],
  );
  const byName = new Map(clients.map((c) => [c.name, c]));

  for (const r of REGIONAL) {
    const client = byName.get(r.client);
    if (!client) continue;
    for (const s of sites.filter((x) => x.client_id === client.id)) {
      const address = {
        ...(typeof s.address === 'string' ? JSON.parse(s.address) : (s.address ?? {})),
        city: r.city,
        postcode: r.postcode,
      };
      await db.query('update sites set region = $3, address = $4 where merchant_id = $1 and id = $2', [
        m,
        s.id,
        r.region,
        JSON.stringify(address),
      ]);
    }
  }

  const hospital = (name: string) => /Hospital|Trust/.test(name);
  await insertMany(db, 'client_rules', [
    // The agency pays a worker 4 hours of a shift the client cancels late and is charged for (issue 33).
    rulesRow(m, null, { max_shift_requests_per_day: 100, late_cancel_pay_hours: 4 }),
    // A hospital rates a whole shift by the band it starts in, charges at least 6 hours and 48 hours' notice.
    ...clients
      .filter((c) => hospital(c.name))
      .slice(0, 2)
      .map((c) =>
        rulesRow(m, c.id, {
          split_at_boundaries: false,
          minimum_charge_hours: 6,
          late_cancel_within_hours: 48,
          late_cancel_charge_hours: 6,
          sleep_in_pay: null,
          sleep_in_charge: null,
        }),
      ),
    // A care home with a later night and a longer break on long days.
    ...clients
      .filter((c) => c.name === 'Oakwood Lodge')
      .map((c) =>
        rulesRow(m, c.id, {
          night_start: '21:00',
          night_end: '07:00',
          break_rules: JSON.stringify([
            { min_hours: 6, break_minutes: 30 },
            { min_hours: 11, break_minutes: 60 },
          ]),
          sleep_in_pay: 6500,
          sleep_in_charge: 10000,
        }),
      ),
  ]);

  await insertMany(db, 'shift_templates', [
    {
      merchant_id: m,
      name: 'Early',
      start_time: '07:00',
      end_time: '15:00',
      break_minutes: 30,
      sleep_in: false,
      colour: 'green',
    },
    {
      merchant_id: m,
      name: 'Late',
      start_time: '14:00',
      end_time: '22:00',
      break_minutes: 30,
      sleep_in: false,
      colour: 'amber',
    },
    {
      merchant_id: m,
      name: 'Night',
      start_time: '20:00',
      end_time: '08:00',
      break_minutes: 30,
      sleep_in: false,
      colour: 'purple',
    },
    {
      merchant_id: m,
      name: 'Long day',
      start_time: '08:00',
      end_time: '20:00',
      break_minutes: 60,
      sleep_in: false,
      colour: 'blue',
    },
    {
      merchant_id: m,
      name: 'Sleep-in',
      start_time: '22:00',
      end_time: '07:00',
      break_minutes: 0,
      sleep_in: true,
      colour: 'grey',
    },
  ]);

  // The current cards began four months ago; every third client had an earlier card (last year's rates) before.
  const current = addDaysToDate(today, -120);
  const earlier = addDaysToDate(today, -485);
  const cards: Record<string, unknown>[] = [];
  clients.forEach((client, i) => {
    const premium = hospital(client.name) ? 1.08 : 1 + (i % 4) * 0.02;
    for (const role of roles) {
      const pay = Math.max(PAY_FLOOR, Math.round(role.default_pay_rate * (1 + (i % 3) * 0.02)));
      const charge = Math.round(Math.max(role.default_charge_rate, pay * 1.4) * premium);
      if (i % 3 === 0)
        cards.push({
          merchant_id: m,
          client_id: client.id,
          site_id: null,
          job_role_id: role.id,
          effective_from: earlier,
          effective_to: current,
          ...rates(Math.max(1230, pay - 60), charge - 80),
          notes: 'Last year’s rates',
        });
      cards.push({
        merchant_id: m,
        client_id: client.id,
        site_id: null,
        job_role_id: role.id,
        effective_from: current,
        effective_to: null,
        ...rates(pay, charge),
        notes: null,
      });
    }
    // A hospital's first site (its acute main building) pays and charges more for nurses.
    if (hospital(client.name)) {
      const site = sites.find((s) => s.client_id === client.id);
      for (const role of roles.filter((r) => /Nurse/.test(r.name)).slice(0, 2)) {
        const pay = Math.round(role.default_pay_rate * 1.1);
        cards.push({
          merchant_id: m,
          client_id: client.id,
          site_id: site?.id ?? null,
          job_role_id: role.id,
          effective_from: current,
          effective_to: null,
          ...rates(pay, Math.round(pay * 1.45)),
          notes: 'Acute wards',
        });
      }
    }
  });
  for (let i = 0; i < cards.length; i += 500) await insertMany(db, 'rate_cards', cards.slice(i, i + 500));

  // A few experienced staff are paid more than the card, on weekdays and nights.
  const staff = await db.query<{ id: number; job_role_id: number }>(
    `select id, job_role_id from candidates where merchant_id = $1 and status = 'approved' and activated and job_role_id is not null and deleted_at is null order by id limit 4`,
    [m],
  );
  const roleById = new Map(roles.map((r) => [r.id, r]));
  await insertMany(
    db,
    'candidate_rates',
    staff.map((s) => {
      const pay = Math.max(PAY_FLOOR, roleById.get(s.job_role_id)!.default_pay_rate) + 75;
      return {
        merchant_id: m,
        candidate_id: s.id,
        job_role_id: s.job_role_id,
        effective_from: current,
        pay_weekday_day: pay,
        pay_weekday_night: Math.round(pay * 1.1),
        pay_saturday: null,
        pay_sunday: null,
        pay_bank_holiday: null,
        notes: 'Experienced; agreed at interview',
      };
    }),
  );
}
