// VAT on self-billed pay (issue 33): an umbrella or limited-company worker's company that is registered for VAT is
// paid VAT on top of the gross the run pays it, and the self-billed invoice the agency raises on its behalf shows the
// net, the rate, the VAT and the total (HMRC VAT Notice 700/62; docs/decisions.md, "Issue 33 — VAT on self-billed
// pay"). The rate is the standard rate's dated row in force on the time of supply (the pay day), the arithmetic the
// money module's one VAT rule (vatOfLine: to the nearest penny, a half penny up), never a figure written here.
import { vatOfLine, type VatBasisPoints } from '../../engine/money';
import { vatRateOn } from '../pricing/vat';

/** The words VAT Notice 700/62 requires on every self-billed invoice that charges VAT. */
export const SELF_BILLING_VAT_STATEMENT = 'The VAT shown is your output tax due to HMRC.';
/** What a self-billed invoice of a supplier not registered for VAT says instead. */
export const SELF_BILLING_NO_VAT = 'No VAT is charged: the supplier is not registered for VAT.';

export interface SelfBilledVat {
  /** The supplier's VAT number as charged (spaces dropped, capitals); null when it is not registered. */
  vatNumber: string | null;
  /** The standard rate in basis points on the time of supply; null when no VAT is charged. */
  rate: VatBasisPoints | null;
  /** Pence; 0 when no VAT is charged. */
  vat: number;
}

/**
 * The VAT a self-billed amount (`net`, pence) carries: none for a supplier without a VAT number, otherwise the
 * standard rate in force on `timeOfSupply` ('yyyy-MM-dd') of the net, to the nearest penny. A date before the rate
 * table is refused rather than guessed.
 */
export function selfBilledVat(net: number, vatNumber: string | null | undefined, timeOfSupply: string): SelfBilledVat {
  const number = (vatNumber ?? '').replace(/\s+/g, '').toUpperCase();
  if (!number) return { vatNumber: null, rate: null, vat: 0 };
  const rate = vatRateOn('S', timeOfSupply);
  if (!rate) throw new RangeError(`No standard rate of VAT is known on ${timeOfSupply}.`);
  return { vatNumber: number, rate: rate.rate, vat: vatOfLine(net, rate.rate) };
}

/** A self-billing agreement's dates ('yyyy-MM-dd'): in force from its first day to its end (or review) date. */
export interface AgreementDates {
  start_date: string;
  end_date: string;
}

/**
 * The agreement in force on `date` ('yyyy-MM-dd') among a supplier's agreements, both days included; the one that
 * runs longest when two overlap; null when none is (none recorded, not yet begun, or ended: VAT Notice 700/62 asks
 * for an agreement over a set period, renewed at its review).
 */
export function agreementInForce<A extends AgreementDates>(agreements: readonly A[], date: string): A | null {
  let best: A | null = null;
  for (const a of agreements)
    if (a.start_date <= date && date <= a.end_date && (!best || a.end_date > best.end_date)) best = a;
  return best;
}

/** A self-billing agreement as the export names it. */
export interface Agreement extends AgreementDates {
  reference: string | null;
}

/** The words a run's self-billing export and preview use for a supplier with no agreement in force on the pay day. */
export const NO_AGREEMENT = 'None in force on the pay day';

/** The export's "Self-billing agreement" cell: the agreement in force on the pay day with its dates, or none. */
export function agreementCell(agreement: Agreement | null): string {
  if (!agreement) return NO_AGREEMENT;
  const ref = agreement.reference?.trim();
  return `${ref ? `${ref}, ` : ''}${agreement.start_date} to ${agreement.end_date}`;
}
