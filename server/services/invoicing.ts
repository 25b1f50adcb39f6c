// An invoice run (issue 32, generation): the invoiceable items of the chosen clients and period, grouped by the
// run's mode (groupInvoiceable), previewed with their totals (invoiceTotals), then drafted: a small run in the
// request's one transaction, a large one as a job that bills one client per transaction (invoiceRun), the invoices
// and their lines each created as a set (createMany). An item is billed once: runs of one agency take turns (an
// advisory lock), and the partial unique indexes of migration 090 refuse a second unreleased line for a timesheet
// line or a late cancellation whatever writes it.
import type { EngineContext } from '../engine/context.js';
import { unitsOf } from '../engine/compile.js';
import { lockRuns, queueRun, runJob } from '../jobs/runJob.js';
import { HttpError } from '../http.js';
import {
  groupInvoiceable,
  type ClientBilling,
  type InvoiceGroup,
  type InvoiceableItem,
  type InvoiceMode,
} from '../../core/domain/invoicing/grouping.js';
import { creditNote, invoiceTotals, timeOfSupply, type CreditRequest } from '../../core/domain/invoicing/totals.js';
import {
  allocatePayment,
  reversePayment,
  settledState,
  type Allocation,
  type InvoiceState,
  type PayableInvoice,
} from '../../core/domain/invoicing/settlement.js';
import type { Row } from '../db/index.js';
import { analyzeIfNeverAnalyzed, analyzeIfYoung } from '../db/statistics.js';
import {
  careTypeOfClientType,
  vatTreatmentOf,
  type CareType,
  type ConcessionRole,
} from '../../core/domain/invoicing/vatTreatment.js';
import { formatPounds, roundPence } from '../../core/engine/money.js';
import { letterheadOf } from '../documents/letterhead.js';
import { queueEmails, renderEmail } from '../notifications/outbox.js';
import { notify } from '../notifications/notify.js';
import { formatDisplayDate } from '../../core/domain/time/agencyTime.js';

export interface GenerateInvoicesInput {
  mode: InvoiceMode;
  from: string;
  to: string;
  client_ids?: number[] | null;
  preview?: boolean | null;
  /** Run as a job with progress whatever its size (the screens ask for it). */
  background?: boolean | null;
}

/** An item as the run reads it: what grouping needs, and what its invoice line says. */
interface Item extends InvoiceableItem {
  description: string;
  hours: number;
  role: string;
  /** What the role supplies under the concession, and where: vatTreatmentOf reads them. */
  concession: ConcessionRole;
  care_type: CareType;
}

