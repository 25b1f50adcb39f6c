// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  addDates,
  fromCalendarTime,
  removeDate,
  toCalendarTime,
  weekFrom,
} from '../../../src/resources/shifts/calendarTime';
import { bulkBody, createdCount, validateShiftRequest } from '../../../src/resources/shifts/ShiftCreate';
import { sumQuotes } from '../../../src/resources/shifts/QuotePanel';
import { chargeSentence } from '../../../src/resources/shifts/CancelDialog';
import { movedTo, staffRows } from '../../../src/resources/shifts/StaffWeek';
import { scheduleQuery } from '../../../src/resources/shifts/ScheduleParts';

const LONDON = 'Europe/London';

describe('the calendar reads instants as the agency wall clock', () => {
  it.each([
    // GMT in winter, BST in summer: the same instant shows the wall clock of its season.
    ['2026-01-15T20:00:00.000Z', LONDON, '2026-01-15T20:00:00'],
    ['2026-07-15T19:00:00.000Z', LONDON, '2026-07-15T20:00:00'],
    // 23:30 UTC on 31 March is already 1 April in London.
    ['2026-03-31T23:30:00.000Z', LONDON, '2026-04-01T00:30:00'],
    ['2026-07-15T19:00:00.000Z', 'America/New_York', '2026-07-15T15:00:00'],
  ])('%s in %s is %s', (instant, tz, wall) => {
    expect(toCalendarTime(instant, tz)).toBe(wall);
  });

  it('turns what the calendar hands back into the instant it means, both ways round', () => {
    for (const instant of [
      '2026-01-15T20:00:00.000Z',
      '2026-07-15T19:00:00.000Z',
      '2026-10-24T19:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
    ]) {
      const wall = new Date(`${toCalendarTime(instant, LONDON)}Z`); // FullCalendar with timeZone 'UTC'
      expect(fromCalendarTime(wall, LONDON)).toBe(instant);
    }
  });

  it('a dropped wall-clock time in the spring-forward gap lands after the jump', () => {
    expect(fromCalendarTime(new Date('2026-03-29T01:30:00Z'), LONDON)).toBe('2026-03-29T01:30:00.000Z');
  });
});

describe('the staff week', () => {
  it('the staff week moves a night to another date at the same wall-clock times, even across a clock change', () => {
    const night = {
      id: 1,
      status: 'assigned',
      start_at: '2026-03-21T20:00:00.000Z',
      end_at: '2026-03-22T08:00:00.000Z',
    };
    expect(movedTo(night, '2026-03-28', LONDON)).toEqual({
      start: '2026-03-28T20:00:00.000Z',
      end: '2026-03-29T07:00:00.000Z',
    });
  });
});

describe('the dates builder', () => {
  it('"week from" gives seven consecutive dates, across a month end', () => {
    expect(weekFrom('2026-03-28')).toEqual([
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
    ]);
  });
  it('adds each date once, in calendar order, and removes one', () => {
    const chosen = addDates(['2026-05-04', '2026-05-01'], ['2026-05-02', '2026-05-04']);
    expect(chosen).toEqual(['2026-05-01', '2026-05-02', '2026-05-04']);
    expect(removeDate(chosen, '2026-05-02')).toEqual(['2026-05-01', '2026-05-04']);
  });
});

describe('the create form', () => {
  const good = {
    client_id: 1,
    site_id: 2,
    job_role_id: 3,
    start_time: '08:00',
    end_time: '20:00',
    break_minutes: 30,
    dates: ['2026-05-01'],
    staff_needed: 2,
    notes: ' ',
  };
  it('accepts a complete request and sends the API what it expects', () => {
    expect(validateShiftRequest(good, 'agency')).toEqual({});
    expect(bulkBody({ ...good, template_id: 4 })).toEqual({
      client_id: 1,
      site_id: 2,
      job_role_id: 3,
      template_id: 4,
      start_time: '08:00',
      end_time: '20:00',
      break_minutes: 30,
      dates: ['2026-05-01'],
      staff_needed: 2,
      notes: null,
    });
  });
  it.each([
    [{ client_id: null }, 'client_id'],
    [{ site_id: null }, 'site_id'],
    [{ job_role_id: null }, 'job_role_id'],
    [{ dates: [] }, 'dates'],
    [{ start_time: '8am' }, 'start_time'],
    [{ end_time: '08:00', start_time: '08:00' }, 'end_time'],
    [{ break_minutes: -5 }, 'break_minutes'],
    [{ staff_needed: 0 }, 'staff_needed'],
    [{ staff_needed: 51 }, 'staff_needed'],
  ])('refuses %o on %s', (change, field) => {
    expect(Object.keys(validateShiftRequest({ ...good, ...change } as any, 'agency'))).toEqual([field]);
  });
  it('says so next to the date being picked when it is not a date, or (for a client) has passed', () => {
    expect(validateShiftRequest({ ...good, date_to_add: 'Invalid date' }, 'agency')).toEqual({
      date_to_add: 'engine.validation.date',
    });
    expect(validateShiftRequest({ ...good, date_to_add: '2026-02-30' }, 'agency')).toEqual({
      date_to_add: 'engine.validation.date',
    });
    expect(validateShiftRequest({ ...good, date_to_add: '2026-04-30' }, 'client', '2026-05-01')).toEqual({
      date_to_add: 'app.shifts.create.errors.past_date',
    });
    expect(validateShiftRequest({ ...good, date_to_add: '2026-04-30' }, 'agency', '2026-05-01')).toEqual({});
    expect(validateShiftRequest({ ...good, date_to_add: null }, 'client', '2026-05-01')).toEqual({});
  });
  it('a client user does not choose the client: theirs is sent', () => {
    expect(validateShiftRequest({ ...good, client_id: null }, 'client')).toEqual({});
    expect(bulkBody({ ...good, client_id: null }, 7).client_id).toBe(7);
  });
  it("refuses a client's past date in the picker, by the agency's today; the agency may pick any date (issue 14.8)", () => {
    expect(validateShiftRequest({ ...good, date_to_add: '2026-04-30' }, 'client', '2026-05-01')).toEqual({
      date_to_add: 'app.shifts.create.errors.past_date',
    });
    expect(validateShiftRequest({ ...good, date_to_add: '2026-05-01' }, 'client', '2026-05-01')).toEqual({});
    expect(validateShiftRequest({ ...good, date_to_add: '2026-04-30' }, 'agency', '2026-05-01')).toEqual({});
  });
  it('reads how many shifts were created', () => {
    expect(createdCount({ data: [{}, {}], count: 2 })).toBe(2);
    expect(createdCount({ data: [{}, {}, {}] })).toBe(3);
  });
});

