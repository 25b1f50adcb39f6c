// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { layoutColumns, pageLabel, pdfText, tableCell } from '../../../server/documents/pdf/layout';

// The template helpers of the PDF renderer (issue 16 item 7): pure, so checked here without drawing a page.
describe('layoutColumns', () => {
  it('shares the width by weight, edge to edge, the last column taking what rounding left', () => {
    const placed = layoutColumns([{ header: 'ID', weight: 0.5 }, { header: 'Name', weight: 2 }, { header: 'Pay', weight: 1, align: 'right' }], 36, 770);
    expect(placed.map((c) => c.x)).toEqual([36, 36 + 110, 36 + 110 + 440]);
    expect(placed.map((c) => c.width)).toEqual([110, 440, 220]);
    expect(placed[2].x + placed[2].width).toBe(36 + 770);
    expect(placed.map((c) => c.align)).toEqual(['left', 'left', 'right']);
  });

  it('gives columns without a weight equal shares', () => {
    expect(layoutColumns([{ header: 'a' }, { header: 'b' }, { header: 'c' }], 0, 301).map((c) => c.width)).toEqual([100, 100, 101]);
  });
});

describe('pageLabel', () => {
  it('reads Page x of y', () => {
    expect(pageLabel(3, 12)).toBe('Page 3 of 12');
  });
});

describe('pdfText', () => {
  it('keeps what the standard fonts write (accents, £, typographic quotes) and puts ? for the rest', () => {
    expect(pdfText('Chloé’s £12.50 – “café”')).toBe('Chloé’s £12.50 – “café”');
    expect(pdfText('Łukasz 🙂')).toBe('?ukasz ??');
  });

  it('writes a cell on one line, and nothing for null', () => {
    expect(pdfText('line one\r\nline two')).toBe('line one line two');
    expect(pdfText(null)).toBe('');
  });
});

describe('tableCell', () => {
  it('writes money in pounds with pence and thousands, numbers and text as they are', () => {
    expect(tableCell(1234.5, 'money')).toBe('£1,234.50');
    expect(tableCell(0, 'money')).toBe('£0.00');
    expect(tableCell(7.5, 'number')).toBe('7.5');
    expect(tableCell('', 'money')).toBe('');
  });
});