/** Signed or verified timesheet lines, and late-cancellation charges, of the period not yet billed. */
async function invoiceable(ctx: EngineContext, input: GenerateInvoicesInput): Promise<Item[]> {
  const clients = input.client_ids?.length ? input.client_ids : null;
  // The tables joined by key to each line, when never analyzed (an embedded database has no autovacuum): a run's
  // step joined its 2,000 lines to every staff member and site, a million rows, 0.7 s a step (docs/decisions.md,
  // "Issue 32.6 — measuring invoices").
  await analyzeIfNeverAnalyzed(ctx.db, ['clients', 'sites', 'candidates', 'job_roles', 'shifts']);
  const rows = await ctx.db.query<{
    kind: 'timesheet_line' | 'cancellation';
    id: number;
    client_id: number;
    site_id: number;
    staff_id: number | null;
    shift_id: number | null;
    date: string;
    net: string | number;
    minutes: number | null;
    staff: string | null;
    role: string | null;
    concession: ConcessionRole | null;
    care_type: CareType | null;
    client_type: string | null;
    po_number: string | null;
    times: string | null;
  }>(
    // The times worked (else booked), in the agency's zone: reg 14's description of the supply names them.
    `select 'timesheet_line' as kind, l.id, t.client_id, l.site_id, l.candidate_id as staff_id, l.shift_id,
            l.work_date::text as date, coalesce(l.charge, 0) as net, l.paid_minutes as minutes,
            trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) as staff, r.name as role,
            r.vat_concession as concession, si.care_type, k.client_type, sh.po_number,
            to_char(coalesce(l.actual_start, l.scheduled_start) at time zone $5, 'HH24:MI') || '–' ||
              to_char(coalesce(l.actual_end, l.scheduled_end) at time zone $5, 'HH24:MI') as times
       from timesheet_lines l
       join timesheets t on t.merchant_id = l.merchant_id and t.id = l.timesheet_id
       join clients k on k.merchant_id = t.merchant_id and k.id = t.client_id
       left join sites si on si.merchant_id = l.merchant_id and si.id = l.site_id
       left join shifts sh on sh.merchant_id = l.merchant_id and sh.id = l.shift_id
       left join candidates c on c.merchant_id = l.merchant_id and c.id = l.candidate_id
       left join job_roles r on r.merchant_id = l.merchant_id and r.id = l.job_role_id
      where l.merchant_id = $1 and l.status in ('signed', 'verified') and l.work_date between $2::date and $3::date
        and ($4::int[] is null or t.client_id = any($4::int[]))
        and ($4::int[] is not null or k.invoice_mode is null or k.invoice_mode = $6)
        and ($7::int[] is null or k.business_unit_id = any($7::int[]))
        and not exists (select 1 from invoice_lines il where il.merchant_id = l.merchant_id
                          and il.timesheet_line_id = l.id and il.released_at is null)
     union all
     select 'cancellation', s.id, s.client_id, s.site_id, s.candidate_id, s.id,
            (s.start_at at time zone $5)::date::text, s.cancellation_charge, null, null, r.name,
            r.vat_concession, si.care_type, k.client_type, s.po_number,
            to_char(s.start_at at time zone $5, 'HH24:MI') || '–' || to_char(s.end_at at time zone $5, 'HH24:MI')
       from shifts s
       join clients k on k.merchant_id = s.merchant_id and k.id = s.client_id
       left join sites si on si.merchant_id = s.merchant_id and si.id = s.site_id
       left join job_roles r on r.merchant_id = s.merchant_id and r.id = s.job_role_id
      where s.merchant_id = $1 and s.status = 'cancelled' and coalesce(s.cancellation_charge, 0) > 0
        and s.deleted_at is null and (s.start_at at time zone $5)::date between $2::date and $3::date
        and ($4::int[] is null or s.client_id = any($4::int[]))
        and ($4::int[] is not null or k.invoice_mode is null or k.invoice_mode = $6)
        and ($7::int[] is null or k.business_unit_id = any($7::int[]))
        and not exists (select 1 from invoice_lines il where il.merchant_id = s.merchant_id
                          and il.cancelled_shift_id = s.id and il.released_at is null)
      order by 1, 2`,
    // A custom role limited to business units bills only its units' clients (issue 35), as it sees only theirs.
    [ctx.principal.merchantId, input.from, input.to, clients, ctx.timeZone, input.mode, unitsOf(ctx.principal)],
  );
  return rows.map((r) => ({
    kind: r.kind,
    id: Number(r.id),
    client_id: Number(r.client_id),
    site_id: Number(r.site_id),
    staff_id: r.staff_id == null ? null : Number(r.staff_id),
    shift_id: Number(r.shift_id),
    date: r.date,
    net: Number(r.net),
    hours: r.minutes == null ? 1 : Number(r.minutes) / 60,
    role: r.role ?? '',
    concession: r.concession ?? 'none',
    // A site without a care type of its own follows its client's type (Issue 32.2).
    care_type: r.care_type ?? careTypeOfClientType(r.client_type),
    po_number: r.po_number,
    description:
      r.kind === 'cancellation'
        ? `Late cancellation, ${r.role ?? 'shift'}, ${r.date}${r.times ? `, ${r.times}` : ''}`
        : `${r.staff ?? ''}, ${r.role ?? ''}, ${r.date}${r.times ? `, ${r.times}` : ''}`,
  }));
}

/**
 * An item as its invoice line: hours at the hourly price the charge works out to, the net the charge exactly, and
 * its VAT treatment by the concession's rule on the day of the work, with the rule's reason.
 */
