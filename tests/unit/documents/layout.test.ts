// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { layoutColumns, pageLabel, pdfText, tableCell } from '../../../server/documents/pdf/layout';
import { exportCell, zonedMinute } from '../../../core/engine/exportFormat';

// The template helpers of the PDF renderer (issue 16 item 7): pure, so checked here without drawing a page.
describe('layoutColumns', () => {
  it('shares the width by weight, edge to edge, the last column taking what rounding left', () => {
    const placed = layoutColumns(
      [
        { header: 'ID', weight: 0.5 },
        { header: 'Name', weight: 2 },
        { header: 'Pay', weight: 1, align: 'right' },
      ],
      36,
      770,
    );
    expect(placed.map((c) => c.x)).toEqual([36, 36 + 110, 36 + 110 + 440]);
    expect(placed.map((c) => c.width)).toEqual([110, 440, 220]);
    expect(placed[2].x + placed[2].width).toBe(36 + 770);
    expect(placed.map((c) => c.align)).toEqual(['left', 'left', 'right']);
  });

  it('gives columns without a weight equal shares', () => {
    expect(layoutColumns([{ header: 'a' }, { header: 'b' }, { header: 'c' }], 0, 301).map((c) => c.width)).toEqual([
      100, 100, 101,
    ]);
  });
});

describe('pageLabel', () => {
  it('reads Page x of y', () => {
    expect(pageLabel(3, 12)).toBe('Page 3 of 12');
  });
});

describe('pdfText', () => {
  it('keeps names as typed (the embedded font is Unicode) and drops control characters', () => {
    expect(pdfText('Chloé’s £12.50 – “café”')).toBe('Chloé’s £12.50 – “café”');
    expect(pdfText('Łukasz, Zoë, Siobhán, Nguyễn, Ødegaard')).toBe('Łukasz, Zoë, Siobhán, Nguyễn, Ødegaard');
    expect(pdfText('bell\u0007 and nul\u0000')).toBe('bell and nul');
  });

  it('writes a cell on one line, and nothing for null', () => {
    expect(pdfText('line one\r\nline two')).toBe('line one line two');
    expect(pdfText(null)).toBe('');
  });
});

describe('tableCell', () => {
  it('writes money (pence) by the one formatter, negatives -£1.50, numbers and text as they are', () => {
    expect(tableCell(123450, 'money')).toBe('£1,234.50');
    expect(tableCell(0, 'money')).toBe('£0.00');
    expect(tableCell(-150, 'money')).toBe('-£1.50');
    expect(tableCell(7.5, 'number')).toBe('7.5');
    expect(tableCell('', 'money')).toBe('');
  });
});

describe('exportCell times', () => {
  it("writes an instant on the agency's clock, summer time included, whatever the server's zone", () => {
    const starts = { source: 'start_at', type: 'datetime', label: 'Starts' } as const;
    expect(exportCell(starts, '2026-07-01T12:30:00.000Z', new Map(), [], 'Europe/London')).toBe('2026-07-01 13:30');
    expect(exportCell(starts, '2026-12-01T12:30:00.000Z', new Map(), [], 'Europe/London')).toBe('2026-12-01 12:30');
    expect(zonedMinute('2026-03-29T00:59:00.000Z', 'Europe/London')).toBe('2026-03-29 00:59');
    expect(zonedMinute('2026-03-29T01:00:00.000Z', 'Europe/London')).toBe('2026-03-29 02:00');
  });

  it('keeps a plain date as it is', () => {
    expect(exportCell({ source: 'd', type: 'date', label: 'D' }, '2026-02-28', new Map(), [])).toBe('2026-02-28');
  });
});

describe('exportCell choices', () => {
  it('writes several choices by their names, in the order stored', () => {
    const channels = {
      source: 'channels',
      type: 'choices',
      label: 'Channels',
      choices: [
        { id: 'email', name: 'E-mail' },
        { id: 'sms', name: 'SMS' },
      ],
    } as const;
    expect(exportCell({ ...channels, choices: [...channels.choices] }, ['sms', 'email'], new Map(), [])).toBe(
      'SMS, E-mail',
    );
    expect(exportCell({ ...channels, choices: [...channels.choices] }, [], new Map(), [])).toBe('');
  });
});
