// Reading a PAYE tax code (issue 33.1): the forms HMRC issues to an employer, as the Specification for PAYE Tax
// Table Routines treats them. The code decides how tax is worked out; what it is worth comes from the year's row.
import type { PayrollYear, TaxRegion } from './rates';

export type TaxCode =
  /** 1257L, 0T, S1257L, C1257L: a tax-free allowance (the pay adjustment) taken off pay to date. */
  | { kind: 'allowance'; region: TaxRegion; number: number }
  /** K475, SK475: an amount added to pay to date, with the 50% regulatory limit on each period's tax. */
  | { kind: 'k'; region: TaxRegion; number: number }
  /** BR, D0, D1, SBR, SD0..SD3, CBR, CD0, CD1: all pay taxed at one band's rate (band: index in the year's table). */
  | { kind: 'flat'; region: TaxRegion; band: number }
  /** NT: no tax. */
  | { kind: 'nt' };

export interface ReadTaxCode {
  code: TaxCode;
  /** The code was written on a week 1 / month 1 basis (1257L W1, 1257L M1, the emergency 1257L X). */
  week1: boolean;
}

const FORM = /^(S|C)?(BR|D(\d)|NT|K(\d{1,4})|(\d{1,4})([LMNT]))(W1|M1|X)?$/;
const REGIONS: Record<string, TaxRegion> = { '': 'uk', S: 'scotland', C: 'wales' };

/**
 * A tax code as an employer is sent it ('1257L', 's1257l', '1257L W1', 'K475', 'SD2'), or a sentence saying what
 * is wrong with it in the year's terms (Scotland has D codes up to SD3 since 2024-25; the rest of the UK up to D1).
 */
export function readTaxCode(text: string, year: PayrollYear): ReadTaxCode | { error: string } {
  const m = FORM.exec(text.replace(/\s+/g, '').toUpperCase());
  const bad = `"${text}" is not a tax code: write it as HMRC sent it, for example 1257L, S1257L, C1257L, K475, BR, D0 or NT (with W1 or M1 after it for week 1 / month 1).`;
  if (!m) return { error: bad };
  const [, prefix = '', body, d, k, number] = m;
  const region = REGIONS[prefix];
  const week1 = m[7] !== undefined;
  const table = year.incomeTax[region];
  if (body === 'NT') return prefix ? { error: bad } : { code: { kind: 'nt' }, week1 };
  if (body === 'BR') return { code: { kind: 'flat', region, band: table.basicBand }, week1 };
  if (d !== undefined) {
    const band = table.basicBand + 1 + Number(d);
    if (band >= table.bands.length) {
      const last = `${prefix}D${table.bands.length - table.basicBand - 2}`;
      return {
        error: `${text} is not a tax code in ${year.taxYear}: ${prefix}D codes go from ${prefix}D0 to ${last}.`,
      };
    }
    return { code: { kind: 'flat', region, band }, week1 };
  }
  if (k !== undefined) {
    if (Number(k) === 0) return { error: `${text} is not a tax code: a K code's number is at least 1.` };
    return { code: { kind: 'k', region, number: Number(k) }, week1 };
  }
  return { code: { kind: 'allowance', region, number: Number(number) }, week1 };
}
