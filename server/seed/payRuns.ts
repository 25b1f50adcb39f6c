// The demo's pay runs (issue 33), made as the agency makes them, through the engine, each step on the day it would
// have happened: a few staff on the payroll's different cases (a Scottish code, a week 1 code, a K code, an umbrella
// worker, the staff member of staff@demo.test, the uniform loan's borrower) worked two shifts a week at a care home
// in the three weeks before the rest of the demo's timesheets (six to eight weeks ago); each week's timesheet was
// verified by the agency, then paid by a weekly run: the two older runs approved and finalised (each payslip's PDF
// kept, the lines marked paid), the latest left a draft with a one-off adjustment. Older than the demo's other
// timesheets (and than the invoice and pay run tests' windows), so the lines the tests pay are the ones they were.
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EnginePrincipal } from '../engine/context.js';
import { systemPrincipal } from '../engine/handle.js';
import { runCollectionAction } from '../engine/actions.js';
import { priceShift, type ShiftTimes } from '../services/booking.js';
import { insertMany, UMBRELLA_ADDRESS, UMBRELLA_VAT_NUMBER } from './index.js';
import { DEMO_STAFF } from './chat.js';
import { datedStory } from './timesheets.js';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime.js';
import { shiftInstants } from '../../core/domain/shifts/times.js';
import { taxPeriodOf } from '../../core/domain/payroll/periods.js';

/** The weeks paid, as weeks back from this one: two finalised, the latest a draft. */
const WEEKS_BACK = [8, 7, 6] as const;

/** What each of the demo's payroll staff is paid on (in this order, one case each, as many as the demo has staff). */
const CASES = [
  { case: 'own', tax_code: '1257L', tax_week1: false, type: 'PAYE' },
  { case: 'scottish', tax_code: 'S1257L', tax_week1: false, type: 'PAYE' },
  { case: 'week1', tax_code: '1257L', tax_week1: true, type: 'PAYE, holiday accrued' },
  { case: 'k', tax_code: 'K475', tax_week1: false, type: 'PAYE' },
  { case: 'umbrella', tax_code: null, tax_week1: false, type: 'Umbrella company' },
] as const;

/**
 * `borrower`: the staff member of the demo's uniform loan (seedStaffDeduction), paid by these runs so their
 * payslips take it.
 */
