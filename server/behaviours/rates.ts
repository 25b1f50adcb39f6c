import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { Problems } from '../../core/engine/validate.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import { writeAudit } from '../engine/audit.js';
import { holidaySet } from '../../core/domain/pricing/holidays.js';
import { BANDS, type Band } from '../../core/domain/pricing/types.js';
import { DEFAULT_ON_COST_RATES, DEFAULT_WAGE_FLOORS } from '../../core/domain/pricing/oncosts.js';

const problem = (message: string) => ({ message });

/**
 * A band's margin per hour in SQL, as the domain's onCosts works it out for a PAYE worker (holiday pay on pay,
 * employer NI on pay and holiday pay, each rounded to the penny) at the on-cost rates in force on the card's
 * first day (the earliest rates before the table starts; none when the agency has none).
 */
function marginSql(band: Band): string {
  const pay = `rate_cards.pay_${band}`;
  const holiday = `round(${pay} * oc.holiday_pay_percent / 100)`;
  const costs = `${holiday} + round((${pay} + ${holiday}) * oc.employer_ni_percent / 100)`;
  const inForce = `order by oc.effective_from <= rate_cards.effective_from desc, case when oc.effective_from <= rate_cards.effective_from then oc.effective_from end desc nulls last, oc.effective_from limit 1`;
  // An agency that never stored its own rates is costed at the domain's defaults, as quotes are.
  const defaults = DEFAULT_ON_COST_RATES.map((r) => `('${r.effective_from}'::date, ${Number(r.employer_ni_percent)}::numeric, ${Number(r.holiday_pay_percent)}::numeric)`).join(', ');
  return `(rate_cards.charge_${band} - ${pay} - coalesce(
      (select ${costs} from on_cost_rates oc where oc.merchant_id = rate_cards.merchant_id ${inForce}),
      (select ${costs} from (values ${defaults}) as oc(effective_from, employer_ni_percent, holiday_pay_percent) ${inForce})))::bigint`;
}

/**
 * The adult minimum wage (the floor of the highest age band, 21 and over) in force on the later of a rate's first
 * day and today, in SQL: the agency's wage floors, or the domain's defaults when it has none. A card pays anyone,
 * so it is held to the adult rate; the booking check holds each staff member to their own age band.
 */
function adultFloorSql(table: string, today: string, bind: (v: unknown) => string): string {
  const on = `greatest(${table}.effective_from, ${bind(today)}::date)`;
  const defaults = DEFAULT_WAGE_FLOORS.map((f) => `('${f.effective_from}'::date, ${f.min_age}, ${f.hourly_pence}::bigint)`).join(', ');
  return `coalesce(
      (select w.hourly from wage_floors w where w.merchant_id = ${table}.merchant_id and w.effective_from <= ${on}
          and w.min_age = (select max(x.min_age) from wage_floors x where x.merchant_id = ${table}.merchant_id and x.min_age <= 21)
        order by w.effective_from desc limit 1),
      (select v.hourly from (values ${defaults}) as v(effective_from, min_age, hourly)
        where not exists (select 1 from wage_floors x where x.merchant_id = ${table}.merchant_id) and v.min_age = 21 and v.effective_from <= ${on}
        order by v.effective_from desc limit 1))`;
}

/** 'Pay below the minimum wage of £12.71 an hour' when a band's pay (any set) is under the adult floor; null otherwise. */
function wageFlagSql(table: string, today: string, bind: (v: unknown) => string): string {
  const floor = adultFloorSql(table, today, bind);
  const lowest = `least(${BANDS.map((b) => `${table}.pay_${b}`).join(', ')})`;
  return `(select case when ${lowest} < f.floor then 'Pay below the minimum wage of £' || to_char(f.floor / 100.0, 'FM9990.00') || ' an hour' end from (select ${floor} as floor) f)`;
}

