// The demo agency's invoices (issue 32), made from the demo timesheets through the engine as the agency would, each
// step dated on the day it would have happened. The year of history (when seeded) first, billed month by month and
// paid as each client pays (issue 34: the invoice report's aged debt and the dashboard's debtor days have a shape);
// then the current weeks: two runs (a weekly one three weeks ago over the older work, a daily one three days ago over
// the rest), invoices issued in both layouts, sent, paid in part and in full, left overdue and credited; an invoice
// with an exempt nursing line beside standard-rated ones; the rest left drafts.
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { systemPrincipal } from '../engine/handle.js';
import { runCollectionAction } from '../engine/actions.js';
import { datedStory } from './timesheets.js';
import {
  addDaysToDate,
  addMonthsToDate,
  agencyToday,
  daysBetween,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime.js';

export async function seedInvoices(db: Queryable, ctx: SeedContext) {
  const m = ctx.merchantId;
  const tz = ctx.timeZone;
  const registry = ctx.engine;
  const invoices = registry.get('invoices')!;
  const admin: EnginePrincipal = { ...systemPrincipal(m), userId: ctx.adminId, name: ctx.adminName };
  const now = Date.now();
  const daysAgo = (n: number) => new Date(now - n * 86_400_000);
  const today = agencyToday(tz, new Date(now));
  const story = await datedStory(db, m, tz, registry);
  /** A step at `when`, as the agency's admin: what it notifies or e-mails is dated then. */
  const as = <T>(when: Date, fn: (c: EngineContext) => Promise<T>) => story.step(admin, when, fn);

  // How the clients pay it (a made-up account), set when the agency began invoicing; the address and VAT number are
  // the agency's settings. It elected to use the nursing agencies' concession 60 days ago (never backdated: made on
  // that day), so the run's nurses and its healthcare assistants at homes with nursing are exempt by the rule
  // (vatTreatmentOf); the history's invoices, all before it, are standard-rated.
  const bank = {
    bank_account_name: 'Demo Care Staffing Ltd',
    bank_sort_code: '20-00-00',
    bank_account_number: '55779911',
  };
  const concession = { nursing_concession_from: agencyToday(tz, daysAgo(60)) };
  if (ctx.history) {
    const settings = await as(zonedDateTimeToInstant(ctx.history.from, '09:00', tz), (c) =>
      c.engine.create('invoice_settings', bank),
    );
    await as(daysAgo(60), (c) => c.engine.update('invoice_settings', Number(settings.id), concession));
  } else await as(daysAgo(60), (c) => c.engine.create('invoice_settings', { ...concession, ...bank }));
  const act = (when: Date, id: number, action: string, input: Record<string, unknown> = {}) =>
    as(when, (c) => c.engine.act('invoices', id, action, input));
  const [panelClient] = ctx.clientIds;

  /** A run as the agency starts it on `when`, over the days `from` to `to`: its drafts, the panel's client's first. */
  const run = async (when: Date, mode: string, from: string, to: string, clientIds?: number[]) => {
    const made = (await as(when, (c) =>
      runCollectionAction(c, invoices, invoices.actions.get('generate')!, { mode, from, to, client_ids: clientIds }),
    )) as { invoices?: number[] };
    const rows = await db.query<{ id: number; client_id: number; lines: number }>(
      `select i.id, i.client_id, (select count(*)::int from invoice_lines l where l.invoice_id = i.id) as lines
         from invoices i where i.merchant_id = $1 and i.id = any($2::int[]) order by i.id`,
      [m, made.invoices ?? []],
    );
    return rows.sort(
      (a, b) => Number(b.client_id === panelClient) - Number(a.client_id === panelClient) || a.id - b.id,
    );
  };
  const issue = async (when: Date, id: number, template: 'template1' | 'template2') => {
    // The layout is the agency's choice for each invoice, made on the draft; both are kept at issue.
    await as(when, (c) => c.engine.update('invoices', id, { template }));
    await act(when, id, 'issue');
  };
  /** A payment of `percent` of what is left to pay of invoice `id`, received on `when`. */
  const pay = async (id: number, percent: number, when: Date) => {
    const [inv] = await db.query<{ client_id: number; left: string }>(
      'select client_id, total + credited - paid as left from invoices where id = $1',
      [id],
    );
    const amount = Math.floor((Number(inv.left) * percent) / 100) || 1;
    await as(when, (c) =>
      c.engine.create('payments', {
        client_id: inv.client_id,
        paid_on: agencyToday(tz, when),
        amount,
        reference: `BACS ${id}`,
        method: 'bank_transfer',
        split: [{ invoice_id: id, amount }],
      }),
    );
  };

  if (ctx.history) await billHistory(ctx.history);

  // Three weeks ago, a weekly run over the older work of two clients (each issue renders and keeps four PDFs: the
  // demo loads in every test's setup, so it issues a handful); each invoice issued and sent the next day. The
  // panel's client's first is still unpaid (overdue by now), its second paid; the others' paid in part or left sent.
  const older = await run(
    daysAgo(20),
    'Weekly',
    addDaysToDate(today, -35),
    addDaysToDate(today, -21),
    ctx.clientIds.slice(0, 2),
  );
  for (const [i, d] of older.entries()) {
    await issue(daysAgo(19), d.id, i % 2 === 0 ? 'template1' : 'template2');
    await act(daysAgo(19), d.id, 'send');
  }
  // The first (the panel's client's) is left unpaid: 14-day terms from 19 days ago make it overdue.
  const [, settled, ...others] = older;
  if (settled) await pay(settled.id, 100, daysAgo(6));
  for (const [i, d] of others.entries()) if (i % 2 === 0) await pay(d.id, 40, daysAgo(5));

  // Three days ago, a daily run over the rest: the draft with the most lines gets an exempt nursing line beside its
  // standard ones (the agency's change, with its reason) and is issued in the second layout; others issued, paid in
  // part, credited in full with re-bill; the rest left drafts.
  const recent = await run(daysAgo(3), 'daily', addDaysToDate(today, -20), addDaysToDate(today, -4));
  if (recent.length) await billRecent(recent);
  // What the invoices notified and e-mailed, dated when it happened.
  await story.redated([]);

  async function billRecent(recent: { id: number; client_id: number; lines: number }[]) {
    const mixed = [...recent].sort((a, b) => b.lines - a.lines || a.id - b.id)[0];
    const [line] = await db.query<{ id: number }>(
      'select id from invoice_lines where merchant_id = $1 and invoice_id = $2 order by id limit 1',
      [m, mixed.id],
    );
    await as(daysAgo(3), (c) =>
      c.engine.update('invoice_lines', line.id, {
        vat_treatment: 'exempt',
        vat_reason: 'Registered nurse supplied to a care home with nursing (VAT Notice 701/57, 6.5)',
      }),
    );
    const rest = recent.filter((d) => d !== mixed);
    await issue(daysAgo(2), mixed.id, 'template2');
    const [part, credited, plain] = rest;
    if (part) {
      await issue(daysAgo(2), part.id, 'template1');
      await act(daysAgo(2), part.id, 'send');
      await pay(part.id, 50, daysAgo(1));
    }
    if (credited) {
      await issue(daysAgo(2), credited.id, 'template1');
      await act(daysAgo(1), credited.id, 'credit', { kind: 'full', reason: 'Charged at the wrong rate', rebill: true });
    }
    if (plain) await issue(daysAgo(1), plain.id, 'template2');
  }

  /**
   * The year of history as the agency billed it: a monthly run on the second of each month over the month before
   * (the last over the history's days of its month), its invoices issued and sent that day in the agency's layout.
   * Each client pays by its habit: the panel's client within its terms; one long-standing client later and later,
   * its last four months left unpaid (owed up to 90 days past due and more by now); the others a week to four weeks
   * after issue, so some pay late. One invoice is paid in part, one reduced by a credit note before it was paid.
   */
  async function billHistory({ from, until }: { from: string; until: string }) {
    const billed: { id: number; client_id: number; issued: string }[] = [];
    for (let start = from; start < until;) {
      const nextMonth = addMonthsToDate(start.slice(0, 8) + '01', 1);
      const end = nextMonth < until ? addDaysToDate(nextMonth, -1) : addDaysToDate(until, -1);
      const issued = addDaysToDate(end, 2);
      const when = zonedDateTimeToInstant(issued, '10:00', tz);
      const ids = (await run(when, 'monthly', start, end)).map((d) => d.id);
      if (ids.length) {
        await as(when, (c) => c.engine.act('invoices', ids, 'issue'));
        await as(when, (c) => c.engine.act('invoices', ids, 'send'));
        const rows = await db.query<{ id: number; client_id: number }>(
          'select id, client_id from invoices where id = any($1::int[]) order by number',
          [ids],
        );
        for (const r of rows) billed.push({ id: r.id, client_id: Number(r.client_id), issued });
      }
      start = nextMonth;
    }
    // The slow payer: of the other clients billed from the first month, the one billed in the most months.
    const months = (id: number) => billed.filter((b) => b.client_id === id).length;
    const slow = billed
      .filter((b) => b.issued === billed[0].issued && b.client_id !== panelClient)
      .map((b) => b.client_id)
      .sort((a, b) => months(b) - months(a) || a - b)[0];
    const others = billed.filter((b) => b.client_id !== panelClient && b.client_id !== slow);
    const credited = billed.find((b) => b.client_id === panelClient && daysBetween(b.issued, today) > 150);
    if (credited)
      await act(zonedDateTimeToInstant(addDaysToDate(credited.issued, 5), '11:00', tz), credited.id, 'credit', {
        kind: 'amount',
        amount: 4000,
        reason: 'Agreed reduction: a night shift started an hour late.',
      });
    const partPaid = others.at(-Math.min(others.length, 6));
    for (const [i, b] of billed.entries()) {
      const age = daysBetween(b.issued, today);
      const delay =
        b.client_id === panelClient
          ? 12
          : b.client_id === slow
            ? age < 130
              ? null
              : 20 + Math.round((365 - age) / 9)
            : 7 + ((b.client_id * 5 + i * 3) % 22);
      if (delay === null || delay >= age) continue;
      const when = zonedDateTimeToInstant(addDaysToDate(b.issued, delay), '14:00', tz);
      await pay(b.id, b === partPaid ? 50 : 100, when);
    }
  }
}
