import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, row, type MatrixRow, type Outcome } from './principals';
import { addDaysToDate } from '../../../core/domain/time/agencyTime';
import { holidaySet } from '../../../server/services/holidays';

/**
 * Rates & rules: admins change them, consultants read them, client users never see them (they show pay), but
 * for shift templates (no pay), which both clients read to request a shift.
 */
function rateRows(name: string, otherAdminCreate: Outcome, clientsRead = false): MatrixRow[] {
  const client = clientsRead ? 'ok' : F;
  return [
    row('GET', `/api/${name}`, A, 'ok', 'ok', client, client, 'ok', F, A),
    row('GET', `/api/${name}/:id`, A, 'ok', 'ok', client, client, N, F, A),
    row('POST', `/api/${name}`, A, 201, F, F, F, otherAdminCreate, F, A),
    row('PUT', `/api/${name}/:id`, A, 'ok', F, F, F, N, F, A),
    row('DELETE', `/api/${name}/:id`, A, 'ok', F, F, F, N, F, A),
  ];
}

const RATES = {
  pay_weekday_day: 1300,
  charge_weekday_day: 2000,
  pay_weekday_night: 1400,
  charge_weekday_night: 2200,
  pay_saturday: 1500,
  charge_saturday: 2300,
  pay_sunday: 1600,
  charge_sunday: 2400,
  pay_bank_holiday: 2000,
  charge_bank_holiday: 3000,
};
const RULES = {
  night_start: '20:00',
  night_end: '08:00',
  weekend_start_day: 'saturday',
  weekend_start_time: '00:00',
  weekend_end_day: 'monday',
  weekend_end_time: '00:00',
};

// This area's own count for unique dates and names: the shared ctx.next() also spaces out other areas' dates
// (availability days in the past year), which must not run out because of ours.
let count = 0;
const next = () => ++count;
/**
 * Agency A's job role of this area's cards: each new card closes the one before and the DELETE rows remove the
 * newest, so the demo's roles (which other areas' shifts are priced with) must keep their own cards untouched.
 */
let roleA: number;

/** A weekday that is no bank holiday in England, different on every call (holiday days are unique per date). */
function ordinaryDay(): string {
  for (;;) {
    const date = addDaysToDate('2033-01-03', next());
    if (!holidaySet('england_wales', date, date, []).has(date)) return date;
  }
}

/** A client of the agency made for one record (rules are one per client). */
async function newClient(ctx: AuthzContext, token: string): Promise<number> {
  return (
    await ctx.must(
      await ctx.t.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: `Authz Rules Client ${next()}`, billing_email: 'rules@authz.example' },
      }),
      201,
    )
  ).id;
}

const bodies = {
  // Each card starts later than the one before, so it takes over (and closes the earlier one) instead of overlapping.
  rate_cards: (clientId: unknown, roleId: unknown) => ({
    client_id: clientId,
    job_role_id: roleId,
    effective_from: addDaysToDate('2028-01-01', next()),
    ...RATES,
  }),
  candidate_rates: (candidateId: unknown) => ({
    candidate_id: candidateId,
    effective_from: addDaysToDate('2028-01-01', next()),
    pay_weekday_day: 1500,
  }),
  holiday_overrides: () => ({ region: 'england_wales', date: ordinaryDay(), name: 'Authz day', kind: 'add' }),
  shift_templates: () => ({
    name: `Authz Template ${next()}`,
    start_time: '07:00',
    end_time: '15:00',
    break_minutes: 30,
  }),
  on_cost_rates: () => ({
    effective_from: addDaysToDate('2029-01-01', next()),
    employer_ni_percent: 15,
    holiday_pay_percent: 12.07,
  }),
  wage_floors: () => ({
    name: 'Authz floor',
    effective_from: addDaysToDate('2029-01-01', next()),
    min_age: 21,
    hourly: 1300,
  }),
};

export const rates: AuthzArea = {
  rows: [
    // Each body names agency A's client, staff member or role: the other agency's admin is refused (422).
    ...rateRows('rate_cards', 422),
    ...rateRows('candidate_rates', 422),
    ...rateRows('client_rules', 422),
    ...rateRows('holiday_overrides', 201),
    ...rateRows('shift_templates', 201, true),
    ...rateRows('on_cost_rates', 201),
    ...rateRows('wage_floors', 201),
    // A quote shows pay and margin to agency users; client A gets the charge only for its own shifts, client B
    // naming client A's gets 422, as does the other agency's admin.
    row('POST', '/api/rates/quote', A, 'ok', 'ok', 'ok', 422, 422, F, A),
    row('GET', '/api/rates/holidays', A, 'ok', 'ok', F, F, 'ok', F, A),
  ],
  async prepare(ctx) {
    for (const [token, into, own] of [
      [ctx.setup, ctx.shared, true],
      [ctx.setupB, ctx.sharedB, false],
    ] as const) {
      const post = async (url: string, payload: unknown) =>
        (
          await ctx.must(
            await ctx.t.app.inject({
              method: 'POST',
              url,
              headers: { authorization: `Bearer ${token}` },
              payload: payload as any,
            }),
            201,
          )
        ).id;
      if (own) roleA = await post('/api/job_roles', { name: `Authz Rates Role ${next()}` });
      into.rate_cards = await post(
        '/api/rate_cards',
        bodies.rate_cards(own ? ctx.ids.clientA : into.clients, own ? roleA : into.job_roles),
      );
      into.candidate_rates = await post('/api/candidate_rates', bodies.candidate_rates(into.candidates));
      into.client_rules = await post('/api/client_rules', { client_id: await newClient(ctx, token), ...RULES });
      into.holiday_overrides = await post('/api/holiday_overrides', bodies.holiday_overrides());
      into.shift_templates = await post('/api/shift_templates', bodies.shift_templates());
      into.on_cost_rates = await post('/api/on_cost_rates', bodies.on_cost_rates());
      into.wage_floors = await post('/api/wage_floors', bodies.wage_floors());
    }
  },
  createBody: {
    rate_cards: async (ctx) => bodies.rate_cards(ctx.ids.clientA, roleA),
    candidate_rates: async (ctx) => bodies.candidate_rates(ctx.shared.candidates),
    // A new client of agency A each time (made by agency A's admin): the other agency's admin still names it.
    client_rules: async (ctx) => ({ client_id: await newClient(ctx, ctx.setup), ...RULES }),
    holiday_overrides: async () => bodies.holiday_overrides(),
    shift_templates: async () => bodies.shift_templates(),
    on_cost_rates: async () => bodies.on_cost_rates(),
    wage_floors: async () => bodies.wage_floors(),
  },
  requests: {
    // Next week's Wednesday morning at client A's first site, for the demo's first job role (its card covers it).
    'POST /api/rates/quote': async (ctx) => {
      const [site] = await ctx.t.db.query<{ id: number }>(
        'select id from sites where client_id = $1 and deleted_at is null order by id limit 1',
        [ctx.ids.clientA],
      );
      const day = addDaysToDate(ctx.today, 7);
      return {
        method: 'POST',
        url: '/api/rates/quote',
        payload: {
          client_id: ctx.ids.clientA,
          site_id: site.id,
          job_role_id: ctx.shared.job_roles,
          start: `${day}T09:00:00Z`,
          end: `${day}T17:00:00Z`,
        },
      };
    },
    'GET /api/rates/holidays': () => ({ method: 'GET', url: '/api/rates/holidays?year=2026' }),
  },
};