function lineOf(item: Item, concessionFrom: string | null) {
  const vat = vatTreatmentOf({
    concessionFrom,
    suppliedOn: item.date,
    role: { name: item.role, concession: item.concession },
    careType: item.care_type,
  });
  return {
    timesheet_line_id: item.kind === 'timesheet_line' ? item.id : null,
    cancelled_shift_id: item.kind === 'cancellation' ? item.id : null,
    description: item.description,
    work_date: item.date,
    quantity: item.hours,
    unit_price: item.hours > 0 ? roundPence(item.net / item.hours) : item.net,
    net: item.net,
    vat_treatment: vat.treatment,
    vat_reason: vat.reason,
  };
}

/**
 * The items grouped by the run's mode and their clients' billing settings (a client requiring a PO number, split by
 * site or PO), with the agency's concession election their lines' VAT is judged by.
 */
async function groupsOf(ctx: EngineContext, items: Item[], mode: InvoiceMode) {
  const m = ctx.principal.merchantId;
  const [settings] = await ctx.db.query<{ from: string | null }>(
    'select nursing_concession_from::text as from from invoice_settings where merchant_id = $1',
    [m],
  );
  const rows = await ctx.db.query<ClientBilling & { id: number }>(
    'select id, po_required, split_by_po, split_by_site from clients where merchant_id = $1 and id = any($2::int[])',
    [m, [...new Set(items.map((i) => i.client_id))]],
  );
  const billing = new Map(rows.map((r) => [Number(r.id), r]));
  return { ...groupInvoiceable(items, mode, (id) => billing.get(id)), concessionFrom: settings?.from ?? null };
}

/** The drafts of grouped items (one invoice per group) with their lines and totals, as a preview shows them. */
function draftsOf(groups: InvoiceGroup<Item>[], concessionFrom: string | null) {
  return groups.map((g) => {
    const lines = g.items.map((i) => lineOf(i, concessionFrom));
    const totals = invoiceTotals(
      lines.map((l) => ({
        net: l.net,
        treatment: l.vat_treatment,
        timeOfSupply: timeOfSupply(l.work_date, null, l.vat_treatment),
      })),
    );
    return { group: g, lines, totals };
  });
}

/**
 * Drafts the groups' invoices for the run in the caller's transaction: the invoices in one createMany, all their
 * lines in another, so an invoice, its lines and the hold its lines put on what they bill (the partial unique
 * indexes of migration 090) commit together or not at all.
 */
async function draftInvoices(
  ctx: EngineContext,
  runId: number,
  mode: InvoiceMode,
  { groups, concessionFrom }: { groups: InvoiceGroup<Item>[]; concessionFrom: string | null },
) {
  const drafts = draftsOf(groups, concessionFrom);
  if (drafts.length === 0) return { invoices: [] as number[], lines: 0, total: 0 };
  const reason = `Invoice run ${runId}`;
  const invoices = await ctx.engine.createMany(
    'invoices',
    drafts.map(({ group }) => ({
      client_id: group.client_id,
      site_id: group.site_id,
      period_start: group.from,
      period_end: group.to,
      mode,
      po_number: group.po_number,
      run_id: runId,
      // No template: the agency's default layout (the invoices' agencyDefaults); a draft's can change before issue.
    })),
    { reason },
  );
  const lines = drafts.flatMap(({ lines }, i) => lines.map((l) => ({ ...l, invoice_id: invoices[i].id })));
  // While the tables are young (no statistics yet): each line's foreign key check finds its invoice by the unique key,
  // not by reading the agency's invoices; and the next step's read of what is not yet billed finds a billed line by
  // the billed-once index, not by reading the agency's invoice lines for each timesheet line (docs/decisions.md,
  // "Issue 32.6 — the invoice run on young tables").
  await analyzeIfYoung(ctx.db, 'invoices');
  await ctx.engine.createMany('invoice_lines', lines, { reason });
  await analyzeIfYoung(ctx.db, 'invoice_lines');
  return {
    invoices: invoices.map((i) => Number(i.id)),
    lines: lines.length,
    total: drafts.reduce((sum, d) => sum + d.totals.total, 0),
  };
}

