// The one money module (issue 31 item 6). Money travels and is stored in integer pence; this file is the only place
// that turns pence into pounds or back, rounds a fraction of a penny, or works out VAT, so every screen, document,
// message and export reads the same ('£1,234.56', '-£1.50') and every total adds up the same way.
// tests/unit/engine/moneyOnly.test.ts fails when a file elsewhere formats or rounds pence by hand.

// Whole pounds with their thousands commas; the pence are written from the integer, so every safe integer of pence
// prints exactly (pence / 100 as a float loses the last penny above about 45 trillion pounds).
const wholePounds = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

/**
 * The one rounding rule for a fraction of a penny: to the nearest penny, a half penny away from zero, so a credit
 * (a negative amount) mirrors its debit exactly (-1234.5 → -1235 as 1234.5 → 1235; Math.round would give -1234).
 * An amount that rounds to nothing is 0, never -0.
 */
export function roundPence(pence: number): number {
  const whole = Math.round(Math.abs(pence));
  return whole === 0 ? 0 : pence < 0 ? -whole : whole;
}

/**
 * Pence as people read money: 123456 → '£1,234.56', -150 → '-£1.50' (the sign before the pound sign, never
 * '£-1.50'). A fraction of a penny is rounded by roundPence; an amount that rounds to nothing has no sign.
 */
export function formatPounds(pence: number): string {
  const p = roundPence(pence);
  const abs = Math.abs(p);
  const pennies = abs % 100;
  return `${p < 0 ? '-' : ''}£${wholePounds.format((abs - pennies) / 100)}.${pennies < 10 ? '0' : ''}${pennies}`;
}

/** Pence as a number of pounds, for what sums or edits it (a CSV cell, a form's input): 1250 → 12.5, rounded as
 * formatPounds rounds, so the two never disagree about the same amount. */
export const penceToPounds = (pence: number) => roundPence(pence) / 100;

/**
 * Pounds (a number, as a form's input or a spreadsheet holds them) in pence: 12.5 → 1250. The product of a
 * decimal and 100 is not always exact in binary (0.29 × 100 = 28.999…), so it is read to 12 significant digits
 * before roundPence takes the rest of a penny.
 */
export function poundsToPence(pounds: number): number {
  return roundPence(Number((pounds * 100).toPrecision(12)));
}

const POUNDS = /^([-−]?)\s*£?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/**
 * Text as people type or print money, in pence: '£1,234.56', '-£1.50', '1234.5', '£-1.50' is refused, as is a
 * third decimal place (a fraction of a penny is not money anyone is owed) and a misplaced thousands comma.
 * Null when the text is not an amount. The inverse of formatPounds: parsePounds(formatPounds(p)) === p.
 */
export function parsePounds(text: string): number | null {
  const m = POUNDS.exec(text.trim());
  if (!m) return null;
  const pence = Number(m[2].replace(/,/g, '')) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(pence)) return null;
  return m[1] && pence > 0 ? -pence : pence;
}

/** A percentage of an amount in whole pence (holiday pay at 12.07% of pay), rounded by roundPence. */
export const percentOf = (pence: number, percent: number) => roundPence((pence * percent) / 100);

/**
 * A rate per hour for a number of minutes, in whole pence: round(minutes × rate / 60), rounded once, never the hours
 * first (3 h 50 min at £30.00 is £115.00, where 3.83 h would give £114.90).
 */
export const amountForMinutes = (minutes: number, penceAnHour: number) => roundPence((minutes * penceAnHour) / 60);

// ---------------------------------------------------------------------------------------------------------------
// VAT. The rule, chosen once under HMRC VAT Notice 700 section 17.5 (docs/decisions.md, "Issue 31.6"): VAT is
// worked out line by line, each line's VAT rounded to the nearest penny (a half penny up, away from zero on a
// credit line); an invoice's VAT, per rate and in total, is the exact sum of its lines' VAT, so the totals printed
// are always the sums of the lines printed. Rates are in basis points (20% = 2000) so the arithmetic is exact in
// integers: no float ever decides which way a half penny goes.

