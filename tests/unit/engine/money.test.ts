import { fc, test } from '@fast-check/vitest';
import {
  amountForMinutes,
  decimalPounds,
  formatPounds,
  formatVatRate,
  parsePounds,
  penceToPounds,
  percentOf,
  poundsToPence,
  roundPence,
  vatOfLine,
  vatPercent,
  vatTotals,
} from '../../../core/engine/money';
import { VAT_RATES, vatRateOn } from '../../../core/domain/pricing/vat';

// The one money module (issue 31 item 6): formatting, parsing, rounding and the VAT arithmetic invoices use.

describe('formatPounds', () => {
  it.each([
    [0, '£0.00'],
    [5, '£0.05'],
    [1234, '£12.34'],
    [9800, '£98.00'],
    [123456, '£1,234.56'],
    [123456789, '£1,234,567.89'],
    [-50, '-£0.50'],
    [-150, '-£1.50'],
    [-123456, '-£1,234.56'],
    [1234.5, '£12.35'],
    [-1234.5, '-£12.35'],
    [1234.4999, '£12.34'],
    [0.4, '£0.00'],
    [-0.4, '£0.00'],
    [-0, '£0.00'],
    [Number.MAX_SAFE_INTEGER, '£90,071,992,547,409.91'],
    [-Number.MAX_SAFE_INTEGER, '-£90,071,992,547,409.91'],
  ])('%s pence → %s', (pence, text) => {
    expect(formatPounds(pence)).toBe(text);
  });
});

describe('decimalPounds (e-invoice amounts)', () => {
  it('writes two decimal places, no pound sign and no thousands commas', () => {
    expect([123456, -150, 5, 0, -4, 100000000].map(decimalPounds)).toEqual([
      '1234.56',
      '-1.50',
      '0.05',
      '0.00',
      '-0.04',
      '1000000.00',
    ]);
  });
  test.prop([fc.integer({ min: -1e12, max: 1e12 })])('reads back as the same pence', (p) => {
    expect(parsePounds(decimalPounds(p))).toBe(p);
  });
  it('writes a rate as a plain percentage', () => {
    expect([2000, 1750, 500, 0].map(vatPercent)).toEqual(['20', '17.5', '5', '0']);
  });
});

describe('penceToPounds', () => {
  it.each([
    [1250, 12.5],
    [0, 0],
    [-150, -1.5],
    [1234.6, 12.35],
    // The reported inconsistency: Math.round(-1234.5) is -1234, so this once gave -12.34 beside '-£12.35'.
    [-1234.5, -12.35],
    [-0.4, 0],
  ])('%s pence → %s', (pence, pounds) => {
    expect(penceToPounds(pence)).toBe(pounds);
  });
});

describe('poundsToPence', () => {
  it.each([
    [12.5, 1250],
    [0.29, 29],
    [1.005, 101],
    [-1.005, -101],
    [-0.001, 0],
    [19.99, 1999],
  ])('%s pounds → %s pence', (pounds, pence) => {
    expect(poundsToPence(pounds)).toBe(pence);
  });
});

describe('parsePounds', () => {
  it.each([
    ['£1,234.56', 123456],
    ['-£1.50', -150],
    ['−£1.50', -150],
    ['1234.5', 123450],
    ['  £12  ', 1200],
    ['0.05', 5],
    ['-0.00', 0],
    ['£1,234,567.89', 123456789],
  ])('%s → %s pence', (text, pence) => {
    expect(parsePounds(text)).toBe(pence);
  });

  it.each(['', '£', 'abc', '1.234', '£-1.50', '12,34.00', '1,2345', '£1.5.0', '1e3', '--1', '£ 1 000'])(
    'refuses %j',
    (text) => {
      expect(parsePounds(text)).toBeNull();
    },
  );
});

