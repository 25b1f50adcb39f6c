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