/**
 * A run over more clients than this is a job with progress (the request answers 202 with the run and its job), one
 * client a step; this many or fewer are drafted in the request. The screens always ask for the job (`background`),
 * so that they can show its progress and be left.
 */
export const RUN_JOB_CLIENTS = 20;

/** The advisory lock an agency's runs (and each step of a run's job) take turns on. */
const RUN_LOCK = 32032;

/**
 * POST /api/invoices/actions/generate: the preview, or the run. The run's row keeps the clients with something to
 * bill, in the order they are billed; a small run drafts them all in this transaction, a large one (or one asked
 * for in the background) is queued as a job that bills one client per transaction (invoiceRun).
 */
export async function generateInvoices(ctx: EngineContext, input: GenerateInvoicesInput) {
  if (input.to < input.from) throw new HttpError(422, 'The period ends before it starts.', { to: 'Ends before From.' });
  if (!input.preview) await lockRuns(ctx, RUN_LOCK);
  const items = await invoiceable(ctx, input);
  const grouped = await groupsOf(ctx, items, input.mode);
  const { groups, lackingPo, concessionFrom } = grouped;
  if (input.preview) {
    const byKey = new Map(items.map((i) => [`${i.kind}:${i.id}`, i]));
    return {
      invoices: draftsOf(groups, concessionFrom).map(({ group, lines, totals }) => ({
        client_id: group.client_id,
        site_id: group.site_id,
        po_number: group.po_number,
        from: group.from,
        to: group.to,
        lines,
        net: totals.net,
        vat: totals.vat,
        total: totals.total,
      })),
      // Held back: the client requires a PO number and these have none (the screen names them).
      lacking_po: lackingPo.map((i) => {
        const item = byKey.get(`${i.kind}:${i.id}`);
        return {
          kind: i.kind,
          id: i.id,
          client_id: i.client_id,
          shift_id: i.shift_id,
          date: i.date,
          description: item?.description ?? '',
          net: i.net,
        };
      }),
    };
  }
  if (groups.length === 0) return { run_id: null, invoices: [], lines: 0 };
  // Groups come ordered by client: the clients in the order the run bills them.
  const clients = [...new Set(groups.map((g) => g.client_id))];
  const run = await ctx.engine.create(
    'invoice_runs',
    {
      mode: input.mode,
      period_start: input.from,
      period_end: input.to,
      client_ids: input.client_ids ?? [],
      started_by: ctx.principal.name,
      clients,
      clients_done: 0,
      invoice_count: 0,
      line_count: 0,
      total: 0,
    },
    { reason: 'Invoice run' },
  );
  const runId = Number(run.id);
  if (input.background || clients.length > RUN_JOB_CLIENTS)
    return queueRun(
      ctx,
      { kind: invoiceRun, resource: 'invoice_runs', id: runId, total: clients.length, reason: 'Invoice run queued' },
      { clients: clients.length },
    );
  const made = await draftInvoices(ctx, runId, input.mode, grouped);
  await ctx.engine.update(
    'invoice_runs',
    runId,
    {
      clients_done: clients.length,
      invoice_count: made.invoices.length,
      line_count: made.lines,
      total: made.total,
      finished_at: ctx.now.toISOString(),
    },
    { reason: 'Invoice run finished' },
  );
  return { run_id: runId, invoices: made.invoices, lines: made.lines };
}

/**
 * Where a step of a run's job may be held, for a test that kills the process mid-run: with INVOICE_RUN_PAUSE set,
 * each step after the first waits, its client's invoices written but not committed, while another session holds
 * advisory lock (RUN_PAUSE_LOCK, agency). Unset (always, in production) it costs nothing.
 */
export const RUN_PAUSE_LOCK = 32033;

/**
 * A large run, one client a step, each step one transaction with the job's progress (runJob): the client's items not
 * yet billed, drafted (draftInvoices), and the run's counts. A step rolled back by a killed process leaves nothing of
 * that client (invoices, lines and holds commit together) and is done again by the next worker; a committed one is
 * never repeated (the job's progress and the run's clients_done move in the same transaction), and an item billed
 * meanwhile by another run is not found again, so nothing is billed twice.
 */
