// The UK's VAT rates as dated rows (issue 31.6): an invoice takes the rate in force on its time of supply, so a
// change of rate never rewrites what was invoiced before it. Sources are cited in docs/decisions.md ("Issue 31.6");
// the arithmetic on them (per line, per total, the rounding) is core/engine/money.ts, the one money module.
import type { VatBasisPoints } from '../../engine/money';
import { rateOn } from './oncosts';

/** A VAT category of EN 16931 / Peppol, as a VAT invoice (and a future e-invoice) names it. */
export type VatCategory = 'S' | 'R' | 'Z' | 'E';

export interface VatRate {
  category: VatCategory;
  /** In basis points: 2000 is 20%. */
  rate: VatBasisPoints;
  effective_from: string;
  /** Where the rate comes from, in words a reviewer can look up. */
  source: string;
}

// The table starts at the rise to 20% on 4 January 2011: the product holds no supply before it. A new rate is a new
// row from its date, never an edit of a row.
export const VAT_RATES: readonly VatRate[] = [
  {
    category: 'S',
    rate: 2000,
    effective_from: '2011-01-04',
    source: 'Standard rate 20% from 4 January 2011: Finance (No. 2) Act 2010, s 3; HMRC "VAT rates"',
  },
  {
    category: 'R',
    rate: 500,
    effective_from: '2011-01-04',
    source: 'Reduced rate 5%: VATA 1994, s 29A; HMRC "VAT rates"',
  },
  { category: 'Z', rate: 0, effective_from: '2011-01-04', source: 'Zero rate: VATA 1994, s 30 and Sch 8' },
  {
    category: 'E',
    rate: 0,
    effective_from: '2011-01-04',
    source: 'Exempt, no VAT: VATA 1994, s 31 and Sch 9; nursing agencies: VAT Notice 701/57, 6.5',
  },
];

/** The rate of a category in force on `date` ('yyyy-MM-dd'); null before the table's first row for it. */
export function vatRateOn(category: VatCategory, date: string, table: readonly VatRate[] = VAT_RATES): VatRate | null {
  return rateOn(
    table.filter((r) => r.category === category),
    date,
  );
}