describe('rounding', () => {
  it('rounds a half penny away from zero, and never answers -0', () => {
    expect([roundPence(0.5), roundPence(-0.5), roundPence(2.5), roundPence(-2.5)]).toEqual([1, -1, 3, -3]);
    expect(Object.is(roundPence(-0.4), 0)).toBe(true);
  });

  it('takes a percentage and an hourly rate once, to the penny', () => {
    expect(percentOf(10_000, 12.07)).toBe(1207);
    expect(percentOf(12_345, 13.8)).toBe(1704); // 1703.61
    expect(amountForMinutes(230, 3000)).toBe(11_500); // 3 h 50 min at £30.00, not £114.90
    expect(amountForMinutes(1, 1250)).toBe(21); // 20.83
  });
});

// Pence the product handles: up to a billion pounds either way, and fractions of a penny that arrive from sums.
const pence = fc.integer({ min: -100_000_000_000, max: 100_000_000_000 });
const fractional = fc.double({ min: -1e11, max: 1e11, noNaN: true, noDefaultInfinity: true });

describe('properties', () => {
  test.prop([pence])('format then parse gives the same pence', (p) => {
    expect(parsePounds(formatPounds(p))).toBe(p);
  });

  test.prop([pence])('pounds then pence gives the same pence', (p) => {
    expect(poundsToPence(penceToPounds(p))).toBe(p);
  });

  test.prop([fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })])('a negative amount mirrors its positive', (p) => {
    expect(formatPounds(-p)).toBe(`-${formatPounds(p)}`);
    expect(penceToPounds(-p)).toBe(-penceToPounds(p));
    expect(parsePounds(`-${formatPounds(p)}`)).toBe(-p);
  });

  test.prop([fractional])('a fraction of a penny rounds the same in every function, and mirrors', (x) => {
    const p = roundPence(x);
    expect(roundPence(-x)).toBe(-p || 0);
    expect(parsePounds(formatPounds(x))).toBe(p);
    expect(penceToPounds(x)).toBe(p / 100);
    const shown = formatPounds(x);
    expect(formatPounds(-x)).toBe(p === 0 ? '£0.00' : p > 0 ? `-${shown}` : shown.slice(1));
  });

  test.prop([pence, fc.constantFrom(0, 500, 1750, 2000)])('VAT on a credit line mirrors its debit', (net, rate) => {
    expect(vatOfLine(-net, rate)).toBe(-vatOfLine(net, rate) || 0);
  });

  test.prop([
    fc.array(
      fc.record({
        net: fc.integer({ min: -10_000_000, max: 10_000_000 }),
        category: fc.constantFrom('S', 'R', 'Z', 'E'),
        rate: fc.constantFrom(0, 500, 2000),
      }),
      { maxLength: 50 },
    ),
  ])('an invoice’s totals are the exact sums of its lines, per rate and in all', (lines) => {
    const t = vatTotals(lines);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(t.vat).toBe(sum(t.lines));
    expect(t.net).toBe(sum(lines.map((l) => l.net)));
    expect(t.gross).toBe(t.net + t.vat);
    expect(sum(t.breakdown.map((b) => b.vat))).toBe(t.vat);
    expect(sum(t.breakdown.map((b) => b.net))).toBe(t.net);
    // Each line's VAT is within half a penny of the exact amount.
    lines.forEach((l, i) => {
      const exact = l.category === 'E' ? 0 : (l.net * l.rate) / 10_000;
      expect(Math.abs(t.lines[i] - exact)).toBeLessThanOrEqual(0.5);
    });
  });
});

