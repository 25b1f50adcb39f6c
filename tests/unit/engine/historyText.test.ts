// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { humanise, readableValue, type Wording } from '../../../src/engine/react/historyText';
import { shifts } from '../../../core/resources/shifts/resource';
import { timesheetSignatures } from '../../../core/resources/timesheets/resource';
import type { FieldDeclaration } from '../../../core/engine/types';

const words: Wording = { yes: 'Yes', no: 'No', file: 'a file' };
const field = (source: string) => shifts.fields.find((f) => f.source === source) as FieldDeclaration;

describe('history values in the reader’s words', () => {
  it('writes a shift’s price lines as text, money in pounds, never "[object Object]"', () => {
    const lines = [
      // Keys in the order the database keeps them (jsonb: shortest first).
      {
        end: '20:00',
        pay: 14375,
        band: 'weekday_day',
        hours: 11.5,
        start: '08:00',
        charge: 20700,
        pay_rate: 1250,
        charge_rate: 1800,
      },
      { band: 'night', hours: 1, pay_rate: 1400, charge_rate: 2000, pay: 1400, charge: 2000 },
    ];
    const text = readableValue(field('price_lines'), lines, words);
    expect(text).not.toMatch(/object|\{|"/);
    expect(text).toBe(
      'Band: Weekday day, Start: 08:00, End: 20:00, Hours: 11.5, Pay: £143.75, Charge: £207.00, Pay rate: £12.50, Charge rate: £18.00; ' +
        'Band: Night, Hours: 1, Pay rate: £14.00, Charge rate: £20.00, Pay: £14.00, Charge: £20.00',
    );
  });

  it('writes a bulk creation’s dates as days people read, not JSON', () => {
    const text = readableValue(undefined, { dates: ['2026-03-01', '2026-03-02'], staff_needed: 2 }, words);
    expect(text).toBe('Dates: 1 Mar 2026, 2 Mar 2026; Staff needed: 2');
    expect(humanise('bulk')).toBe('Bulk');
  });

  it('writes declared values as the screens show them: money, dates, times, yes/no, choices, lists', () => {
    expect(readableValue(field('charge'), 27640, words)).toBe('£276.40');
    expect(readableValue(field('sleep_in'), true, words)).toBe('Yes');
    expect(readableValue(field('status'), 'cancelled', words)).toBe('Cancelled');
    expect(readableValue({ source: 'd', type: 'date', label: 'D' }, '2026-03-09', words)).toBe('9 Mar 2026');
    const local = new Date(2026, 2, 9, 7, 5).toISOString();
    expect(readableValue(field('start_at'), local, words)).toBe('9 Mar 2026, 07:05');
    expect(readableValue(undefined, ['a', 'b'], words)).toBe('a, b');
    expect(readableValue(undefined, [], words)).toBe('—');
    expect(readableValue(field('notes'), null, words)).toBe('—');
  });

  it('says a drawn signature was recorded instead of printing its base64 (issue 29.9)', () => {
    const png = `data:image/png;base64,${'iVBORw0KGgo'.repeat(3000)}`;
    const signature = timesheetSignatures.fields.find((f) => f.source === 'signature');
    const w = { ...words, image: 'signature recorded' };
    expect(readableValue(signature, png, w)).toBe('signature recorded');
    // An action's input without a declaration of its own (the approval's signature) reads the same.
    expect(readableValue(undefined, png, w)).toBe('signature recorded');
  });
});