export async function seedPayRuns(db: Queryable, ctx: SeedContext, borrower: number | null) {
  const m = ctx.merchantId;
  const tz = ctx.timeZone;
  const realNow = new Date();
  const thisMonday = startOfWeekMonday(agencyToday(tz, realNow));
  const admin: EnginePrincipal = { ...systemPrincipal(m), userId: ctx.adminId, name: ctx.adminName };
  const at = (date: string, time: string) => zonedDateTimeToInstant(date, time, tz);

  const story = await datedStory(db, m, tz, ctx.engine);
  const as = story.step;

  // The staff: the demo's own staff member, the borrower, then the approved staff by id; each needs a job role.
  const staff = await db.query<{ id: number; job_role_id: number }>(
    `select c.id, c.job_role_id from candidates c
      where c.merchant_id = $1 and c.status = 'approved' and c.job_role_id is not null and c.deleted_at is null
      order by c.email = $2 desc, c.id = $3 desc, c.activated desc, c.id`,
    [m, DEMO_STAFF.email, borrower ?? 0],
  );
  const [own] = await db.query<{ id: number }>(`select id from candidates where merchant_id = $1 and email = $2`, [
    m,
    DEMO_STAFF.email,
  ]);
  // The staff member's own payslips are on the standard code, the borrower's on the Scottish one, the rest in turn.
  const chosen = staff.slice(0, CASES.length);
  if (chosen.length === 0) return;
  const fixed = new Map<number, string>([
    [borrower ?? 0, 'scottish'],
    [own?.id ?? 0, 'own'],
  ]);
  const rest = CASES.filter((c) => !chosen.some((s) => fixed.get(s.id) === c.case));
  const caseOf = new Map(
    chosen.map((s) => [s.id, CASES.find((c) => c.case === fixed.get(s.id)) ?? rest.shift()!] as const),
  );

  // Where they worked: the first care home beyond the two panel clients whose rates price their roles.
  const sites = await db.query<{ id: number; client_id: number }>(
    `select s.id, s.client_id from sites s join clients c on c.merchant_id = s.merchant_id and c.id = s.client_id
      where s.merchant_id = $1 and s.deleted_at is null and s.status = 'active' and c.status = 'active'
        and c.client_type = 'Care home' and c.timesheet_per is distinct from 'site' and c.id <> all($2::int[])
      order by c.id, s.id`,
    [m, ctx.clientIds.slice(0, 3)],
  );
  const types = new Map(
    (
      await db.query<{ id: number; name: string }>('select id, name from employment_types where merchant_id = $1', [m])
    ).map((t) => [t.name, Number(t.id)]),
  );

  // Their pay details, as they were entered with them (the demo's creation entries, written after the areas' seeds,
  // hold them): an engine update here would put a change before each one's creation in their History.
  await db.query(
    `update candidates c set employment_type_id = p.type, tax_code = p.code, tax_week1 = p.week1,
            company_name = p.company, company_number = p.number, company_address = p.address,
            company_vat_number = p.vat
       from jsonb_to_recordset($2::jsonb)
            as p(id int, type int, code text, week1 boolean, company text, number text, address text, vat text)
      where c.merchant_id = $1 and c.id = p.id`,
    [
      m,
      JSON.stringify(
        chosen.map((s) => {
          const c = caseOf.get(s.id)!;
          const umbrella = c.case === 'umbrella';
          return {
            id: s.id,
            type: types.get(c.type) ?? null,
            code: c.tax_code,
            week1: c.tax_week1,
            company: umbrella ? 'Brolly Payroll Services Ltd' : null,
            number: umbrella ? '09876543' : null,
            // An umbrella company is registered for VAT: its self-billed pay carries VAT on top.
            address: umbrella ? UMBRELLA_ADDRESS : null,
            vat: umbrella ? UMBRELLA_VAT_NUMBER : null,
          };
        }),
      ),
    ],
  );

  // Two shifts a week each (Tuesday and Thursday), priced as the API prices them, at one care home.
  const worked: { week: string; ids: number[] }[] = [];
  let site: { id: number; client_id: number } | undefined;
  for (const back of WEEKS_BACK) {
    const week = addDaysToDate(thisMonday, -7 * back);
    const rows: Record<string, unknown>[] = [];
    for (const s of chosen)
      for (const [day, from, to] of [
        [1, '08:00', '20:00'],
        // A long day or an early by turns, so the weeks' pay differs.
        [3, (s.id + back) % 2 ? '07:30' : '08:00', (s.id + back) % 2 ? '15:30' : '20:00'],
      ] as const) {
        const { start: begin, end } = shiftInstants(addDaysToDate(week, day), from, to, tz);
        const priced = async (where: { id: number; client_id: number }) => {
          const shift: ShiftTimes = {
            client_id: Number(where.client_id),
            site_id: Number(where.id),
            job_role_id: Number(s.job_role_id),
            start: begin,
            end,
            break_minutes: 30,
          };
          try {
            return { shift, price: await priceShift(db, m, shift, s.id) };
          } catch {
            return null; // no rate for this role at this home
          }
        };
        let made = site ? await priced(site) : null;
        for (const other of sites) {
          if (made) break;
          made = await priced(other);
          if (made) site ??= other;
        }
        if (!made) continue;
        const { shift, price } = made;
        rows.push({
          merchant_id: m,
          client_id: shift.client_id,
          site_id: shift.site_id,
          job_role_id: shift.job_role_id,
          start_at: begin,
          end_at: end,
          break_minutes: shift.break_minutes,
          sleep_in: false,
          status: 'closed',
          candidate_id: s.id,
          created_by: ctx.adminName,
          paid_minutes: price.paid_minutes,
          pay: price.pay,
          charge: price.charge,
          on_costs: price.on_costs,
          margin: price.margin,
          price_lines: JSON.stringify(price.price_lines),
          rate_card_id: price.rate_card_id,
          created_at: new Date(Date.parse(begin) - 10 * 86_400_000).toISOString(),
        });
      }
    const ids = await insertMany(db, 'shifts', rows);
    worked.push({ week, ids });
  }

  // Each week's timesheet: generated the Monday after and verified by the agency against the home's signing-in sheet
  // (one step each: no e-mail, link or PDF to make, which keeps the seed quick).
  const timesheets = ctx.engine.get('timesheets')!;
  for (const { week, ids } of worked) {
    if (ids.length === 0) continue;
    const made = (await as(admin, at(addDaysToDate(week, 7), '09:00'), (c) =>
      runCollectionAction(c, timesheets, timesheets.actions.get('generate')!, { shift_ids: ids }),
    )) as { timesheets: number[] };
    for (const id of made.timesheets) {
      const [{ lines }] = await db.query<{ lines: number }>(
        'select count(*)::int as lines from timesheet_lines where merchant_id = $1 and timesheet_id = $2',
        [m, id],
      );
      await as(admin, at(addDaysToDate(week, 8), '11:30'), (c) =>
        c.engine.act('timesheets', id, 'verify', {
          reason: "The home's signing-in sheet, checked with its manager by phone.",
          all_lines: lines,
        }),
      );
    }
  }

  // The weekly runs, made the Tuesday after each week; the older two approved and finalised the next day.
  const payRuns = ctx.engine.get('pay_runs')!;
  for (const [i, { week }] of worked.entries()) {
    // A pay day the product has no tax figures for has no run (one in tax week 53 has: taxed on a week 1 basis).
    if ('error' in taxPeriodOf(addDaysToDate(week, 6), 'weekly')) continue;
    const made = await as(admin, at(addDaysToDate(week, 8), '16:00'), (c) =>
      runCollectionAction(c, payRuns, payRuns.actions.get('generate')!, {
        frequency: 'weekly',
        from: week,
        to: addDaysToDate(week, 6),
      }),
    );
    const runId = (made as { run_id?: number }).run_id;
    if (!runId) continue;
    if (i < worked.length - 1) {
      const next = at(addDaysToDate(week, 9), '10:00');
      await as(admin, next, (c) => c.engine.act('pay_runs', runId, 'approve'));
      await as(admin, at(addDaysToDate(week, 9), '10:05'), (c) => c.engine.act('pay_runs', runId, 'finalise'));
      continue;
    }
    // The draft: a one-off addition to the week 1 staff member's payslip (else the first's), with its reason.
    const week1 = chosen.find((s) => caseOf.get(s.id)?.case === 'week1') ?? chosen[0];
    const [slip] = await db.query<{ id: number }>(
      `select id from payslips where merchant_id = $1 and pay_run_id = $2 order by candidate_id = $3 desc, id limit 1`,
      [m, runId, week1.id],
    );
    if (slip)
      await as(admin, at(addDaysToDate(week, 8), '16:20'), (c) =>
        c.engine.act('payslips', slip.id, 'adjust', {
          kind: 'addition',
          amount: 3_000,
          reason: 'Induction training attended (2 hours at £15.00), missed from the timesheet',
        }),
      );
  }
  await story.redated(['timesheets', 'timesheet_lines', 'pay_runs', 'payslips']);

  // Their bank details, entered by the admin through the profile's action (sealed with the process's key), so the
  // finalised runs' bank payments files are made: the umbrella worker's account is their company's. Entered now,
  // after their records' creation, so each History has it after the record was made.
  const bankAt = new Date();
  for (const [i, s] of chosen.entries()) {
    const [who] = await db.query<{ name: string; company: string | null }>(
      `select trim(first_name || ' ' || last_name) as name, company_name as company from candidates
        where merchant_id = $1 and id = $2`,
      [m, s.id],
    );
    await as(admin, bankAt, (c) =>
      c.engine.act('candidates', s.id, 'set_bank_details', {
        sort_code: DEMO_SORT_CODES[i % DEMO_SORT_CODES.length],
        account_number: String(70_114_300 + 37 * i),
        account_name: (who.company ?? who.name).slice(0, 60),
      }),
    );
  }
}

/** Sort codes of the demo's bank accounts (made up, in the UK's 6-digit form). */
const DEMO_SORT_CODES = ['60-16-13', '30-96-26', '40-12-76', '20-98-61', '11-00-01'];
