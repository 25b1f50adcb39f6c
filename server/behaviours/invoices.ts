// What invoices and their lines do on the server beyond their declarations (issue 32): each line's amounts are the
// domain's (vatRateOfLine, vatOfLine), issuing dates the invoice by the agency's calendar. Totals, locks and numbers
// are the engine's (core/resources/invoices/resource.ts).
import type { EngineContext, ResourceBehaviour, SaveEvent } from '../engine/context.js';
import { HttpError } from '../http.js';
import type { Problems } from '../../core/engine/validate.js';
import { roundPence, vatOfLine } from '../../core/engine/money.js';
import { timeOfSupply, vatRateOfLine } from '../../core/domain/invoicing/totals.js';
import { dueDate } from '../../core/domain/invoicing/settlement.js';
import type { VatTreatment } from '../../core/domain/invoicing/vatTreatment.js';
import {
  allocate,
  allocationsOf,
  creditInvoice,
  generateInvoices,
  notifyInvoiceIssued,
  reverseOf,
  sendInvoice,
} from '../services/invoicing.js';
import { requeueJob } from '../jobs/queue.js';
import { settledState, type Allocation, type InvoiceState } from '../../core/domain/invoicing/settlement.js';
import type { InvoiceMode } from '../../core/domain/invoicing/grouping.js';

/** A client user sees an invoice once it is issued: never a draft, never a voided draft. */
const CLIENT_HIDDEN = ['draft', 'void'];

/** A line's net, VAT and total from its hours, unit price and treatment, at its time of supply. */
function amountsOf(record: Record<string, unknown>): Problems | undefined {
  const quantity = Number(record.quantity);
  const unit = Number(record.unit_price);
  const workDate = String(record.work_date);
  const treatment = record.vat_treatment as VatTreatment;
  const supply = timeOfSupply(workDate, null, treatment);
  let rate: number;
  try {
    rate = vatRateOfLine({ treatment, timeOfSupply: supply }).rate;
  } catch {
    return { work_date: { message: `No VAT rate is known for work on ${workDate}.` } };
  }
  // A generated line bills its timesheet line's charge exactly; one typed in is its hours × unit price.
  const net = record.net != null ? Number(record.net) : roundPence(quantity * unit);
  const vat = vatOfLine(net, rate);
  Object.assign(record, { net, vat, total: net + vat, vat_rate: rate, time_of_supply: supply });
}

/**
 * A draft's line whose VAT treatment is changed by hand says why (issue 32: "with the reason kept"): the reason it had
 * was the rule's for the old treatment, so the change must come with a new one.
 */
function treatmentReasoned(e: SaveEvent): Problems | undefined {
  if (!e.stored || !('vat_treatment' in e.changes) || e.changes.vat_treatment === e.stored.vat_treatment) return;
  const reason = typeof e.changes.vat_reason === 'string' ? e.changes.vat_reason.trim() : '';
  if (!reason || reason === String(e.stored.vat_reason ?? '').trim())
    return { vat_reason: { message: 'Say why the VAT treatment is changed: the reason is kept with the line.' } };
}

const beforeSaveLine = async (_ctx: EngineContext, e: SaveEvent) =>
  e.action ? undefined : (treatmentReasoned(e) ?? amountsOf(e.record));

/** What a second unreleased line for one billed item is refused with (migration 090's partial unique indexes). */
const BILLED_ONCE: Record<string, string> = {
  timesheet_line_id:
    'This timesheet line is already on another invoice: it is billed again only after a credit note releases it.',
  cancelled_shift_id:
    'This late cancellation is already on another invoice: it is billed again only after a credit note releases it.',
};

export const invoiceLinesBehaviour: ResourceBehaviour = {
  beforeSave: beforeSaveLine,
  async refusedByDatabase(_ctx, _e, error) {
    const field = Object.keys(BILLED_ONCE).find((f) => error.detail?.includes(f));
    if (error.code === '23505' && field) return new HttpError(409, BILLED_ONCE[field], { [field]: BILLED_ONCE[field] });
  },
  beforeSaveMany: async (_ctx, events) => events.map((e) => amountsOf(e.record)),
  scope: (principal, bind) =>
    principal.loginType === 'client'
      ? `invoice_id in (select id from invoices where state <> all(${bind(CLIENT_HIDDEN)}::text[]))`
      : null,
};

