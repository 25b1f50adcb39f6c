// An invoice's and a credit note's amounts (issue 32, "VAT, exactly"): each line's VAT category and rate by its
// treatment and time of supply, and the totals through the one money module (core/engine/money.ts): VAT line by
// line, each to the nearest penny, the document's VAT the sum of its lines' (HMRC VAT Notice 700, 17.5; the method
// chosen in docs/decisions.md, "Issue 31.6"). Exempt and standard-rated lines are totalled apart.
import { apportionPence, formatPounds, vatTotals, type VatBreakdown, type VatLine } from '../../engine/money';
import { addDaysToDate } from '../time/agencyTime';
import { VAT_RATES, vatRateOn, type VatCategory, type VatRate } from '../pricing/vat';
import type { VatTreatment } from './vatTreatment';

/**
 * A line's time of supply (its tax point), HMRC VAT Notice 700, section 14: a service's basic tax point is the day it
 * is performed; a VAT invoice issued before that, or within 14 days after it, makes the issue date the tax point. An
 * invoice creates no tax point for an exempt supply (HMRC manual VATTOS5210: it is not a VAT invoice for it), so an
 * exempt line's is always the day of the work. A draft (no issue date yet) is judged on the day of the work.
 */
export function timeOfSupply(performedOn: string, issuedOn: string | null, treatment: VatTreatment): string {
  if (!issuedOn || treatment === 'exempt') return performedOn;
  return issuedOn <= addDaysToDate(performedOn, 14) ? issuedOn : performedOn;
}

/** A line as the totals read it: its net amount in pence, its treatment, and its time of supply. */
export interface LineToTotal {
  net: number;
  treatment: VatTreatment;
  timeOfSupply: string;
}

/** A line with its VAT category, the rate in force on its time of supply, and its VAT. */
export interface TotalledLine extends VatLine {
  category: VatCategory;
  vat: number;
}

export interface DocumentTotals {
  lines: TotalledLine[];
  /** Per VAT category and rate, in the order each first appears (a VAT invoice's "VAT per rate"). */
  breakdown: VatBreakdown[];
  /** Net of the exempt lines, and of the others: a VAT invoice totals exempt supplies apart. */
  exemptNet: number;
  taxableNet: number;
  net: number;
  vat: number;
  total: number;
}

/** The VAT category and rate of a line: exempt, or the standard rate in force on its time of supply. */
export function vatRateOfLine(
  line: Omit<LineToTotal, 'net'>,
  table: readonly VatRate[] = VAT_RATES,
): { category: VatCategory; rate: number } {
  const category: VatCategory = line.treatment === 'exempt' ? 'E' : 'S';
  const row = vatRateOn(category, line.timeOfSupply, table);
  if (!row) throw new RangeError(`No VAT rate is known for a supply on ${line.timeOfSupply}.`);
  return { category, rate: category === 'E' ? 0 : row.rate };
}

/** The totals of lines whose category and rate are settled (an issued invoice's, a credit note's). */
export function totalsOfLines(lines: readonly VatLine[]): DocumentTotals {
  const t = vatTotals(lines);
  let exemptNet = 0;
  for (const l of lines) if (l.category === 'E') exemptNet += l.net;
  return {
    lines: lines.map((l, i) => ({ net: l.net, category: l.category as VatCategory, rate: l.rate, vat: t.lines[i] })),
    breakdown: t.breakdown,
    exemptNet,
    taxableNet: t.net - exemptNet,
    net: t.net,
    vat: t.vat,
    total: t.gross,
  };
}

/** An invoice's totals: each line rated by its treatment and time of supply, then totalled line by line. */
export function invoiceTotals(lines: readonly LineToTotal[], table: readonly VatRate[] = VAT_RATES): DocumentTotals {
  return totalsOfLines(lines.map((l) => ({ net: l.net, ...vatRateOfLine(l, table) })));
}

// ---------------------------------------------------------------------------------------------------------------
// Credit notes. A credit line carries the category and rate of what it credits (the rate of the original supply,
// not today's), with its net negated; vatOfLine mirrors a negated net exactly, so a full credit note is its invoice
// to the penny with every sign turned.

/** A line of an issued invoice, as a credit note reads it. */
export interface InvoicedLine extends TotalledLine {
  id: number;
}

/** A line of a credit note already issued against the invoice: the invoice line it credits, or null for an amount. */
export interface EarlierCreditLine extends VatLine {
  credits_line_id: number | null;
}