export const invoiceRun = runJob({
  kind: 'invoice-run',
  resource: 'invoice_runs',
  lock: RUN_LOCK,
  pause: { env: 'INVOICE_RUN_PAUSE', lock: RUN_PAUSE_LOCK },
  doneField: 'clients_done',
  label: 'Invoice run',
  item: 'client',
  async read(ctx, runId) {
    const [run] = await ctx.db.query<{
      mode: InvoiceMode;
      from: string;
      to: string;
      clients: number[];
      clients_done: number;
      invoice_count: number;
      line_count: number;
      total: string;
    }>(
      `select mode, period_start::text as "from", period_end::text as "to", clients, clients_done, invoice_count,
              line_count, total from invoice_runs where merchant_id = $1 and id = $2`,
      [ctx.principal.merchantId, runId],
    );
    return { ...run, money: run.total, done: run.clients_done, total: run.clients.length };
  },
  async work(ctx, run, runId) {
    const next = run.clients[run.done];
    const made =
      next === undefined
        ? { invoices: [], lines: 0, total: 0 }
        : await draftInvoices(
            ctx,
            runId,
            run.mode,
            await groupsOf(
              ctx,
              await invoiceable(ctx, { mode: run.mode, from: run.from, to: run.to, client_ids: [Number(next)] }),
              run.mode,
            ),
          );
    return {
      taken: 1,
      fields: {
        invoice_count: Number(run.invoice_count) + made.invoices.length,
        line_count: Number(run.line_count) + made.lines,
        total: Number(run.money) + made.total,
      },
    };
  },
});

/**
 * POST /api/invoices/:id/actions/credit: a credit note against an issued invoice, worked out by creditNote (full,
 * chosen lines, or an amount ex VAT) from its lines and the credit notes before it; the invoice's `credited` and its
 * state as the credit settles it. Re-bill releases the credited lines, so a run bills their work again: the only
 * change an issued invoice's lines take, named in their audit entries.
 */
export async function creditInvoice(ctx: EngineContext, invoice: Row, input: Record<string, unknown>) {
  const m = ctx.principal.merchantId;
  const number = String(invoice.number);
  const lines = await ctx.db.query<{
    id: number;
    net: string;
    vat: string;
    vat_rate: number;
    vat_treatment: string;
    description: string;
  }>(
    'select id, net, vat, vat_rate, vat_treatment, description from invoice_lines where merchant_id = $1 and invoice_id = $2 order by id',
    [m, invoice.id],
  );
  const earlier = await ctx.db.query<{
    net: string;
    vat_rate: number;
    vat_treatment: string;
    invoice_line_id: number | null;
  }>(
    `select l.net, l.vat_rate, l.vat_treatment, l.invoice_line_id from credit_note_lines l
       join credit_notes n on n.merchant_id = l.merchant_id and n.id = l.credit_note_id
      where l.merchant_id = $1 and n.invoice_id = $2`,
    [m, invoice.id],
  );
  const category = (treatment: string) => (treatment === 'exempt' ? 'E' : 'S');
  const kind = String(input.kind);
  const request: CreditRequest =
    kind === 'full'
      ? { kind: 'full' }
      : kind === 'lines'
        ? { kind: 'lines', lineIds: Array.isArray(input.line_ids) ? input.line_ids.map(Number) : [] }
        : { kind: 'amount', net: Number(input.amount ?? 0), reason: String(input.reason ?? '') };
  const result = creditNote(
    number,
    lines.map((l) => ({
      id: l.id,
      net: Number(l.net),
      category: category(l.vat_treatment),
      rate: l.vat_rate,
      vat: Number(l.vat),
    })),
    earlier.map((l) => ({
      net: Number(l.net),
      category: category(l.vat_treatment),
      rate: l.vat_rate,
      credits_line_id: l.invoice_line_id,
    })),
    request,
  );
  if (!result.ok) throw new HttpError(409, result.message);
  const note = await ctx.engine.create(
    'credit_notes',
    {
      invoice_id: invoice.id,
      client_id: invoice.client_id,
      kind,
      reason: input.reason,
      rebill: input.rebill === true,
      issue_date: ctx.today,
      net: result.totals.net,
      vat: result.totals.vat,
      total: result.totals.total,
    },
    { reason: `Credit against ${number}` },
  );
  const byId = new Map(lines.map((l) => [l.id, l]));
  await ctx.engine.createMany(
    'credit_note_lines',
    result.lines.map((l) => ({
      credit_note_id: note.id,
      invoice_line_id: l.credits_line_id,
      description: l.credits_line_id ? (byId.get(l.credits_line_id)?.description ?? '') : String(input.reason),
      vat_treatment: l.category === 'E' ? 'exempt' : 'standard',
      vat_rate: l.rate,
      net: l.net,
      vat: l.vat,
    })),
    { reason: `Credit note ${String(note.number)}` },
  );
  const released = result.lines.flatMap((l) => (l.credits_line_id ? [l.credits_line_id] : []));
  if (input.rebill === true && released.length) {
    const released_at = ctx.now.toISOString();
    await ctx.engine.updateMany(
      'invoice_lines',
      released.map((id) => ({ id, released_at })),
      {
        reason: `Credit note ${String(note.number)}: re-bill`,
        overrideLock: `Credit note ${String(note.number)} re-bills the line`,
      },
    );
  }
  const credited = Number(invoice.credited ?? 0) + result.totals.total;
  const state = settledState(invoice.state as InvoiceState, {
    sent: invoice.sent_at != null,
    total: Number(invoice.total),
    credited,
    paid: Number(invoice.paid ?? 0),
  });
  return { credited, state };
}