/** A new open-ended card for a client, site and role closes the one in force when it starts; any other overlap is refused. */
async function checkCardPeriod(ctx: EngineContext, record: Record<string, any>, storedId: number | undefined, follows?: number): Promise<Problems | undefined> {
  const m = ctx.principal.merchantId;
  // Cards of one client and role are written one at a time, so two overlapping cards cannot both pass the check.
  const cards = await ctx.db.query(
    `select id, effective_from, effective_to from rate_cards
      where merchant_id = $1 and client_id = $2 and job_role_id = $3 and site_id is not distinct from $4 and deleted_at is null and id <> $5
      order by effective_from for update`,
    [m, record.client_id, record.job_role_id, record.site_id ?? null, storedId ?? 0],
  );
  // The card before a moved one follows its new start (the caller sets its end), so it is no overlap.
  const same = cards.filter((c) => c.id !== follows);
  const from: string = record.effective_from;
  const to: string | null = record.effective_to ?? null;
  const closes: Row[] = [];
  for (const other of same) {
    const overlaps = (to === null || other.effective_from < to) && (other.effective_to === null || from < other.effective_to);
    if (!overlaps) continue;
    if (other.effective_from === from) return { effective_from: problem(`A card for this client, site and job role already starts on ${from}. Edit that card instead.`) };
    // An open-ended new card takes over from the one in force when it starts; one with an end date would leave a
    // gap after it, so it is refused like any other overlap.
    if (other.effective_from < from && to === null && storedId === undefined) {
      closes.push(other);
      continue;
    }
    if (other.effective_from > from) return { effective_to: problem(`Another card for this client, site and job role starts on ${other.effective_from}: end this one on or before that date.`) };
    return { effective_from: problem(`This period overlaps the card in force from ${other.effective_from}${other.effective_to ? ` until ${other.effective_to}` : ''}.`) };
  }
  // What was priced under the earlier card keeps its amounts (shifts store them); from now on the new card applies.
  for (const card of closes) await setCardEnd(ctx, card, from, `A newer card starts on ${from}.`);
}

/**
 * Ends a card on another day (or leaves it open-ended): a newer card took over from it, or the card after it was
 * deleted or moved. A write of its own, with its version and its audit entry.
 */
async function setCardEnd(ctx: EngineContext, card: Row, to: string | null, reason: string) {
  if ((card.effective_to ?? null) === to) return;
  await ctx.db.query('update rate_cards set effective_to = $3, version = version + 1, updated_at = now() where merchant_id = $1 and id = $2', [ctx.principal.merchantId, card.id, to]);
  await writeAudit(ctx.db, ctx.principal, { resource: 'rate_cards', recordId: card.id, event: 'update', changes: { effective_to: { from: card.effective_to ?? null, to } }, input: { reason } });
  ctx.touched?.add('rate_cards');
}

/** The card a card took over from: same client, site and role, ending the day it starts. */
async function predecessorOf(ctx: EngineContext, card: Row): Promise<Row | null> {
  const [row] = await ctx.db.query(
    `select id, effective_from, effective_to from rate_cards
      where merchant_id = $1 and client_id = $2 and job_role_id = $3 and site_id is not distinct from $4 and deleted_at is null and effective_to = $5 and id <> $6
      for update`,
    [ctx.principal.merchantId, card.client_id, card.job_role_id, card.site_id ?? null, card.effective_from, card.id],
  );
  return row ?? null;
}

const sameCardKey = (a: Row, b: Record<string, any>) =>
  Number(a.client_id) === Number(b.client_id) && Number(a.job_role_id) === Number(b.job_role_id) && Number(a.site_id ?? 0) === Number(b.site_id ?? 0);

const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

function checkBreakRules(value: unknown): string | null {
  if (!Array.isArray(value)) return 'Give the breaks as a list of shift lengths and minutes.';
  if (value.length > 10) return 'Give at most 10 break rules.';
  for (const r of value) {
    if (!r || typeof r !== 'object') return 'Give each break as a shift length in hours and the minutes of break.';
    const hours = Number((r as any).min_hours);
    const minutes = Number((r as any).break_minutes);
    if (!Number.isFinite(hours) || hours <= 0 || hours > 24) return 'A break applies from a shift length of more than 0 and at most 24 hours.';
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 240) return 'A break is a whole number of minutes from 0 to 240.';
    if (minutes >= hours * 60) return 'A break must be shorter than the shift it applies to.';
  }
  return null;
}

