// The demo agency's invoices (issue 32), made from the demo timesheets through the engine as the agency would: one
// daily run over the signed and verified work of the past five weeks, then drafts issued, paid in part and in full,
// and credited, each dated on the day it would have happened.
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { systemPrincipal, withEngine } from '../engine/handle.js';
import { runCollectionAction } from '../engine/actions.js';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime.js';

export async function seedInvoices(db: Queryable, ctx: SeedContext) {
  const m = ctx.merchantId;
  const tz = ctx.timeZone;
  const registry = ctx.engine;
  const invoices = registry.get('invoices')!;
  const admin: EnginePrincipal = { ...systemPrincipal(m), userId: ctx.adminId, name: ctx.adminName };
  const now = Date.now();
  const daysAgo = (n: number) => new Date(now - n * 86_400_000);
  const today = agencyToday(tz, new Date(now));
  const as = <T>(when: Date, fn: (c: EngineContext) => Promise<T>) =>
    fn(withEngine({ db, principal: admin, now: when, timeZone: tz, today: agencyToday(tz, when) }, registry));

  // The run, three days ago: one invoice per client per day of the demo work of the five weeks before.
  const run = (await as(daysAgo(3), (c) =>
    runCollectionAction(c, invoices, invoices.actions.get('generate')!, {
      mode: 'daily',
      from: addDaysToDate(today, -35),
      to: addDaysToDate(today, -4),
    }),
  )) as { invoices: number[] };
  const drafts = (
    await db.query<{ id: number }>(
      `select i.id from invoices i join clients c on c.merchant_id = i.merchant_id and c.id = i.client_id
        where i.merchant_id = $1 and i.id = any($2::int[]) order by i.id`,
      [m, run.invoices],
    )
  ).map((r) => r.id);
  if (drafts.length === 0) return;
  const lineCount = new Map(
    (
      await db.query<{ id: number; n: number }>(
        'select invoice_id as id, count(*)::int as n from invoice_lines where merchant_id = $1 and invoice_id = any($2::int[]) group by invoice_id',
        [m, drafts],
      )
    ).map((r) => [r.id, r.n]),
  );
  const act = (when: Date, id: number, action: string, input: Record<string, unknown> = {}) =>
    as(when, (c) => c.engine.act('invoices', id, action, input));

  // The first draft gets an exempt nursing line beside its standard ones (the agency's change, with its reason).
  // The draft with the most lines first: its first line is made exempt, beside its standard-rated ones.
  drafts.sort((a, b) => (lineCount.get(b) ?? 0) - (lineCount.get(a) ?? 0) || a - b);
  const [line] = await db.query<{ id: number }>(
    'select id from invoice_lines where merchant_id = $1 and invoice_id = $2 order by id limit 1',
    [m, drafts[0]],
  );
  if (line)
    await as(daysAgo(3), (c) =>
      c.engine.update('invoice_lines', line.id, {
        vat_treatment: 'exempt',
        vat_reason: 'Registered nurse supplied to a care home with nursing (VAT Notice 701/57, 6.5)',
      }),
    );
  const open = async (i: number, when: Date) => {
    if (drafts[i] === undefined) return undefined;
    await act(when, drafts[i], 'issue');
    return drafts[i];
  };
  // Issued, then paid in part, then in full; one credited in full; the rest left drafts.
  await open(0, daysAgo(2));
  const part = await open(1, daysAgo(2));
  const paid = await open(2, daysAgo(2));
  const credited = await open(3, daysAgo(2));
  const pay = async (id: number | undefined, share: number, when: Date) => {
    if (id === undefined) return;
    const [inv] = await db.query<{ client_id: number; total: string }>(
      'select client_id, total from invoices where id = $1',
      [id],
    );
    const amount = Math.floor((Number(inv.total) * share) / 100) || 1;
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
  await pay(part, 50, daysAgo(1));
  await pay(paid, 100, daysAgo(1));
  if (credited !== undefined)
    await act(daysAgo(1), credited, 'credit', { kind: 'full', reason: 'Charged at the wrong rate', rebill: true });
}