/** A VAT rate in basis points of a percent: 2000 is 20%, 500 is 5%, 0 is zero-rated or exempt. */
export type VatBasisPoints = number;

/** A line's VAT: its net amount (pence, negative on a credit) × rate, to the nearest penny, a half penny up. */
export function vatOfLine(netPence: number, rate: VatBasisPoints): number {
  if (!Number.isSafeInteger(netPence)) throw new RangeError(`A line's net amount must be whole pence: ${netPence}`);
  if (!Number.isInteger(rate) || rate < 0) throw new RangeError(`A VAT rate must be whole basis points: ${rate}`);
  const product = Math.abs(netPence) * rate;
  if (!Number.isSafeInteger(product)) throw new RangeError(`A line's net amount is too large: ${netPence}`);
  // Whole pence and the remainder in ten-thousandths of a penny, in integers; 5,000 is exactly half a penny.
  const whole = Math.floor(product / 10_000);
  const vat = whole + (product - whole * 10_000 >= 5_000 ? 1 : 0);
  return netPence < 0 && vat > 0 ? -vat : vat;
}

/** A line of a VAT document: its net amount in pence and its VAT category with its rate. */
export interface VatLine {
  net: number;
  /** The VAT category of EN 16931 / Peppol: 'S' standard, 'R' reduced, 'Z' zero-rated, 'E' exempt. */
  category: string;
  rate: VatBasisPoints;
}

/** One row of a VAT summary: the lines of one category and rate, with their net and VAT totals. */
export interface VatBreakdown {
  category: string;
  rate: VatBasisPoints;
  net: number;
  vat: number;
}

export interface VatTotals {
  /** Each line's VAT, in the lines' order. */
  lines: number[];
  /** Per category and rate, in the order each first appears. */
  breakdown: VatBreakdown[];
  net: number;
  vat: number;
  gross: number;
}

/**
 * An invoice's (or credit note's) VAT: each line's by vatOfLine, and per rate and in total the exact sums of the
 * lines, so a total never differs from the sum of the lines printed above it. Exempt lines ('E') carry no VAT
 * whatever rate they are given, and are totalled apart in the breakdown, as a VAT invoice shows them.
 */
export function vatTotals(lines: readonly VatLine[]): VatTotals {
  const perLine: number[] = [];
  const groups = new Map<string, VatBreakdown>();
  let net = 0;
  let vat = 0;
  for (const l of lines) {
    const rate = l.category === 'E' ? 0 : l.rate;
    const v = vatOfLine(l.net, rate);
    perLine.push(v);
    const key = `${l.category}:${rate}`;
    const g = groups.get(key) ?? { category: l.category, rate, net: 0, vat: 0 };
    g.net += l.net;
    g.vat += v;
    groups.set(key, g);
    net += l.net;
    vat += v;
  }
  return { lines: perLine, breakdown: [...groups.values()], net, vat, gross: net + vat };
}

/**
 * An amount shared out in proportion to `weights` (whole pence each, as an amount-only credit note is shared over an
 * invoice's VAT rates): the shares are whole, always add up to `total` exactly, and each is within a penny of its
 * exact proportion (largest remainder; a tie goes to the earlier weight). A negative total gives the mirror of the
 * positive one. Worked in BigInt, so no float decides which share gets the odd penny.
 */
export function apportionPence(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total)) throw new RangeError(`An amount to share must be whole pence: ${total}`);
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0))
    throw new RangeError(`Weights must be whole and not negative: ${weights.join(', ')}`);
  const sum = weights.reduce((a, b) => a + BigInt(b), 0n);
  if (sum === 0n) throw new RangeError('There is nothing to share an amount over.');
  const t = BigInt(Math.abs(total));
  const shares = weights.map((w) => (t * BigInt(w)) / sum);
  const order = weights
    .map((w, i) => ({ i, rest: (t * BigInt(w)) % sum }))
    .sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  let left = t - shares.reduce((a, b) => a + b, 0n);
  for (let k = 0; left > 0n; k++, left--) shares[order[k].i]++;
  return shares.map((s) => (total < 0 && s > 0n ? -Number(s) : Number(s)));
}