export type CreditRequest =
  | { kind: 'full' }
  | { kind: 'lines'; lineIds: number[] }
  /** An amount ex VAT, shared over the invoice's rates; a reason is required. */
  | { kind: 'amount'; net: number; reason: string };

export interface CreditLine extends TotalledLine {
  credits_line_id: number | null;
}

export type CreditResult = { ok: true; lines: CreditLine[]; totals: DocumentTotals } | { ok: false; message: string };

const groupKey = (l: { category: string; rate: number }) => `${l.category}:${l.rate}`;

/**
 * A credit note against an issued invoice: in full (only while nothing of it has been credited), some of its lines
 * (each at most once), or an amount ex VAT with a reason, shared over the invoice's VAT rates in proportion to what is
 * left of each (docs/decisions.md, "Issue 32.3"). Never more than is left uncredited at any rate; refusals in words.
 */
export function creditNote(
  invoiceNumber: string,
  invoiceLines: readonly InvoicedLine[],
  earlier: readonly EarlierCreditLine[],
  request: CreditRequest,
): CreditResult {
  const refuse = (message: string): CreditResult => ({ ok: false, message });
  const negated = (l: InvoicedLine): VatLine & { credits_line_id: number } => ({
    net: 0 - l.net, // a line of nothing is credited as 0, never -0
    category: l.category,
    rate: l.rate,
    credits_line_id: l.id,
  });
  let lines: (VatLine & { credits_line_id: number | null })[];
  if (request.kind === 'full') {
    if (earlier.length)
      return refuse(`${invoiceNumber} has been credited in part already: credit its remaining lines or an amount.`);
    lines = invoiceLines.map(negated);
  } else if (request.kind === 'lines') {
    if (!request.lineIds.length) return refuse('Choose the lines to credit.');
    const credited = new Set(earlier.map((l) => l.credits_line_id));
    lines = [];
    for (const id of new Set(request.lineIds)) {
      const line = invoiceLines.find((l) => l.id === id);
      if (!line) return refuse(`Line ${id} is not on ${invoiceNumber}.`);
      if (credited.has(id)) return refuse(`A line of ${invoiceNumber} has been credited already.`);
      lines.push(negated(line));
    }
  } else {
    if (!request.reason?.trim()) return refuse('Say why the amount is credited.');
    if (!Number.isSafeInteger(request.net) || request.net <= 0)
      return refuse('The amount to credit must be more than nothing, in whole pence.');
    const groups = leftToCredit(invoiceLines, earlier);
    const left = groups.reduce((a, g) => a + g.net, 0);
    if (request.net > left)
      return refuse(
        `${formatPounds(request.net)} is more than the ${formatPounds(left)} (ex VAT) left to credit on ${invoiceNumber}.`,
      );
    const shares = apportionPence(
      request.net,
      groups.map((g) => g.net),
    );
    lines = groups
      .map((g, i) => ({ net: -shares[i], category: g.category, rate: g.rate, credits_line_id: null }))
      .filter((l) => l.net !== 0);
  }
  // Whatever the kind, no rate may be credited beyond what its lines came to (an amount credited earlier counts).
  const left = new Map(leftToCredit(invoiceLines, earlier).map((g) => [groupKey(g), g.net]));
  for (const l of lines) {
    const k = groupKey(l);
    const rest = (left.get(k) ?? 0) + l.net;
    if (rest < 0) return refuse(`That would credit more than is left to credit on ${invoiceNumber}.`);
    left.set(k, rest);
  }
  const totals = totalsOfLines(lines);
  return {
    ok: true,
    lines: lines.map((l, i) => ({ ...totals.lines[i], credits_line_id: l.credits_line_id })),
    totals,
  };
}

/** What is left to credit of an invoice, per VAT category and rate, ex VAT (never below nothing). */
function leftToCredit(invoiceLines: readonly VatLine[], earlier: readonly VatLine[]) {
  const groups = new Map<string, { category: string; rate: number; net: number }>();
  for (const l of [...invoiceLines, ...earlier]) {
    const g = groups.get(groupKey(l)) ?? { category: l.category, rate: l.rate, net: 0 };
    g.net += l.net;
    groups.set(groupKey(l), g);
  }
  return [...groups.values()].map((g) => ({ ...g, net: Math.max(0, g.net) }));
}
