// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { DEFAULT_RULES } from '../../../core/domain/pricing/price';
import { holidaySet } from '../../../core/domain/pricing/holidays';
import type { PricingRules, RateCard } from '../../../core/domain/pricing/types';
import { zonedDateTimeToInstant } from '../../../core/domain/time/agencyTime';
import {
  clientDisputeRefusal,
  ownHoursRefusal,
  priceActual,
  SIGNATURE_MAX_HEIGHT,
  SIGNATURE_MAX_WIDTH,
  periodProblem,
  signatureProblem,
  spansOverlap,
  stateFromLines,
  timesheetFromLines,
  weekOf,
  workedInPeriod,
} from '../../../core/domain/timesheets/rules';
import { pngDataUrl } from '../../fixtures/png';

// Issue 17: a timesheet line is priced on its actual times; its timesheet's totals are its lines' sums.
const LONDON = 'Europe/London';
const NOW = '2026-03-09T10:00:00.000Z';
const CARD: RateCard = {
  pay: { weekday_day: 1300, weekday_night: 1400, saturday: 1500, sunday: 1600, bank_holiday: 2000 },
  charge: { weekday_day: 2000, weekday_night: 2200, saturday: 2400, sunday: 2600, bank_holiday: 3000 },
};
const RULES: PricingRules = { ...DEFAULT_RULES, timeZone: LONDON, breakRules: [] };
const at = (d: string, t: string) => zonedDateTimeToInstant(d, t, LONDON).toISOString();
const bands = (p: ReturnType<typeof priceActual>) => p.lines.map((l) => `${l.band} ${l.hours}`);

describe('a line priced on its actual times', () => {
  it('a late finish runs into the night band, which the booked times never reached', () => {
    const booked = priceActual(
      { actual_start: at('2026-03-04', '12:00'), actual_end: at('2026-03-04', '20:00') },
      RULES,
      CARD,
      new Set(),
    );
    const worked = priceActual(
      { actual_start: at('2026-03-04', '12:00'), actual_end: at('2026-03-04', '22:30') },
      RULES,
      CARD,
      new Set(),
    );
    expect(bands(booked)).toEqual(['weekday_day 8']);
    expect(bands(worked)).toEqual(['weekday_day 8', 'weekday_night 2.5']);
    expect(worked.totals.charge).toBe(8 * 2000 + 2.5 * 2200);
  });

  it('a night across the clock change is paid for the hours actually worked (one fewer in spring)', () => {
    // 29 March 2026: clocks go forward at 01:00; 20:00 Saturday to 08:00 Sunday is 11 hours.
    const p = priceActual(
      { actual_start: at('2026-03-28', '20:00'), actual_end: at('2026-03-29', '08:00') },
      RULES,
      CARD,
      new Set(),
    );
    expect(p.totals.hours).toBe(11);
  });

  it('a bank holiday is priced from its midnight exactly', () => {
    // Christmas Day 2026 is a Friday: a night shift from Christmas Eve is bank holiday from 00:00.
    const holidays = holidaySet('england_wales', '2026-12-24', '2026-12-26', []);
    const p = priceActual(
      { actual_start: at('2026-12-24', '20:00'), actual_end: at('2026-12-25', '06:00') },
      RULES,
      CARD,
      holidays,
    );
    expect(bands(p)).toEqual(['weekday_night 4', 'bank_holiday 6']);
    expect(p.lines[1].start).toBe(at('2026-12-25', '00:00'));
  });
});