/** A rate in basis points as people read it: 2000 → '20%', 1750 → '17.5%'. */
export const formatVatRate = (rate: VatBasisPoints) => `${rate / 100}%`;

// ---------------------------------------------------------------------------------------------------------------
// Payroll's roundings (issue 33.1). HMRC rounds each payroll figure its own way, and a penny the wrong way is a
// wrong payslip: PAYE taxable pay is rounded down to whole pounds and its pay adjustment up to the penny
// (Specification for PAYE Tax Table Routines); NI is rounded to the nearest penny with a halfpenny or less
// disregarded (Social Security (Contributions) Regulations 2001, reg. 12(1)); a student loan deduction is rounded
// down to the whole pound. Every one is an exact integer division here, so no float decides a penny.

/** How a payroll figure's fraction of a penny goes: toward less, toward more, or to the nearest penny (a half
 * penny away from zero, as roundPence), or to the nearest with a half penny or less disregarded (NI's rule). */
export type PenceRounding = 'down' | 'up' | 'nearest' | 'nearest-half-down';

/**
 * numerator / denominator pence, whole, rounded as asked: dividePence(2579_00, 52, 'up') is 4960 (the spec's
 * £49.60). The numerator must be whole and safe, the denominator a whole number above 0; 'down' and 'up' are
 * toward minus and plus infinity.
 */
export function dividePence(numerator: number, denominator: number, rounding: PenceRounding): number {
  if (!Number.isSafeInteger(numerator)) throw new RangeError(`Not whole pence: ${numerator}`);
  if (!Number.isSafeInteger(denominator) || denominator < 1) throw new RangeError(`Not a divisor: ${denominator}`);
  // The float quotient is within one of the exact one for safe integers; the two checks make it exact.
  let q = Math.floor(numerator / denominator);
  if (q * denominator > numerator) q--;
  else if ((q + 1) * denominator <= numerator) q++;
  const rest = numerator - q * denominator; // 0 ≤ rest < denominator
  if (rest === 0 || rounding === 'down') return q === 0 ? 0 : q;
  if (rounding === 'up') return q + 1 === 0 ? 0 : q + 1;
  const twice = rest * 2;
  // Above half: up; below: down; exactly half: 'nearest' goes away from zero, 'nearest-half-down' disregards it.
  const up = twice > denominator || (twice === denominator && rounding === 'nearest' && numerator > 0);
  const r = up ? q + 1 : q;
  return r === 0 ? 0 : r;
}

/** A share of an amount in basis points of a percent (1207 is 12.07%), whole pence rounded as asked: exact, where
 * percentOf multiplies by a decimal percent in binary. */
export const basisPointsOf = (pence: number, basisPoints: number, rounding: PenceRounding = 'nearest') =>
  dividePence(pence * basisPoints, 10_000, rounding);

/** Pence rounded down to whole pounds (HMRC's taxable pay, a student loan deduction): 125_099 → 125_000. */
export const wholePoundsDown = (pence: number) => dividePence(pence, 100, 'down') * 100;

/**
 * Pence as a plain decimal of pounds with two places, as machine-read documents write amounts (an EN 16931
 * e-invoice's amounts, xs:decimal): 123456 → '1234.56', -150 → '-1.50', 5 → '0.05'. No pound sign, no thousands
 * commas; written from the integer, so it is exactly the pence.
 */
export function decimalPounds(pence: number): string {
  const p = roundPence(pence);
  const abs = Math.abs(p);
  const pennies = abs % 100;
  return `${p < 0 ? '-' : ''}${(abs - pennies) / 100}.${pennies < 10 ? '0' : ''}${pennies}`;
}

/** A rate in basis points as a plain percentage, as an e-invoice writes a VAT rate: 2000 → '20', 1750 → '17.5'. */
export const vatPercent = (rate: VatBasisPoints) => String(rate / 100);
