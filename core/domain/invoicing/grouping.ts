// Which invoiceable items go on which invoice (issue 32, generation), as one pure function: the five modes of
// /invoice/Generate-invoice and a client's billing settings (split by site, by purchase-order number, PO required).
// The server reads the items and writes the drafts; this decides. docs/decisions.md, "Issue 32.1".
import { addDaysToDate, addMonthsToDate, startOfWeekMonday } from '../time/agencyTime';

/** The run's grouping, named as the routes name them (/invoice/Generate-invoice/Weekly, …/daily, …). */
export type InvoiceMode = 'Weekly' | 'daily' | 'monthly' | 'shift_staff' | 'staff_weekly';
export const INVOICE_MODES: readonly InvoiceMode[] = ['Weekly', 'daily', 'monthly', 'shift_staff', 'staff_weekly'];

/**
 * A thing the client is billed for, invoiced exactly once: a timesheet line that is signed or verified, or a late
 * cancellation charge. `date` is the day of the work on the agency's calendar ('yyyy-MM-dd', from the shift's start
 * in the agency's zone: a night shift that starts at 23:30 on a Sunday is the Sunday's).
 */
export interface InvoiceableItem {
  kind: 'timesheet_line' | 'cancellation';
  id: number;
  client_id: number;
  site_id: number;
  /** Null for a cancellation charge on a shift nobody was booked on. */
  staff_id: number | null;
  shift_id: number;
  date: string;
  po_number?: string | null;
  /** Net amount in pence (ex VAT). */
  net: number;
}

/** A client's billing settings as grouping reads them. */
export interface ClientBilling {
  split_by_site?: boolean;
  split_by_po?: boolean;
  /** A client that requires a PO number is invoiced only for lines that carry one, one invoice per PO number. */
  po_required?: boolean;
}

export interface InvoiceGroup<I extends InvoiceableItem = InvoiceableItem> {
  /** The same items, or more of the same client and period, give the same key on every run. */
  key: string;
  mode: InvoiceMode;
  client_id: number;
  /** Set when the client splits by site; otherwise the invoice may span the client's sites. */
  site_id: number | null;
  /** Set for the modes that invoice one staff member (shift_staff, staff_weekly). */
  staff_id: number | null;
  /** Set for shift_staff. */
  shift_id: number | null;
  /** Set when the client splits by PO number (or requires one). */
  po_number: string | null;
  /** The period the invoice covers: the week, day or month of the mode; the items' own dates for shift_staff. */
  from: string;
  to: string;
  items: I[];
}

export interface Grouping<I extends InvoiceableItem = InvoiceableItem> {
  groups: InvoiceGroup<I>[];
  /** Items of clients that require a PO number and that carry none: not invoiced, named in the preview. */
  lackingPo: I[];
}

const poOf = (item: InvoiceableItem) => item.po_number?.trim() || null;

/** The mode's period holding `date`: its first and last days (shift_staff: the shift's day). */
export function periodOf(mode: InvoiceMode, date: string): { from: string; to: string } {
  switch (mode) {
    case 'daily':
    case 'shift_staff':
      return { from: date, to: date };
    case 'monthly': {
      const from = `${date.slice(0, 7)}-01`;
      return { from, to: addDaysToDate(addMonthsToDate(from, 1), -1) };
    }
    case 'Weekly':
    case 'staff_weekly': {
      const from = startOfWeekMonday(date);
      return { from, to: addDaysToDate(from, 6) };
    }
  }
}

const byItem = (a: InvoiceableItem, b: InvoiceableItem) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id - b.id;

/**
 * The items grouped into invoices by `mode` and each client's billing settings (clients without settings are
 * invoiced whole). Groups are ordered by client, period and key, their items by date, kind and id, whatever the
 * order they were given in, so a preview and the run that follows it agree.
 */
export function groupInvoiceable<I extends InvoiceableItem>(
  items: readonly I[],
  mode: InvoiceMode,
  billing: (clientId: number) => ClientBilling | undefined = () => undefined,
): Grouping<I> {
  if (!INVOICE_MODES.includes(mode)) throw new RangeError(`Not an invoice mode: ${JSON.stringify(mode)}`);
  const groups = new Map<string, InvoiceGroup<I>>();
  const lackingPo: I[] = [];
  // A run reads many items of few days: each day's period is worked out once (date arithmetic is the costly part).
  const periods = new Map<string, { from: string; to: string }>();
  for (const item of items) {
    const settings = billing(item.client_id) ?? {};
    const po = poOf(item);
    if (settings.po_required && !po) {
      lackingPo.push(item);
      continue;
    }
    const byPo = settings.po_required || settings.split_by_po;
    const site_id = settings.split_by_site ? item.site_id : null;
    const staff_id = mode === 'shift_staff' || mode === 'staff_weekly' ? item.staff_id : null;
    const shift_id = mode === 'shift_staff' ? item.shift_id : null;
    const po_number = byPo ? po : null;
    let period = periods.get(item.date);
    if (!period) periods.set(item.date, (period = periodOf(mode, item.date)));
    const { from, to } = period;
    // A shift is its own period: its key holds no date, and its invoice spans its items' dates (a line and a
    // cancellation charge of one shift share its day). JSON keeps the parts apart whatever a PO number holds.
    const periodKey = mode === 'shift_staff' ? null : from;
    const key = JSON.stringify([mode, item.client_id, periodKey, site_id, staff_id, shift_id, po_number]);
    let g = groups.get(key);
    if (!g) {
      g = { key, mode, client_id: item.client_id, site_id, staff_id, shift_id, po_number, from, to, items: [] };
      groups.set(key, g);
    }
    g.items.push(item);
    if (from < g.from) g.from = from;
    if (to > g.to) g.to = to;
  }
  const out = [...groups.values()];
  for (const g of out) g.items.sort(byItem);
  out.sort(
    (a, b) => a.client_id - b.client_id || (a.from < b.from ? -1 : a.from > b.from ? 1 : 0) || cmp(a.key, b.key),
  );
  return { groups: out, lackingPo: lackingPo.sort(byItem) };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