describe('timesheet rules', () => {
  test.prop([fc.array(fc.constantFrom('pending', 'signed', 'disputed', 'verified'), { minLength: 1, maxLength: 20 })])(
    'a disputed line disputes the timesheet; all verified verifies it fully; all signed or verified signs it',
    (statuses) => {
      const s = stateFromLines(statuses);
      if (statuses.includes('disputed')) expect(s).toBe('disputed');
      else if (statuses.every((x) => x === 'verified')) expect(s).toBe('verified');
      else if (statuses.every((x) => x === 'signed' || x === 'verified')) expect(s).toBe('signed');
      else expect(s).toBe('submitted');
    },
  );

  it.each([
    // [the timesheet's state, its lines' states, what the lines make of it]
    ['draft', ['signed', 'signed'], undefined],
    ['amended', ['verified'], undefined],
    ['disputed', ['pending'], undefined],
    ['locked', ['pending'], undefined],
    ['submitted', ['pending', 'signed'], undefined],
    ['submitted', ['signed', 'verified'], { status: 'signed', signed_at: NOW }],
    ['submitted', ['verified', 'verified'], { status: 'verified' }],
    ['submitted', ['signed', 'disputed'], { status: 'disputed', disputed_at: NOW }],
    ['signed', ['signed', 'pending'], { status: 'submitted', signed_at: null }],
    ['verified', ['pending'], { status: 'submitted', signed_at: null }],
    ['signed', ['signed', 'verified'], undefined],
  ])('a %s timesheet whose lines are %j: %j (timesheetFromLines)', (status, lines, expected) => {
    expect(
      timesheetFromLines(
        { status },
        lines.map((s) => ({ status: s })),
        NOW,
      ),
    ).toEqual(expected);
  });

  it('a shift belongs to the week it starts in: a Sunday night into Monday is the Sunday’s week', () => {
    expect(weekOf(at('2026-03-08', '20:00'), LONDON)).toBe('2026-03-02');
    expect(weekOf(at('2026-03-09', '00:30'), LONDON)).toBe('2026-03-09');
  });

  it('a signature is a PNG data URL of bounded size', () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    expect(signatureProblem(png)).toBeNull();
    expect(signatureProblem('data:image/jpeg;base64,/9j/4AAQ')).toMatch(/PNG/);
    expect(signatureProblem('data:image/png;base64,' + 'A'.repeat(200))).toMatch(/PNG/);
    expect(signatureProblem(png + 'A'.repeat(200_000))).toMatch(/too large/);
  });

  // Issue 29.19: the size is read from the image's header, whatever its length (a blank 6000 × 6000 is 140 kB).
  it.each([
    [1, 1, null],
    [600, 160, null],
    [SIGNATURE_MAX_WIDTH, SIGNATURE_MAX_HEIGHT, null],
    [
      SIGNATURE_MAX_WIDTH + 1,
      160,
      'The signature image is 2001 × 160 pixels; a signature is at most 2000 × 1000. Clear it and sign again.',
    ],
    [600, SIGNATURE_MAX_HEIGHT + 1, /600 × 1001 pixels/],
    [6000, 6000, /6000 × 6000 pixels/],
  ])('a %i × %i PNG: %s', (width, height, problem) => {
    const url = pngDataUrl(width, height);
    if (problem === null) expect(signatureProblem(url)).toBeNull();
    else expect(signatureProblem(url)).toMatch(problem);
  });

  it('a PNG whose first chunk is not its header is no signature', () => {
    const url = pngDataUrl(10, 10);
    const bytes = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    bytes.write('IDAT', 12, 'ascii');
    expect(signatureProblem(`data:image/png;base64,${bytes.toString('base64')}`)).toMatch(/PNG/);
  });
});

// Issue 29.4: a line stays within its timesheet's period; one person's lines never overlap.
describe('a line in its period, and overlapping lines', () => {
  it.each([
    ['2026-03-02', null],
    ['2026-03-08', null],
    ['2026-03-01', /times starting on 2026-03-01/],
    ['2026-03-09', /covers 2026-03-02 to 2026-03-08/],
  ])('worked on %s, on the week of 2026-03-02: %s', (day, problem) => {
    const got = periodProblem(day, '2026-03-02', '2026-03-08');
    if (problem === null) expect(got).toBeNull();
    else expect(got).toMatch(problem);
  });

  const span = (start: string, end: string) => ({ start: `2026-03-02T${start}:00Z`, end: `2026-03-02T${end}:00Z` });
  it.each([
    [span('08:00', '16:00'), span('12:00', '20:00'), true],
    [span('08:00', '16:00'), span('09:00', '10:00'), true],
    [span('08:00', '16:00'), span('16:00', '20:00'), false],
    [span('16:00', '20:00'), span('08:00', '16:00'), false],
    [span('08:00', '16:00'), span('07:00', '08:00'), false],
  ])('%o and %o overlap: %s', (a, b, overlap) => {
    expect(spansOverlap(a, b)).toBe(overlap);
  });
});