describe('quotes and charges in words', () => {
  it('adds up the quotes of several dates per band, times the staff needed', () => {
    const weekday = {
      lines: [{ band: 'weekday_day', hours: 12, charge_rate: 2500, pay_rate: 1500, charge: 30000, pay: 18000 }],
      totals: { hours: 12, charge: 30000, pay: 18000, margin: 9000 },
    };
    const saturday = {
      lines: [{ band: 'saturday', hours: 12, charge_rate: 3000, pay_rate: 1800, charge: 36000, pay: 21600 }],
      totals: { hours: 12, charge: 36000, pay: 21600, margin: 11000 },
    };
    const sum = sumQuotes([weekday, weekday, saturday], 2);
    expect(sum.lines.map((l) => [l.band, l.hours, l.charge, l.pay])).toEqual([
      ['weekday_day', 48, 120000, 72000],
      ['saturday', 24, 72000, 43200],
    ]);
    expect(sum.totals).toEqual({ hours: 72, charge: 192000, pay: 115200, margin: 58000 });
  });
  it('without pay in the answer (a client user), no pay is made up', () => {
    const sum = sumQuotes([
      { lines: [{ band: 'sunday', hours: 8, charge_rate: 3000, charge: 24000 }], totals: { hours: 8, charge: 24000 } },
    ]);
    expect(sum.totals.pay).toBeUndefined();
    expect(sum.lines[0].pay).toBeUndefined();
  });
  it('says the late-cancellation charge', () => {
    const t = (k: string, o?: any) =>
      k === 'app.shifts.cancel.charges' ? `Cancelling now charges ${o.hours} hours: ${o.charge}.` : k;
    expect(chargeSentence({ hours: 4, charge: 9800 }, t)).toBe('Cancelling now charges 4 hours: £98.00.');
    expect(chargeSentence({ hours: 0, charge: 0 }, t)).toBe('app.shifts.cancel.free');
  });
});

describe('the staff week', () => {
  it('groups the week by staff member, open shifts first, by the date they start on the agency calendar', () => {
    const rows = staffRows(
      [
        {
          id: 1,
          status: 'assigned',
          candidate_id: 9,
          candidate_name: 'Zoe Adams',
          start_at: '2026-06-01T22:30:00.000Z',
          end_at: '2026-06-02T07:00:00.000Z',
        },
        {
          id: 2,
          status: 'open',
          candidate_id: null,
          start_at: '2026-06-02T07:00:00.000Z',
          end_at: '2026-06-02T19:00:00.000Z',
        },
        {
          id: 3,
          status: 'assigned',
          candidate_id: 4,
          candidate_name: 'Amy Brown',
          start_at: '2026-06-03T07:00:00.000Z',
          end_at: '2026-06-03T19:00:00.000Z',
        },
      ],
      LONDON,
      'Open shifts',
    );
    expect(rows.map((r) => r.name)).toEqual(['Open shifts', 'Amy Brown', 'Zoe Adams']);
    // 22:30 UTC on 1 June is 23:30 BST the same day.
    expect(Object.keys(rows[2].days)).toEqual(['2026-06-01']);
  });
  it('asks the schedule for the range with the filters chosen', () => {
    expect(scheduleQuery('2026-06-01T00:00:00.000Z', '2026-06-08T00:00:00.000Z', { client_id: 3, site_id: null })).toBe(
      'from=2026-06-01T00%3A00%3A00.000Z&to=2026-06-08T00%3A00%3A00.000Z&client_id=3',
    );
  });
});