/** The client's invoices a payment may go against, locked: what each has left to pay. */
async function payableInvoices(ctx: EngineContext, clientId: number): Promise<PayableInvoice[]> {
  const rows = await ctx.db.query<{
    id: number;
    number: string | null;
    state: InvoiceState;
    due_date: string | null;
    balance: string;
  }>(
    `select id, number, state, due_date::text as due_date, (total + credited - paid) as balance from invoices
      where merchant_id = $1 and client_id = $2 and state <> 'draft' and state <> 'void' order by id for update`,
    [ctx.principal.merchantId, clientId],
  );
  return rows.map((r) => ({ ...r, client_id: clientId, balance: Number(r.balance) }));
}

/** A new payment's allocations (as split, or oldest due first), or the refusal in words (an overpayment). */
export async function allocationsOf(ctx: EngineContext, payment: Row): Promise<Allocation[] | string> {
  const split = Array.isArray(payment.split) && payment.split.length ? (payment.split as Allocation[]) : undefined;
  const result = allocatePayment(
    { client_id: Number(payment.client_id), amount: Number(payment.amount) },
    await payableInvoices(ctx, Number(payment.client_id)),
    split?.map((p) => ({ invoice_id: Number(p.invoice_id), amount: Number(p.amount) })),
  );
  return result.ok ? result.allocations : result.message;
}

/** Writes a payment's allocations (or their reversal) and moves each invoice to the state its payments settle. */
export async function allocate(ctx: EngineContext, paymentId: number, allocations: Allocation[], reason: string) {
  await ctx.engine.createMany(
    'payment_allocations',
    allocations.map((a) => ({ payment_id: paymentId, invoice_id: a.invoice_id, amount: a.amount })),
    { reason },
  );
  const paid = await ctx.db.query<{ id: number; paid: string }>(
    `select invoice_id as id, sum(amount) as paid from payment_allocations
      where merchant_id = $1 and invoice_id = any($2::int[]) group by invoice_id order by invoice_id`,
    [ctx.principal.merchantId, allocations.map((a) => a.invoice_id)],
  );
  // A payment goes against a handful of invoices: each settles through its own declared transition.
  for (const p of paid) await ctx.engine.act('invoices', p.id, 'settle', { paid: Number(p.paid) }, { reason });
}

