import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http.js';
import { readable } from '../engine/compile.js';
import { getRecord } from '../engine/query.js';
import { route } from './route.js';
import { chargeOnly, quoteShift } from '../services/pricing.js';
import { bankHolidaysWithOverrides, type HolidayOverride } from '../services/holidays.js';
import { REGIONS } from '../../core/domain/pricing/types.js';
import { REGION_CHOICES } from '../../core/resources/rates/resource.js';
import { Holidays, HolidaysQuery, Quote, QuoteRequest } from '../../core/contracts/rates.js';

/** Years the holiday calendar shows: the library's data is reliable well beyond, the screen needs no more. */
const YEARS = { min: 2000, max: 2100 };

/**
 * Quoting a shift (the shift form prices it live) and the holiday calendar's year per region. Both reveal what
 * only agency users see: a quote shows pay and margin, the calendar is the agency's setting.
 */
export async function ratesRoutes(app: FastifyInstance) {
  route(app, {
    method: 'POST',
    url: '/api/rates/quote',
    // Whoever may create a shift may price it (a client's manager: a request for their own organisation).
    may: { shifts: 'create' },
    schema: {
      tags: ['Rates'],
      summary: 'Price a shift: lines per band, totals, on-costs, margin and warnings',
      description:
        "Body: client_id, site_id, job_role_id, candidate_id (optional: their own pay rates apply), start and end (ISO instants), break_minutes (optional: the rules' break otherwise), sleep_in (optional). " +
        'Answers { lines: [{ band, start, end, hours, pay_rate, charge_rate, pay, charge }], totals: { hours, pay, charge, margin }, on_costs, warnings, rate_card_id } in pence. ' +
        'The margin is charge − pay − on-costs. 422 naming the field when the shift cannot be priced (no rate card on its date, a site of another client, end not after start, longer than 24 hours). ' +
        "A client user prices its own client's shifts and gets the charge only: { lines: [{ band, start, end, hours, minutes, charge_rate, charge }], totals: { hours, charge } }.",
      body: QuoteRequest,
      // One schema per audience: a client user's answer is written by the client's (no pay field can pass).
      response: { 200: Quote },
    },
    handler: async ({ req, ctx }) => {
      const body = req.body ?? {};
      // Who may not read a shift's margin (a client's user) prices its own request: the charge only (no pay, no
      // margin, no on-costs, no staff member), as the shift's read policy says.
      if (!readable(ctx.principal, app.engine.get('shifts')!.byField.get('margin')!)) {
        // Their own organisation is the client the engine's row scope shows them; any other id is not theirs.
        const id = body.client_id;
        const theirs =
          Number.isInteger(id) &&
          id > 0 &&
          (await getRecord(ctx, app.engine.get('clients')!, id).then(
            () => true,
            (e) => {
              if (e instanceof HttpError && e.status === 404) return false;
              throw e;
            },
          ));
        if (!theirs)
          throw new HttpError(422, 'Choose your own organisation.', { client_id: 'Choose your own organisation.' });
        return chargeOnly(await quoteShift(app.db, ctx.principal.merchantId, { ...body, candidate_id: null }));
      }
      return quoteShift(app.db, ctx.principal.merchantId, body);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/rates/holidays',
    may: { holiday_overrides: 'list' },
    schema: {
      tags: ['Rates'],
      summary: "A year of bank holidays per region, with the agency's added and removed days",
      description:
        "year: default this year in the agency's time zone. Each region lists its holidays (source library or added, the override's id when added) and the library days the agency removed.",
      querystring: HolidaysQuery,
      response: { 200: Holidays },
    },
    handler: async ({ req, ctx }) => {
      const year =
        req.query.year === undefined || req.query.year === '' ? Number(ctx.today.slice(0, 4)) : Number(req.query.year);
      if (!Number.isInteger(year) || year < YEARS.min || year > YEARS.max)
        throw new HttpError(422, `Choose a year from ${YEARS.min} to ${YEARS.max}.`, {
          year: `Choose a year from ${YEARS.min} to ${YEARS.max}.`,
        });
      const rows = await app.db.query<HolidayOverride & { id: number; name: string; version: number }>(
        `select id, region, to_char(date, 'YYYY-MM-DD') as date, name, kind, version from holiday_overrides
          where merchant_id = $1 and date between $2::date and $3::date order by date`,
        [ctx.principal.merchantId, `${year}-01-01`, `${year}-12-31`],
      );
      return {
        year,
        regions: REGIONS.map((region) => {
          const mine = rows.filter((o) => o.region === region);
          const byDate = new Map(mine.map((o) => [o.date, o]));
          return {
            region,
            label: REGION_CHOICES.find((c) => c.id === region)!.name,
            days: bankHolidaysWithOverrides(region, year, mine).map((d) => ({
              ...d,
              override_id: d.source === 'added' ? (byDate.get(d.date)?.id ?? null) : null,
            })),
            removed: mine
              .filter((o) => o.kind === 'remove')
              .map((o) => ({ date: o.date, name: o.name, override_id: o.id })),
          };
        }),
      };
    },
  });
}