export const invoicesBehaviour: ResourceBehaviour = {
  /** The agency's default layout (its invoice settings' default_template); no settings row: the declared one. */
  async defaults(ctx) {
    const [settings] = await ctx.db.query<{ default_template: string }>(
      'select default_template from invoice_settings where merchant_id = $1',
      [ctx.principal.merchantId],
    );
    return settings ? { template: settings.default_template } : {};
  },
  computed: {
    label: () => `coalesce(number, 'Draft ' || id)`,
    balance: () => `(total + credited - paid)`,
    // Something is left to pay and the agency's today is after the due date (settlement.ts, isOverdue).
    overdue: (bind, { today }) =>
      `(state in ('issued', 'sent', 'part_paid') and total + credited - paid > 0 and due_date < ${bind(today)}::date)`,
  },
  collection: {
    // The input is validated by the action's declaration (mode, from and to required; client_ids references).
    generate: (ctx, input) =>
      generateInvoices(ctx, {
        mode: String(input.mode) as InvoiceMode,
        from: String(input.from),
        to: String(input.to),
        client_ids: Array.isArray(input.client_ids) ? input.client_ids.map(Number) : null,
        preview: input.preview === true,
        background: input.background === true,
      }),
  },
  scope: (principal, bind) =>
    principal.loginType === 'client' ? `state <> all(${bind(CLIENT_HIDDEN)}::text[])` : null,
  // Once issued (its number, dates and kept PDF now its own), the client's users hear of it.
  async afterSave(ctx, e) {
    if (e.action === 'issue') await notifyInvoiceIssued(ctx, e.row);
  },
  actions: {
    /** A voided draft bills nothing: its lines are released, so their timesheet lines can go on another invoice. */
    async void(ctx, r) {
      const lines = await ctx.db.query<{ id: number }>(
        'select id from invoice_lines where merchant_id = $1 and invoice_id = $2 and released_at is null order by id',
        [ctx.principal.merchantId, r.id],
      );
      for (const l of lines)
        await ctx.engine.update(
          'invoice_lines',
          l.id,
          { released_at: ctx.now.toISOString() },
          { reason: 'Invoice voided' },
        );
    },
    credit: (ctx, r, input) => creditInvoice(ctx, r, input),
    send: (ctx, r) => sendInvoice(ctx, r),
    // Run by a payment or its reversal with what the invoice's allocations now add up to.
    async settle(_ctx, r, input) {
      const paid = Number(input.paid);
      const state = settledState(r.state as InvoiceState, {
        sent: r.sent_at != null,
        total: Number(r.total),
        credited: Number(r.credited ?? 0),
        paid,
      });
      return { paid, state };
    },
    /**
     * Dated by the agency's calendar: the due date by the client's payment terms, the time of supply by the latest
     * line's (VAT Notice 700 s 14). The number and the kept PDF are the engine's (numbering.at, documents.keptFrom).
     */
    async issue(ctx, r) {
      // The client's own terms, else the agency's default (its invoice settings), else 30 days.
      const [client] = await ctx.db.query<{ payment_terms_days: number | null }>(
        `select coalesce(c.payment_terms_days, s.default_payment_terms_days) as payment_terms_days
           from clients c left join invoice_settings s on s.merchant_id = c.merchant_id
          where c.merchant_id = $1 and c.id = $2`,
        [ctx.principal.merchantId, r.client_id],
      );
      const latest = await ctx.db.query<{ vat_treatment: VatTreatment; work_date: string }>(
        `select vat_treatment, max(work_date)::text as work_date from invoice_lines
          where merchant_id = $1 and invoice_id = $2 group by vat_treatment`,
        [ctx.principal.merchantId, r.id],
      );
      const supplies = latest.map((l) => timeOfSupply(l.work_date, ctx.today, l.vat_treatment)).sort();
      return {
        issue_date: ctx.today,
        due_date: dueDate(ctx.today, client?.payment_terms_days ?? 30),
        time_of_supply: supplies.at(-1) ?? ctx.today,
        issued_by: ctx.principal.name,
      };
    },
  },
};

/** An allocation read with its payment's date, reference and method (a client's users read no payment itself). */
const ofPayment = (column: string) => () =>
  `(select p.${column} from payments p where p.merchant_id = payment_allocations.merchant_id and p.id = payment_allocations.payment_id)`;
export const paymentAllocationsBehaviour: ResourceBehaviour = {
  computed: { paid_on: ofPayment('paid_on'), reference: ofPayment('reference'), method: ofPayment('method') },
};

export const paymentsBehaviour: ResourceBehaviour = {
  // A new payment is shared over the client's open invoices before it is stored; `split` keeps the shares made.
  async beforeSave(ctx, e) {
    if (e.stored || e.action) return;
    const allocations = await allocationsOf(ctx, e.record);
    if (typeof allocations === 'string') return { amount: { message: allocations } };
    e.record.split = allocations;
  },
  async afterSave(ctx, e) {
    if (e.stored || e.action) return;
    // What beforeSave put there: the shares allocatePayment made.
    await allocate(ctx, Number(e.row.id), e.record.split as Allocation[], `Payment ${String(e.row.id)}`);
  },
  actions: {
    reverse: (ctx, r, input) => reverseOf(ctx, r, String(input.reason)),
  },
};

export const invoiceRunsBehaviour: ResourceBehaviour = {
  computed: {
    // Done once its last client is billed; failed when its job used its attempts; running until then.
    state: () =>
      `(case when finished_at is not null then 'done'
             when exists (select 1 from jobs j where j.id = job_id and j.status = 'failed') then 'failed'
             else 'running' end)`,
    clients_total: () => 'cardinality(clients)',
  },
  actions: {
    async resume(ctx, r) {
      if (r.job_id != null) await requeueJob(ctx.db, ctx.principal.merchantId, Number(r.job_id));
      return {};
    },
  },
};