describe('the shifts a period’s generation takes', () => {
  // Issue 29.10: the week's "Worked shifts" and the custom range's preview counted up to the last day, not through it.
  it.each([
    ['the first day', '2026-03-02', '08:00', '16:00', 'closed', true],
    ['the last day (a Sunday)', '2026-03-08', '08:00', '16:00', 'assigned', true],
    ['a Sunday night into Monday (the week it starts in)', '2026-03-08', '20:00', '08:00', 'closed', true],
    ['the day after', '2026-03-09', '00:30', '08:00', 'closed', false],
    ['the night before, ending on the first day', '2026-03-01', '20:00', '08:00', 'closed', false],
    ['an open shift', '2026-03-04', '08:00', '16:00', 'open', false],
  ])('worked in 2026-03-02 to 2026-03-08: %s', (_, day, start, end, status, expected) => {
    const startAt = at(day, start);
    const endDay = end < start ? new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10) : day;
    const shift = { status, start_at: startAt, end_at: at(endDay, end), candidate_id: 7 };
    expect(workedInPeriod(shift, '2026-03-02', '2026-03-08', LONDON, Date.parse('2026-04-01T00:00:00Z'))).toBe(
      expected,
    );
  });

  it('a shift not over yet, or with nobody on it, is not worked', () => {
    const shift = { status: 'assigned', start_at: at('2026-03-04', '08:00'), end_at: at('2026-03-04', '16:00') };
    expect(workedInPeriod(shift, '2026-03-02', '2026-03-08', LONDON, Date.parse(at('2026-03-04', '12:00')))).toBe(
      false,
    );
    expect(
      workedInPeriod({ ...shift, candidate_id: null }, '2026-03-02', '2026-03-08', LONDON, Date.parse('2026-04-01')),
    ).toBe(false);
  });
});

describe('whoever is paid never approves their own hours', () => {
  it.each([
    ['the user is the staff member (same e-mail)', ['jo@care.test'], ['jo@care.test', null], true],
    ['compared without case or spaces', [' Jo@Care.TEST '], ['jo@care.test'], true],
    [
      'the staff member’s phone login is the user’s e-mail',
      ['nurse@home.test'],
      ['jo@care.test', 'nurse@home.test'],
      true,
    ],
    ['a signing link sent to the staff member', [null, 'jo@care.test'], ['jo@care.test'], true],
    ['someone else', ['manager@home.test'], ['jo@care.test', 'jo@phone.test'], false],
    ['no address on either side never matches', ['', null], ['', undefined], false],
  ])('%s', (_case, approver, staff, refused) => {
    const words = ownHoursRefusal(approver, staff);
    expect(words === null ? false : /your own hours/.test(words)).toBe(refused);
  });
});

describe('a client’s dispute of lines already invoiced or paid', () => {
  const issued = (invoice: string) => ({ invoice, draft: false, paid: false });
  const draft = { invoice: null, draft: true, paid: false };
  const paid = { invoice: null, draft: false, paid: true };
  it.each([
    ['nothing held', 1, [], null],
    [
      'the one line chosen, on an issued invoice',
      1,
      [issued('INV-00012')],
      'This line is on invoice INV-00012: ask the agency for a credit note.',
    ],
    [
      'two of three on two issued invoices, named in order',
      3,
      [issued('INV-00013'), issued('INV-00012')],
      '2 of the chosen lines are on invoices INV-00012 and INV-00013: ask the agency for a credit note.',
    ],
    [
      'one line on a draft, not named',
      1,
      [draft],
      'This line is on an invoice the agency is preparing: ask the agency to correct it before it is issued.',
    ],
    [
      'an issued invoice first, then a paid line (an invoiced line that is also paid is said once)',
      4,
      [{ ...issued('INV-00012'), paid: true }, paid],
      '1 of the chosen lines is on invoice INV-00012: ask the agency for a credit note. ' +
        '1 of the chosen lines is already on the staff member’s pay: ask the agency to correct it.',
    ],
    [
      'two drafts',
      2,
      [draft, { ...draft, paid: true }],
      '2 of the chosen lines are on an invoice the agency is preparing: ask the agency to correct them before it is issued.',
    ],
  ])('%s', (_case, chosen, held, words) => {
    expect(clientDisputeRefusal(chosen, held)).toBe(words);
  });
});
