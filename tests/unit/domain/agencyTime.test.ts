// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { tzScan } from '@date-fns/tz';
import {
  DEFAULT_TIME_ZONE,
  addDaysToDate,
  addMonthsToDate,
  agencyToday,
  assertMonday,
  dayOfWeek,
  daysBetween,
  formatDisplayDate,
  instantToZoned,
  isPlainDate,
  isValidTimeZone,
  startOfWeekMonday,
  weekDates,
  zonedDateTimeToInstant,
} from '../../../core/domain/time/agencyTime';
import { plainDate, wholeMinuteInstant, withMachineZone } from './arbitraries';

const LONDON = 'Europe/London';
// Zones the tests pretend the machine runs in: the agency's answers must not depend on it.
const MACHINE_ZONES = ['UTC', 'Europe/London', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Australia/Lord_Howe'];
// Agency zones for the properties: whole-hour DST, a half-hour DST shift, the southern hemisphere, no DST.
const AGENCY_ZONES = [
  'Europe/London',
  'America/New_York',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'Asia/Kolkata',
  'UTC',
];

describe('time zones', () => {
  it('defaults to London', () => expect(DEFAULT_TIME_ZONE).toBe('Europe/London'));

  it.each([
    ['Europe/London', true],
    ['UTC', true],
    ['America/New_York', true],
    ['Asia/Kolkata', true],
    ['Nowhere/Special', false],
    ['', false],
    ['+01:00', false],
    [undefined, false],
    [null, false],
    [60, false],
    [{ toString: () => 'Europe/London' }, false],
  ])('isValidTimeZone(%j) is %s', (tz, valid) => {
    expect(isValidTimeZone(tz)).toBe(valid);
  });

  it('refuses an unknown zone instead of answering a wrong date', () => {
    expect(() => agencyToday('Nowhere/Special', new Date())).toThrow(RangeError);
    expect(() => zonedDateTimeToInstant('2026-01-01', '09:00', 'Nowhere/Special')).toThrow(RangeError);
  });
});

describe('plain dates', () => {
  it.each([
    ['2026-03-31', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-1-5', false],
    ['2026-01-05T00:00:00Z', false],
    [' 2026-01-05', false],
    ['', false],
    [20260105, false],
    [null, false],
  ])('isPlainDate(%j) is %s', (value, ok) => {
    expect(isPlainDate(value)).toBe(ok);
  });

  it.each([
    ['2026-03-28', 1, '2026-03-29'],
    ['2026-03-29', 1, '2026-03-30'], // the London spring-forward day still lasts one calendar day
    ['2026-10-25', 1, '2026-10-26'], // and so does the autumn one
    ['2026-01-31', 1, '2026-02-01'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2026-06-15', 0, '2026-06-15'],
    ['2026-01-01', 365, '2027-01-01'],
    ['2024-01-01', 366, '2025-01-01'],
  ])('addDaysToDate(%s, %i) is %s', (date, n, expected) => {
    expect(addDaysToDate(date, n)).toBe(expected);
  });

  it.each([
    ['2026-03-28', '2026-03-30', 2],
    ['2026-10-24', '2026-10-26', 2],
    ['2026-03-30', '2026-03-28', -2],
    ['2026-05-05', '2026-05-05', 0],
    ['2024-01-01', '2025-01-01', 366],
    ['2025-01-31', '2025-03-01', 29],
  ])('daysBetween(%s, %s) is %i', (from, to, expected) => {
    expect(daysBetween(from, to)).toBe(expected);
  });

  it.each([
    ['2025-01-31', 1, '2025-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2025-03-31', 1, '2025-04-30'],
    ['2025-08-31', 6, '2026-02-28'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2026-04-15', 36, '2029-04-15'],
    ['2026-03-31', -1, '2026-02-28'],
  ])('addMonthsToDate(%s, %i) is %s', (date, n, expected) => {
    expect(addMonthsToDate(date, n)).toBe(expected);
  });

  it.each(['2026-02-30', '31/03/2026', '', 'today'])('refuses %j with a RangeError', (bad) => {
    expect(() => addDaysToDate(bad, 1)).toThrow(RangeError);
    expect(() => daysBetween(bad, '2026-01-01')).toThrow(RangeError);
    expect(() => addMonthsToDate(bad, 1)).toThrow(RangeError);
  });

  it.each([
    ['2026-11-03', '3 Nov 2026'],
    ['2026-01-15', '15 Jan 2026'],
    ['2025-12-31', '31 Dec 2025'],
  ])('formatDisplayDate(%s) is %s', (date, text) => {
    expect(formatDisplayDate(date)).toBe(text);
  });

  test.prop([plainDate(), fc.integer({ min: -40_000, max: 40_000 })])(
    'daysBetween(d, addDaysToDate(d, n)) === n, and adding -n goes back',
    (d, n) => {
      const later = addDaysToDate(d, n);
      expect(isPlainDate(later)).toBe(true);
      expect(daysBetween(d, later)).toBe(n);
      expect(addDaysToDate(later, -n)).toBe(d);
    },
  );

  test.prop([plainDate()])('the next day is the next calendar date', (d) => {
    const [y, m, day] = d.split('-').map(Number);
    const next = addDaysToDate(d, 1);
    const sameMonth = `${d.slice(0, 8)}${String(day + 1).padStart(2, '0')}`;
    const firstOfNext =
      m === 12 ? `${String(y + 1).padStart(4, '0')}-01-01` : `${d.slice(0, 5)}${String(m + 1).padStart(2, '0')}-01`;
    expect(next).toBe(isPlainDate(sameMonth) ? sameMonth : firstOfNext);
  });

  test.prop([plainDate(), fc.integer({ min: -240, max: 240 })])(
    'addMonthsToDate keeps the day of the month, or clamps it to the month end',
    (d, n) => {
      const result = addMonthsToDate(d, n);
      const [y, m, day] = d.split('-').map(Number);
      const months = y * 12 + (m - 1) + n;
      expect(result.slice(0, 7)).toBe(
        `${String(Math.floor(months / 12)).padStart(4, '0')}-${String((months % 12) + 1).padStart(2, '0')}`,
      );
      const resultDay = Number(result.slice(8));
      if (resultDay !== day) {
        expect(resultDay).toBeLessThan(day);
        expect(addDaysToDate(result, 1).slice(8)).toBe('01'); // the last day of its month
      }
    },
  );
});

describe('weeks, Monday first', () => {
  it.each([
    ['2026-03-23', 1],
    ['2026-03-29', 7],
    ['2026-03-25', 3],
    ['2000-01-01', 6],
  ])('dayOfWeek(%s) is %i', (date, dow) => {
    expect(dayOfWeek(date)).toBe(dow);
  });

  it.each([
    ['2026-03-23', '2026-03-23'], // Monday
    ['2026-03-29', '2026-03-23'], // Sunday belongs to the week before it
    ['2026-03-25', '2026-03-23'],
    ['2026-01-01', '2025-12-29'], // across a year end
    ['2026-03-01', '2026-02-23'],
  ])('startOfWeekMonday(%s) is %s', (date, monday) => {
    expect(startOfWeekMonday(date)).toBe(monday);
  });

  it('weekDates lists the seven days Monday first, across a month end and the clock change', () => {
    expect(weekDates('2026-03-23')).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
    expect(weekDates('2026-12-28')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });

  it('refuses a week start that is not a Monday', () => {
    expect(() => weekDates('2026-03-24')).toThrow('A week must start on a Monday; 2026-03-24 is not one.');
    expect(() => assertMonday('2026-03-29')).toThrow(RangeError);
    expect(() => assertMonday('2026-03-30')).not.toThrow();
  });

  test.prop([plainDate()])(
    'startOfWeekMonday is the Monday on or up to six days before, and its week holds the date',
    (d) => {
      const monday = startOfWeekMonday(d);
      expect(dayOfWeek(monday)).toBe(1);
      expect(daysBetween(monday, d)).toBeGreaterThanOrEqual(0);
      expect(daysBetween(monday, d)).toBeLessThan(7);
      expect(weekDates(monday)).toContain(d);
      expect(weekDates(monday).map(dayOfWeek)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    },
  );
});

describe("the agency's today", () => {
  it('really changes the machine zone in these tests', () => {
    expect(withMachineZone('America/Los_Angeles', () => new Date(2026, 0, 15, 12).getTimezoneOffset())).toBe(480);
    expect(withMachineZone('Pacific/Kiritimati', () => new Date(2026, 0, 15, 12).getTimezoneOffset())).toBe(-840);
  });

  it.each(MACHINE_ZONES)('does not depend on the machine zone (%s)', (machine) => {
    withMachineZone(machine, () => {
      // Summer: 23:30 UTC on 31 March 2026 is 00:30 BST on 1 April in London.
      expect(agencyToday(LONDON, new Date('2026-03-31T23:30:00Z'))).toBe('2026-04-01');
      expect(agencyToday('UTC', new Date('2026-03-31T23:30:00Z'))).toBe('2026-03-31');
      // Winter: London is on UTC, so a UTC machine and a London agency agree.
      expect(agencyToday(LONDON, new Date('2026-01-15T23:30:00Z'))).toBe('2026-01-15');
      expect(agencyToday('UTC', new Date('2026-01-15T23:30:00Z'))).toBe('2026-01-15');
      expect(agencyToday(LONDON, new Date('2026-01-15T23:59:59Z'))).toBe('2026-01-15');
      expect(agencyToday(LONDON, new Date('2026-01-16T00:00:00Z'))).toBe('2026-01-16');
      // Far from UTC.
      expect(agencyToday('America/Los_Angeles', new Date('2026-01-15T07:59:00Z'))).toBe('2026-01-14');
      expect(agencyToday('Pacific/Kiritimati', new Date('2026-01-15T10:00:00Z'))).toBe('2026-01-16');
    });
  });

  it('the London day turns at 23:00 UTC in summer and 00:00 UTC in winter', () => {
    expect(agencyToday(LONDON, new Date('2026-07-10T22:59:59Z'))).toBe('2026-07-10');
    expect(agencyToday(LONDON, new Date('2026-07-10T23:00:00Z'))).toBe('2026-07-11');
    expect(agencyToday(LONDON, new Date('2026-12-10T23:00:00Z'))).toBe('2026-12-10');
  });

  it('uses the clock when no instant is given', () => {
    const before = agencyToday(LONDON, new Date());
    const today = agencyToday(LONDON);
    const after = agencyToday(LONDON, new Date());
    expect([before, after]).toContain(today);
  });

  test.prop([wholeMinuteInstant()])('in London it is the UTC date or the day after', (now) => {
    const utc = now.toISOString().slice(0, 10);
    expect(agencyToday('UTC', now)).toBe(utc);
    expect([utc, addDaysToDate(utc, 1)]).toContain(agencyToday(LONDON, now));
  });
});

describe('wall clock ↔ instant', () => {
  it.each([
    // [date, time, zone, instant, why]
    ['2026-01-15', '09:00', LONDON, '2026-01-15T09:00:00.000Z', 'winter: GMT'],
    ['2026-07-15', '09:00', LONDON, '2026-07-15T08:00:00.000Z', 'summer: BST'],
    ['2026-03-29', '00:30', LONDON, '2026-03-29T00:30:00.000Z', 'before the jump'],
    ['2026-03-29', '01:00', LONDON, '2026-03-29T01:00:00.000Z', 'the first missing minute: moved to 02:00 BST'],
    ['2026-03-29', '01:30', LONDON, '2026-03-29T01:30:00.000Z', 'does not exist: moved forward to 02:30 BST'],
    ['2026-03-29', '02:00', LONDON, '2026-03-29T01:00:00.000Z', 'the first minute after the jump'],
    ['2026-03-29', '02:30', LONDON, '2026-03-29T01:30:00.000Z', 'after the jump'],
    ['2026-10-25', '00:30', LONDON, '2026-10-24T23:30:00.000Z', 'before the repeat'],
    ['2026-10-25', '01:00', LONDON, '2026-10-25T00:00:00.000Z', 'occurs twice: the first (BST)'],
    ['2026-10-25', '01:30', LONDON, '2026-10-25T00:30:00.000Z', 'occurs twice: the first (BST)'],
    ['2026-10-25', '02:00', LONDON, '2026-10-25T02:00:00.000Z', 'after the repeat: GMT'],
    ['2026-03-08', '02:30', 'America/New_York', '2026-03-08T07:30:00.000Z', 'New York gap: 03:30 EDT'],
    ['2026-11-01', '01:30', 'America/New_York', '2026-11-01T05:30:00.000Z', 'New York repeat: the first (EDT)'],
    ['2026-10-04', '02:15', 'Australia/Lord_Howe', '2026-10-03T15:45:00.000Z', 'a 30-minute gap: 02:45'],
    ['2026-06-01', '23:59', 'Asia/Kolkata', '2026-06-01T18:29:00.000Z', 'a half-hour offset'],
  ])('%s %s in %s is %s (%s)', (date, time, tz, instant) => {
    expect(zonedDateTimeToInstant(date, time, tz).toISOString()).toBe(instant);
  });

  it('reads instants back on the wall clock', () => {
    expect(instantToZoned(new Date('2026-03-29T01:30:00Z'), LONDON)).toEqual({ date: '2026-03-29', time: '02:30' });
    expect(instantToZoned(new Date('2026-10-25T00:30:00Z'), LONDON)).toEqual({ date: '2026-10-25', time: '01:30' });
    expect(instantToZoned(new Date('2026-10-25T01:30:00Z'), LONDON)).toEqual({ date: '2026-10-25', time: '01:30' });
    expect(instantToZoned(new Date('2026-03-31T23:30:45Z'), LONDON)).toEqual({ date: '2026-04-01', time: '00:30' });
  });

  it.each(MACHINE_ZONES)('gives the same answers whatever the machine zone (%s)', (machine) => {
    withMachineZone(machine, () => {
      expect(zonedDateTimeToInstant('2026-03-29', '01:30', LONDON).toISOString()).toBe('2026-03-29T01:30:00.000Z');
      expect(zonedDateTimeToInstant('2026-10-25', '01:30', LONDON).toISOString()).toBe('2026-10-25T00:30:00.000Z');
      expect(instantToZoned(new Date('2026-01-15T23:30:00Z'), LONDON)).toEqual({ date: '2026-01-15', time: '23:30' });
    });
  });

  it.each(['9:00', '24:00', '12:60', '12:00:00', '', 'noon'])('refuses the time %j', (time) => {
    expect(() => zonedDateTimeToInstant('2026-01-15', time, LONDON)).toThrow(RangeError);
  });

  it('refuses an invalid instant', () => {
    expect(() => instantToZoned(new Date('nonsense'), LONDON)).toThrow(RangeError);
  });

  test.prop([wholeMinuteInstant(), fc.constantFrom(...AGENCY_ZONES)])(
    'an instant read on the wall clock and converted back is itself, or the first of a repeated time',
    (instant, tz) => {
      const wall = instantToZoned(instant, tz);
      const back = zonedDateTimeToInstant(wall.date, wall.time, tz);
      expect(instantToZoned(back, tz)).toEqual(wall);
      expect(back.getTime()).toBeLessThanOrEqual(instant.getTime());
      expect(instant.getTime() - back.getTime()).toBeLessThanOrEqual(60 * 60_000);
    },
  );

  // Random instants rarely land near a clock change, so these are drawn within three hours of one.
  const nearClockChange = fc
    .tuple(
      fc.constantFrom(...AGENCY_ZONES.filter((z) => z !== 'UTC' && z !== 'Asia/Kolkata')),
      fc.integer({ min: 2000, max: 2050 }),
    )
    .chain(([tz, year]) => {
      const changes = tzScan(tz, { start: new Date(Date.UTC(year, 0, 1)), end: new Date(Date.UTC(year + 1, 0, 1)) });
      return fc.tuple(
        fc.constant(tz),
        fc.constantFrom(...changes.map((c) => c.date.getTime())),
        fc.integer({ min: -180, max: 180 }).map((m) => m * 60_000),
      );
    })
    .map(([tz, at, delta]) => ({ tz, instant: new Date(at + delta) }));

  test.prop([nearClockChange])(
    'near a clock change too: back to itself, or to the first of a repeated time',
    ({ tz, instant }) => {
      const wall = instantToZoned(instant, tz);
      const back = zonedDateTimeToInstant(wall.date, wall.time, tz);
      expect(instantToZoned(back, tz)).toEqual(wall);
      // The first occurrence: no earlier instant shows the same wall time (a repeat is at most an hour later).
      expect(back.getTime()).toBeLessThanOrEqual(instant.getTime());
      for (let earlier = back.getTime() - 60 * 60_000; earlier < back.getTime(); earlier += 15 * 60_000) {
        expect(instantToZoned(new Date(earlier), tz)).not.toEqual(wall);
      }
    },
  );

  // The runtime's own reading of the zone, as an oracle independent of the kept hourly offsets.
  const intlReading = (instant: Date, tz: string) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: tz,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(instant)
        .map((x) => [x.type, x.value]),
    );
    return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
  };
  const anyMillisecond = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }).map((ms) => new Date(ms));

  test.prop([anyMillisecond, fc.constantFrom(...AGENCY_ZONES, 'Asia/Kathmandu', 'Pacific/Chatham')])(
    'reads the wall clock the runtime reads, to the minute',
    (instant, tz) => {
      expect(instantToZoned(instant, tz)).toEqual(intlReading(instant, tz));
    },
  );

  test.prop([nearClockChange, fc.integer({ min: 0, max: 59_999 })])(
    'reads the wall clock the runtime reads near a clock change, seconds and all, in any order asked',
    ({ tz, instant }, ms) => {
      const at = new Date(instant.getTime() + ms);
      // The hour before and after first, so the hours around the change are kept before the instant is read.
      instantToZoned(new Date(at.getTime() - 60 * 60_000), tz);
      instantToZoned(new Date(at.getTime() + 60 * 60_000), tz);
      expect(instantToZoned(at, tz)).toEqual(intlReading(at, tz));
    },
  );

  test.prop([
    plainDate('1990-01-01', '2060-12-31'),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom(...AGENCY_ZONES),
  ])(
    'a wall time that exists reads back unchanged; one in a gap reads back later the same day or just after',
    (date, h, m, tz) => {
      const time = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
      const wall = instantToZoned(zonedDateTimeToInstant(date, time, tz), tz);
      const asked = daysBetween('1990-01-01', date) * 1440 + h * 60 + m;
      const got =
        daysBetween('1990-01-01', wall.date) * 1440 + Number(wall.time.slice(0, 2)) * 60 + Number(wall.time.slice(3));
      // Equal, or pushed forward by at most the length of a DST jump (an hour).
      expect(got - asked).toBeGreaterThanOrEqual(0);
      expect(got - asked).toBeLessThanOrEqual(60);
    },
  );
});