// Worked examples of the rule written down in docs/decisions.md (Issue 31.6, HMRC VAT Notice 700 section 17.5):
// line by line, each line to the nearest penny with a half penny up; the invoice's VAT is the sum of the lines'.
describe('VAT of a line', () => {
  it.each([
    // net pence, rate (basis points), VAT pence, why
    [12_345, 2000, 2469, '£123.45 at 20% is £24.69 exactly'],
    [1003, 2000, 201, '£10.03 at 20% is 200.6p: to the nearest penny, up'],
    [1002, 2000, 200, '£10.02 at 20% is 200.4p: down'],
    [1010, 500, 51, '£10.10 at 5% is 50.5p: a half penny goes up'],
    [-1010, 500, -51, 'a credit line mirrors its debit'],
    [3, 2000, 1, '0.6p rounds to 1p'],
    [2, 2000, 0, '0.4p rounds to nothing'],
    [20, 1750, 4, '20p at 17.5% is 3.5p: up'],
    [91_875, 2000, 18_375, 'a care assistant, 37.5 h at £24.50: £918.75 net, £183.75 VAT'],
    [54_000, 0, 0, 'a nurse supplied by a nursing agency: exempt'],
  ])('%s pence at %s bp → %s pence (%s)', (net, rate, vat) => {
    expect(vatOfLine(net, rate)).toBe(vat);
  });

  it('refuses a fraction of a penny or of a basis point, and a negative rate', () => {
    expect(() => vatOfLine(10.5, 2000)).toThrow(RangeError);
    expect(() => vatOfLine(1000, 17.5)).toThrow(RangeError);
    expect(() => vatOfLine(1000, -2000)).toThrow(RangeError);
  });
});

describe('VAT of an invoice', () => {
  it('adds the lines’ VAT: three lines of £10.03 at 20% carry £6.03, not the total’s 601.8p rounded', () => {
    const t = vatTotals([1003, 1003, 1003].map((net) => ({ net, category: 'S', rate: 2000 })));
    expect(t).toEqual({
      lines: [201, 201, 201],
      breakdown: [{ category: 'S', rate: 2000, net: 3009, vat: 603 }],
      net: 3009,
      vat: 603,
      gross: 3612,
    });
  });

  it('totals exempt lines apart and charges them no VAT whatever rate they carry', () => {
    const t = vatTotals([
      { net: 91_875, category: 'S', rate: 2000 },
      { net: 54_000, category: 'E', rate: 2000 },
      { net: 1003, category: 'S', rate: 2000 },
    ]);
    expect(t.lines).toEqual([18_375, 0, 201]);
    expect(t.breakdown).toEqual([
      { category: 'S', rate: 2000, net: 92_878, vat: 18_576 },
      { category: 'E', rate: 0, net: 54_000, vat: 0 },
    ]);
    expect([t.net, t.vat, t.gross]).toEqual([146_878, 18_576, 165_454]);
  });

  it('a credit note of the same lines is the invoice negated, line by line and in total', () => {
    const lines = [1003, 1010, 2].map((net) => ({ net, category: 'R', rate: 500 }));
    const invoice = vatTotals(lines);
    const credit = vatTotals(lines.map((l) => ({ ...l, net: -l.net })));
    expect(credit.lines).toEqual(invoice.lines.map((v) => -v || 0));
    expect([credit.net, credit.vat, credit.gross]).toEqual([-invoice.net, -invoice.vat, -invoice.gross]);
  });

  it('reads a rate as people do', () => {
    expect([formatVatRate(2000), formatVatRate(1750), formatVatRate(0)]).toEqual(['20%', '17.5%', '0%']);
  });
});

describe('VAT rates', () => {
  it('takes the rate in force on the date of supply, and none before the table starts', () => {
    expect(vatRateOn('S', '2026-11-29')?.rate).toBe(2000);
    expect(vatRateOn('S', '2011-01-04')?.rate).toBe(2000);
    expect(vatRateOn('S', '2011-01-03')).toBeNull();
    expect(vatRateOn('E', '2026-11-29')?.rate).toBe(0);
    expect(vatRateOn('R', '2026-11-29')?.rate).toBe(500);
  });

  it('names a source for every row', () => {
    for (const r of VAT_RATES) expect(r.source.length).toBeGreaterThan(10);
  });
});