export const rateBehaviours: Record<string, ResourceBehaviour> = {
  rate_cards: {
    computed: {
      ...Object.fromEntries(BANDS.map((b) => [`margin_${b}`, () => marginSql(b)])),
      wage_flag: (bind, { today }) => wageFlagSql('rate_cards', today, bind),
      // Only a filter: "in force on" a date.
      in_force_on: () => 'null::date',
    },
    computedFilters: {
      in_force_on: (value, bind, { today }) => {
        const date = value === 'today' ? today : value;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) throw new HttpError(400, 'Filter in_force_on must be a date.', { in_force_on: 'Must be a date' });
        return `(effective_from <= ${bind(date)}::date and (effective_to is null or effective_to > ${bind(date)}::date))`;
      },
    },
    async beforeSave(ctx, { stored, record }) {
      // A card that starts on another day (or moves to another client, site or role) takes the end of the card
      // before it along: that card follows the new start, or, left behind, covers the period again.
      const before = stored ? await predecessorOf(ctx, stored) : null;
      const kept = before && sameCardKey(stored!, record);
      const moved = before && (!kept || record.effective_from !== stored!.effective_from);
      if (moved && kept && record.effective_from <= before.effective_from) {
        return { effective_from: problem(`The card before this one starts on ${before.effective_from}: start this one after that date, or delete that card first.`) };
      }
      const problems = await checkCardPeriod(ctx, record, stored?.id, moved && kept ? before.id : undefined);
      if (problems) return problems;
      if (moved) await setCardEnd(ctx, before, kept ? record.effective_from : (stored!.effective_to ?? null), kept ? `The card after it now starts on ${record.effective_from}.` : `The card after it (from ${stored!.effective_from}) was moved.`);
    },
    // The card before a deleted one covers its period again: from that day shifts can still be priced.
    async afterDelete(ctx, row) {
      const before = await predecessorOf(ctx, row);
      if (before) await setCardEnd(ctx, before, row.effective_to ?? null, `The card after it (from ${row.effective_from}) was deleted.`);
    },
  },
  candidate_rates: {
    computed: {
      wage_flag: (bind, { today }) => wageFlagSql('candidate_rates', today, bind),
    },
    async beforeSave(_ctx, { record }) {
      if (BANDS.every((b) => record[`pay_${b}`] == null)) return { [`pay_${BANDS[0]}`]: problem('Give at least one pay rate.') };
    },
  },
  client_rules: {
    computed: {
      applies_to: () => `coalesce((select c.name from clients c where c.merchant_id = client_rules.merchant_id and c.id = client_rules.client_id), '')`,
    },
    async beforeSave(_ctx, { record }): Promise<Problems | void> {
      const breaks = checkBreakRules(record.break_rules);
      if (breaks) return { break_rules: problem(breaks) };
      for (const f of ['night_start', 'night_end', 'weekend_start_time', 'weekend_end_time']) if (!HHMM.test(String(record[f] ?? ''))) return { [f]: problem('Give a time as HH:mm, for example 20:00.') };
      if (record.night_start === record.night_end) return { night_end: problem('The night must end at another time than it starts.') };
      if (record.weekend_start_day === record.weekend_end_day && record.weekend_start_time === record.weekend_end_time) return { weekend_end_time: problem('The weekend must end at another time than it starts.') };
      record.break_rules = [...record.break_rules].map((r: any) => ({ min_hours: Number(r.min_hours), break_minutes: Number(r.break_minutes) })).sort((a, b) => a.min_hours - b.min_hours);
    },
  },
  holiday_overrides: {
    async beforeSave(_ctx, { stored, record }) {
      if (stored) return;
      const isHoliday = holidaySet(record.region, record.date, record.date, []).has(record.date);
      if (record.kind === 'add' && isHoliday) return { date: problem('This day is already a bank holiday in this region.') };
      if (record.kind === 'remove' && !isHoliday) return { date: problem('This day is not a bank holiday in this region.') };
    },
  },
};