/** A payment reversed with its reason: its allocations taken back, never deleted (reversePayment). */
export async function reverseOf(ctx: EngineContext, payment: Row, reason: string) {
  const allocations = await ctx.db.query<{ invoice_id: number; amount: string }>(
    'select invoice_id, amount from payment_allocations where merchant_id = $1 and payment_id = $2 order by id',
    [ctx.principal.merchantId, payment.id],
  );
  const result = reversePayment(
    {
      amount: Number(payment.amount),
      allocations: allocations.map((a) => ({ invoice_id: a.invoice_id, amount: Number(a.amount) })),
      reversed: payment.state === 'reversed',
    },
    reason,
  );
  if (!result.ok) throw new HttpError(409, result.message);
  await allocate(ctx, Number(payment.id), result.allocations, `Payment reversed: ${reason}`);
}

/**
 * Issued (issue 35): the client's users hear of it, in their bell and by e-mail, each as the agency's client settings
 * or their own choice say (server/notifications/notify.ts); sending it later e-mails the PDF to the billing address.
 */
export async function notifyInvoiceIssued(ctx: EngineContext, invoice: Row) {
  const [client] = await ctx.db.query<{ name: string }>('select name from clients where merchant_id = $1 and id = $2', [
    ctx.principal.merchantId,
    invoice.client_id,
  ]);
  const number = String(invoice.number);
  const amount = formatPounds(Number(invoice.total));
  const due = formatDisplayDate(String(invoice.due_date));
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'invoice.issued',
    title: `Invoice ${number} issued`,
    body: `Invoice ${number} for ${amount} was issued, due on ${due}. You can read and download it in your client panel.`,
    link: `/invoice/client-invoice/client-InvoiceView/${String(invoice.id)}`,
    clientLink: `/client/invoice/${String(invoice.id)}`,
    audience: { clientId: Number(invoice.client_id) },
    data: { invoice_number: number, client_name: client?.name ?? '', due_date: due, amount },
  });
}

/**
 * Send: the issued invoice e-mailed through the outbox to the client's billing address (else its e-mail), with its
 * number, total and due date and the address of the client panel's invoice, and its kept PDF attached: the copy of
 * the invoice's chosen layout kept at issue for the client's own users (no agency-only field), attached by
 * reference and read when the mail goes. Refused in words when the client has no address to send to.
 */
export async function sendInvoice(ctx: EngineContext, invoice: Row) {
  const [client] = await ctx.db.query<{ name: string; to: string | null }>(
    'select name, coalesce(billing_email, email) as to from clients where merchant_id = $1 and id = $2',
    [ctx.principal.merchantId, invoice.client_id],
  );
  if (!client?.to)
    throw new HttpError(
      409,
      `${client?.name ?? 'The client'} has no billing e-mail address: add one to send the invoice.`,
    );
  // The client's reading: what its managers are served by GET /api/invoices/{id}/pdf (readingsOf keeps one copy per
  // reading; manager and viewer read the same).
  const [kept] = await ctx.db.query<{ id: number }>(
    `select id from issued_documents
      where merchant_id = $1 and resource = 'invoices' and record_id = $2 and template = $3 and role = 'manager'`,
    [ctx.principal.merchantId, invoice.id, invoice.template],
  );
  if (!kept) throw new HttpError(409, `${String(invoice.number)} has no kept PDF to send.`);
  const letterhead = await letterheadOf(ctx.db, ctx.principal.merchantId);
  const number = String(invoice.number);
  const mail = renderEmail(
    letterhead,
    `Invoice ${number} from ${letterhead.name}`,
    `Hello,\n\nInvoice ${number} for ${formatPounds(Number(invoice.total))} is due by ${String(invoice.due_date)}. ` +
      `It is attached, and you can read and download it in your client panel.\n\n${letterhead.name}`,
    `/client/invoice/${String(invoice.id)}`,
  );
  await queueEmails(ctx.db, [
    {
      merchantId: ctx.principal.merchantId,
      recipient: client.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      event: 'invoice.sent',
      attachments: [kept.id],
    },
  ]);
  return { sent_at: ctx.now.toISOString() };
}
