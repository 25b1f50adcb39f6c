import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { Problems } from '../../core/engine/validate.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import { BANDS, type Band } from '../../core/domain/pricing/types.js';
import { DEFAULT_ON_COST_RATES } from '../../core/domain/pricing/oncosts.js';
import { wageFlagSql } from './wageFlag.js';

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

/** A new open-ended card for a client, site and role closes the one in force when it starts; any other overlap is refused. */
async function checkCardPeriod(ctx: EngineContext, record: Record<string, any>, storedId: number | undefined, follows?: number): Promise<Problems | undefined> {
  const m = ctx.principal.merchantId;
  if (record.site_id != null) {
    const [site] = await ctx.db.query('select client_id, name from sites where merchant_id = $1 and id = $2', [m, record.site_id]);
    if (site && Number(site.client_id) !== Number(record.client_id)) return { site_id: { message: `${site.name} is not a site of this client.` } };
  }
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
    if (other.effective_from === from) return { effective_from: { message: `A card for this client, site and job role already starts on ${from}. Edit that card instead.` } };
    // An open-ended new card takes over from the one in force when it starts; one with an end date would leave a
    // gap after it, so it is refused like any other overlap.
    if (other.effective_from < from && to === null && storedId === undefined) {
      closes.push(other);
      continue;
    }
    if (other.effective_from > from) return { effective_to: { message: `Another card for this client, site and job role starts on ${other.effective_from}: end this one on or before that date.` } };
    return { effective_from: { message: `This period overlaps the card in force from ${other.effective_from}${other.effective_to ? ` until ${other.effective_to}` : ''}.` } };
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
  await ctx.engine.update('rate_cards', card.id, { effective_to: to }, { reason });
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

export const rateCardsBehaviour: ResourceBehaviour = {
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
      return { effective_from: { message: `The card before this one starts on ${before.effective_from}: start this one after that date, or delete that card first.` } };
    }
    return checkCardPeriod(ctx, record, stored?.id, moved && kept ? before.id : undefined);
  },
  // Once the moved card is stored the card before it can follow: written earlier, its own check would still see
  // this card at its old dates.
  async afterSave(ctx, { stored, row }) {
    const before = stored ? await predecessorOf(ctx, stored) : null;
    if (!before) return;
    const kept = sameCardKey(stored!, row);
    if (kept && row.effective_from === stored!.effective_from) return;
    await setCardEnd(ctx, before, kept ? row.effective_from : (stored!.effective_to ?? null), kept ? `The card after it now starts on ${row.effective_from}.` : `The card after it (from ${stored!.effective_from}) was moved.`);
  },
  // The card before a deleted one covers its period again: from that day shifts can still be priced.
  async afterDelete(ctx, row) {
    const before = await predecessorOf(ctx, row);
    if (before) await setCardEnd(ctx, before, row.effective_to ?? null, `The card after it (from ${row.effective_from}) was deleted.`);
  },
};
