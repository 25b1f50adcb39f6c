// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { tzScan } from '@date-fns/tz';
import {
  DEFAULT_RULES,
  bandAt,
  breakMinutesFor,
  cancellationTerms,
  lateCancellationCharge,
  price,
  type CancelParty,
} from '../../../core/domain/pricing/price';
import { holidaySet } from '../../../core/domain/pricing/holidays';
import type { Band, PricingRules, RateCard, Region, ShiftToPrice } from '../../../core/domain/pricing/types';
import { zonedDateTimeToInstant } from '../../../core/domain/time/agencyTime';
import { wholeMinuteInstant } from './arbitraries';

const LONDON = 'Europe/London';
// Every band has its own rates, so a line's rates name its band.
const CARD: RateCard = {
  pay: { weekday_day: 1300, weekday_night: 1400, saturday: 1500, sunday: 1600, bank_holiday: 2000 },
  charge: { weekday_day: 2000, weekday_night: 2200, saturday: 2400, sunday: 2600, bank_holiday: 3000 },
};
/** The agency's defaults in London without breaks, so hours are the clock's. */
const RULES: PricingRules = { ...DEFAULT_RULES, timeZone: LONDON, breakRules: [] };
const NO_HOLIDAYS = new Set<string>();

/** An ISO instant from the London wall clock: '2026-01-07 09:00'. */
const at = (dateTime: string, tz = LONDON) =>
  zonedDateTimeToInstant(dateTime.slice(0, 10), dateTime.slice(11), tz).toISOString();
const shift = (from: string, to: string, extra: Partial<ShiftToPrice> = {}): ShiftToPrice => ({
  start: at(from),
  end: at(to),
  ...extra,
});
/** The rounding rule (docs/decisions.md): paid minutes × hourly rate, rounded once to the penny. Worked here in
 * integers (minutes × rate is whole pence × 60), independently of the code under test. */
const amount = (minutes: number, rate: number) => {
  const sixtieths = minutes * rate;
  return (sixtieths - (sixtieths % 60)) / 60 + (sixtieths % 60 >= 30 ? 1 : 0);
};
const summary = (lines: { band: string; hours: number }[]) => lines.map((l) => `${l.band} ${l.hours}`);
const holidaysOf = (region: Region) => holidaySet(region, '2026-01-01', '2027-12-31', []);

describe('DEFAULT_RULES', () => {
  it('are a 20:00–08:00 night, a Saturday-to-Monday weekend, split lines, 30 minutes off from 6 hours, 4 hours within 24', () => {
    expect(DEFAULT_RULES).toEqual({
      nightStart: '20:00',
      nightEnd: '08:00',
      weekendStart: { weekday: 6, time: '00:00' },
      weekendEnd: { weekday: 1, time: '00:00' },
      splitAtBoundaries: true,
      breakRules: [{ minHours: 6, breakMinutes: 30 }],
      minimumChargeHours: 0,
      lateCancellation: { withinHours: 24, chargeHours: 4 },
    });
  });
});

describe('bands', () => {
  // 7 January 2026 is a Wednesday; 10 and 11 January a Saturday and a Sunday; 4 May 2026 a bank holiday.
  it.each([
    ['a weekday day', '2026-01-07 09:00', '2026-01-07 17:00', ['weekday_day 8']],
    ['a weekday night across midnight is one night line', '2026-01-07 20:00', '2026-01-08 08:00', ['weekday_night 12']],
    ['an early morning before 08:00 is night', '2026-01-07 06:00', '2026-01-07 08:00', ['weekday_night 2']],
    ['a Saturday', '2026-01-10 08:00', '2026-01-10 20:00', ['saturday 12']],
    [
      'a Saturday night is Saturday until midnight, Sunday after',
      '2026-01-10 20:00',
      '2026-01-11 08:00',
      ['saturday 4', 'sunday 8'],
    ],
    ['a Sunday', '2026-01-11 08:00', '2026-01-11 20:00', ['sunday 12']],
    [
      'a Friday night becomes Saturday at midnight',
      '2026-01-09 20:00',
      '2026-01-10 08:00',
      ['weekday_night 4', 'saturday 8'],
    ],
    [
      'a Sunday night becomes a weekday night at Monday 00:00',
      '2026-01-11 20:00',
      '2026-01-12 08:00',
      ['sunday 4', 'weekday_night 8'],
    ],
    ['a day running into the night', '2026-01-07 14:00', '2026-01-07 22:00', ['weekday_day 6', 'weekday_night 2']],
    ['a night running into the day', '2026-01-08 06:00', '2026-01-08 10:00', ['weekday_night 2', 'weekday_day 2']],
    ['a bank holiday beats the weekday', '2026-05-04 08:00', '2026-05-04 20:00', ['bank_holiday 12']],
    ['midnight into a bank holiday splits', '2026-05-03 20:00', '2026-05-04 08:00', ['sunday 4', 'bank_holiday 8']],
    [
      'a bank holiday night ends at its midnight',
      '2026-05-04 20:00',
      '2026-05-05 08:00',
      ['bank_holiday 4', 'weekday_night 8'],
    ],
  ])('%s', (_, from, to, expected) => {
    const p = price(shift(from, to), RULES, CARD, holidaysOf('england_wales'));
    expect(summary(p.lines)).toEqual(expected);
    for (const line of p.lines) {
      const band = line.band as Band;
      expect([line.pay_rate, line.charge_rate]).toEqual([CARD.pay[band], CARD.charge[band]]);
      expect([line.pay, line.charge]).toEqual([
        amount(line.minutes, line.pay_rate),
        amount(line.minutes, line.charge_rate),
      ]);
    }
  });

  it('answers the lines with their instants, pence and totals', () => {
    expect(price(shift('2026-01-07 14:00', '2026-01-07 22:00'), RULES, CARD, NO_HOLIDAYS)).toEqual({
      lines: [
        {
          band: 'weekday_day',
          start: '2026-01-07T14:00:00.000Z',
          end: '2026-01-07T20:00:00.000Z',
          hours: 6,
          minutes: 360,
          pay_rate: 1300,
          charge_rate: 2000,
          pay: 7800,
          charge: 12000,
        },
        {
          band: 'weekday_night',
          start: '2026-01-07T20:00:00.000Z',
          end: '2026-01-07T22:00:00.000Z',
          hours: 2,
          minutes: 120,
          pay_rate: 1400,
          charge_rate: 2200,
          pay: 2800,
          charge: 4400,
        },
      ],
      totals: { hours: 8, pay: 10600, charge: 16400, margin: 5800 },
    });
  });

  it.each([
    [
      'a weekend from Friday 18:00 to Monday 06:00 counts Friday evening as Saturday',
      '2026-01-09 16:00',
      '2026-01-09 20:00',
      ['weekday_day 2', 'saturday 2'],
    ],
    [
      'and early Monday as Sunday',
      '2026-01-12 04:00',
      '2026-01-12 09:00',
      ['sunday 2', 'weekday_night 1', 'weekday_day 2'],
    ],
  ])('%s', (_, from, to, expected) => {
    const rules: PricingRules = {
      ...RULES,
      nightStart: '22:00',
      nightEnd: '07:00',
      weekendStart: { weekday: 5, time: '18:00' },
      weekendEnd: { weekday: 1, time: '06:00' },
    };
    expect(summary(price(shift(from, to), rules, CARD, NO_HOLIDAYS).lines)).toEqual(expected);
  });

  it('a night band that does not cross midnight', () => {
    const rules: PricingRules = { ...RULES, nightStart: '00:00', nightEnd: '06:00' };
    expect(summary(price(shift('2026-01-07 22:00', '2026-01-08 07:00'), rules, CARD, NO_HOLIDAYS).lines)).toEqual([
      'weekday_day 2',
      'weekday_night 6',
      'weekday_day 1',
    ]);
  });

  it('bandAt names the band in force at an instant', () => {
    expect(bandAt(at('2026-01-10 12:00'), RULES, NO_HOLIDAYS)).toBe('saturday');
    expect(bandAt(at('2026-12-28 12:00'), RULES, holidaysOf('england_wales'))).toBe('bank_holiday');
  });
});

describe('split at boundaries, or rated by the start', () => {
  const byStart: PricingRules = { ...RULES, splitAtBoundaries: false };
  it.each([
    [
      'a Friday night is all weekday night',
      '2026-01-09 20:00',
      '2026-01-10 08:00',
      ['weekday_night 4', 'saturday 8'],
      ['weekday_night 12'],
    ],
    [
      'a Saturday night is all Saturday',
      '2026-01-10 20:00',
      '2026-01-11 08:00',
      ['saturday 4', 'sunday 8'],
      ['saturday 12'],
    ],
    [
      'a day into the night is all day',
      '2026-01-07 14:00',
      '2026-01-07 22:00',
      ['weekday_day 6', 'weekday_night 2'],
      ['weekday_day 8'],
    ],
    [
      'a night into a bank holiday is all night',
      '2026-12-31 20:00',
      '2027-01-01 08:00',
      ['weekday_night 4', 'bank_holiday 8'],
      ['weekday_night 12'],
    ],
  ])('%s', (_, from, to, split, whole) => {
    const holidays = holidaysOf('england_wales');
    expect(summary(price(shift(from, to), RULES, CARD, holidays).lines)).toEqual(split);
    const p = price(shift(from, to), byStart, CARD, holidays);
    expect(summary(p.lines)).toEqual(whole);
    expect([p.lines[0].start, p.lines[0].end]).toEqual([at(from), at(to)]);
  });
});

describe('nights across a daylight-saving change (Europe/London)', () => {
  it.each([
    [
      'spring forward: 28–29 March 2026 is 11 hours',
      '2026-03-28 20:00',
      '2026-03-29 08:00',
      11,
      ['saturday 4', 'sunday 7'],
    ],
    [
      'fall back: 24–25 October 2026 is 13 hours',
      '2026-10-24 20:00',
      '2026-10-25 08:00',
      13,
      ['saturday 4', 'sunday 9'],
    ],
  ])('%s', (_, from, to, hours, lines) => {
    const p = price(shift(from, to), RULES, CARD, NO_HOLIDAYS);
    expect(p.totals.hours).toBe(hours);
    expect(summary(p.lines)).toEqual(lines);
    expect(price(shift(from, to), { ...RULES, splitAtBoundaries: false }, CARD, NO_HOLIDAYS).totals.hours).toBe(hours);
  });

  it('takes instants with an offset as well as in UTC', () => {
    const p = price(
      { start: '2026-10-24T20:00+01:00', end: '2026-10-25T08:00:00.000+00:00' },
      RULES,
      CARD,
      NO_HOLIDAYS,
    );
    expect([p.lines[0].start, p.totals.hours]).toEqual(['2026-10-24T19:00:00.000Z', 13]);
  });

  it('uses the start and end instants as given', () => {
    expect([at('2026-03-28 20:00'), at('2026-03-29 08:00')]).toEqual([
      '2026-03-28T20:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
    ]);
    expect([at('2026-10-24 20:00'), at('2026-10-25 08:00')]).toEqual([
      '2026-10-24T19:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
    ]);
  });

  it('a weekday night across a change is 11 hours when the weekend is elsewhere', () => {
    const sundayOnly: PricingRules = {
      ...RULES,
      weekendStart: { weekday: 3, time: '00:00' },
      weekendEnd: { weekday: 3, time: '00:00' },
    };
    const p = price(shift('2026-03-28 20:00', '2026-03-29 08:00'), sundayOnly, CARD, NO_HOLIDAYS);
    expect(summary(p.lines)).toEqual(['weekday_night 11']);
    expect(p.totals.pay).toBe(11 * 1400);
  });

  it('cuts a line at a change early in a UTC day: 00:59–01:01 UTC on 31 March 2030, a weekend from Sunday 01:00', () => {
    // Wall clock 00:59 GMT is before the weekend, 02:00 BST after it: one minute each side of the change.
    const fromSundayOne: PricingRules = {
      ...RULES,
      nightStart: '22:00',
      nightEnd: '00:30',
      weekendStart: { weekday: 0, time: '01:00' },
    };
    const p = price(
      { start: '2030-03-31T00:59:00.000Z', end: '2030-03-31T01:01:00.000Z' },
      fromSundayOne,
      CARD,
      NO_HOLIDAYS,
    );
    expect(p.lines.map((l) => [l.band, l.start, l.end])).toEqual([
      ['weekday_day', '2030-03-31T00:59:00.000Z', '2030-03-31T01:00:00.000Z'],
      [
        bandAt('2030-03-31T01:00:00.000Z', fromSundayOne, NO_HOLIDAYS),
        '2030-03-31T01:00:00.000Z',
        '2030-03-31T01:01:00.000Z',
      ],
    ]);
    expect(p.lines[1].band).not.toBe('weekday_day');
  });
});

describe('a night from 31 December into 1 January', () => {
  it.each(['england_wales', 'scotland', 'northern_ireland'] as const)(
    'in %s, New Year’s Day splits the night at midnight',
    (region) => {
      const p = price(shift('2026-12-31 20:00', '2027-01-01 08:00'), RULES, CARD, holidaysOf(region));
      expect(summary(p.lines)).toEqual(['weekday_night 4', 'bank_holiday 8']);
      expect(p.lines.map((l) => [l.start, l.end])).toEqual([
        ['2026-12-31T20:00:00.000Z', '2027-01-01T00:00:00.000Z'],
        ['2027-01-01T00:00:00.000Z', '2027-01-01T08:00:00.000Z'],
      ]);
      expect(p.totals).toEqual({
        hours: 12,
        pay: 4 * 1400 + 8 * 2000,
        charge: 4 * 2200 + 8 * 3000,
        margin: 4 * 800 + 8 * 1000,
      });
    },
  );
});

describe('regional bank holidays', () => {
  it.each([
    [
      'St Andrew’s Day, Monday 30 November 2026',
      '2026-11-30',
      { england_wales: 'weekday_day', scotland: 'bank_holiday', northern_ireland: 'weekday_day' },
    ],
    [
      'the Boyne substitute, Monday 13 July 2026',
      '2026-07-13',
      { england_wales: 'weekday_day', scotland: 'weekday_day', northern_ireland: 'bank_holiday' },
    ],
    [
      '12 July 2026 is a Sunday, and stays one',
      '2026-07-12',
      { england_wales: 'sunday', scotland: 'sunday', northern_ireland: 'sunday' },
    ],
    [
      'Boxing Day substitute, Monday 28 December 2026',
      '2026-12-28',
      { england_wales: 'bank_holiday', scotland: 'bank_holiday', northern_ireland: 'bank_holiday' },
    ],
    [
      'Boxing Day 2026 is a Saturday, and stays one',
      '2026-12-26',
      { england_wales: 'saturday', scotland: 'saturday', northern_ireland: 'saturday' },
    ],
    [
      '2 January 2026, Scotland only',
      '2026-01-02',
      { england_wales: 'weekday_day', scotland: 'bank_holiday', northern_ireland: 'weekday_day' },
    ],
    [
      'St Patrick’s Day 2026, Northern Ireland only',
      '2026-03-17',
      { england_wales: 'weekday_day', scotland: 'weekday_day', northern_ireland: 'bank_holiday' },
    ],
    [
      'Scotland’s January 2nd 2027 falls on a Saturday: Monday 4th stands in',
      '2027-01-04',
      { england_wales: 'weekday_day', scotland: 'bank_holiday', northern_ireland: 'weekday_day' },
    ],
  ])('%s', (_, date, expected) => {
    for (const region of ['england_wales', 'scotland', 'northern_ireland'] as const) {
      const p = price(shift(`${date} 09:00`, `${date} 17:00`), RULES, CARD, holidaysOf(region));
      expect(`${region}: ${p.lines.map((l) => l.band).join()}`).toBe(`${region}: ${expected[region]}`);
    }
  });

  it('an agency-added day prices as a bank holiday, a removed one as its weekday', () => {
    const added = holidaySet('england_wales', '2026-01-01', '2026-12-31', [
      { date: '2026-06-15', region: 'england_wales', kind: 'add', name: 'Founders’ day' },
    ]);
    expect(price(shift('2026-06-15 09:00', '2026-06-15 17:00'), RULES, CARD, added).lines[0].band).toBe('bank_holiday');
    const removed = holidaySet('england_wales', '2026-01-01', '2026-12-31', [
      { date: '2026-05-04', region: 'england_wales', kind: 'remove' },
    ]);
    expect(price(shift('2026-05-04 09:00', '2026-05-04 17:00'), RULES, CARD, removed).lines[0].band).toBe(
      'weekday_day',
    );
  });
});

describe('unpaid breaks', () => {
  const withBreaks: PricingRules = {
    ...RULES,
    breakRules: [
      { minHours: 4, breakMinutes: 15 },
      { minHours: 6, breakMinutes: 30 },
      { minHours: 10, breakMinutes: 60 },
    ],
  };
  it.each([
    ['under every rule: none', '09:00', '12:00', undefined, 3],
    ['reaching 4 hours: 15 minutes', '09:00', '13:00', undefined, 3.75],
    ['reaching 6 hours exactly: 30 minutes', '09:00', '15:00', undefined, 5.5],
    ['8 hours: still 30 minutes', '09:00', '17:00', undefined, 7.5],
    ['12 hours: the largest rule reached, 60 minutes', '08:00', '20:00', undefined, 11],
    ['the shift’s own break wins', '09:00', '17:00', 45, 7.25],
    ['an own break of 0 means none', '09:00', '17:00', 0, 8],
    ['a break longer than the shift leaves nothing to pay', '09:00', '09:20', 30, 0],
  ])('%s', (_, from, to, breakMinutes, hours) => {
    const p = price(shift(`2026-01-07 ${from}`, `2026-01-07 ${to}`, { breakMinutes }), withBreaks, CARD, NO_HOLIDAYS);
    expect(p.totals.hours).toBe(hours);
    expect(p.totals.pay).toBe(amount(Math.round(hours * 60), 1300));
  });

  it('is shared between split lines in proportion to their length, to the minute, conserving the total', () => {
    // 6 h of day and 2 h of night, 30 minutes off: 22.5 and 7.5 minutes → 23 and 7; paid 337 and 113 minutes.
    const p = price(shift('2026-01-07 14:00', '2026-01-07 22:00', { breakMinutes: 30 }), RULES, CARD, NO_HOLIDAYS);
    expect(p.lines.map((l) => [l.band, l.hours, l.minutes, l.pay])).toEqual([
      ['weekday_day', 5.62, 337, amount(337, 1300)],
      ['weekday_night', 1.88, 113, amount(113, 1400)],
    ]);
    expect(p.totals.hours).toBe(7.5);
  });

  it('breakMinutesFor picks the rule with the largest minHours reached', () => {
    expect(breakMinutesFor({}, withBreaks, 9.99)).toBe(30);
    expect(breakMinutesFor({ breakMinutes: null }, withBreaks, 10)).toBe(60);
    expect(breakMinutesFor({}, { breakRules: [] }, 12)).toBe(0);
  });

  it('the default rules take 30 minutes from a long day', () => {
    expect(
      price(shift('2026-01-07 08:00', '2026-01-07 20:00'), { ...DEFAULT_RULES, timeZone: LONDON }, CARD, NO_HOLIDAYS)
        .totals.hours,
    ).toBe(11.5);
  });
});

describe('minimum charged hours', () => {
  const minimum4: PricingRules = { ...RULES, minimumChargeHours: 4 };
  it('a shorter shift is charged up to the minimum on a top-up line, and paid for the hours worked', () => {
    const p = price(shift('2026-01-10 09:00', '2026-01-10 11:30'), minimum4, CARD, NO_HOLIDAYS);
    expect(p.lines).toEqual([
      {
        band: 'saturday',
        start: at('2026-01-10 09:00'),
        end: at('2026-01-10 11:30'),
        hours: 2.5,
        minutes: 150,
        pay_rate: 1500,
        charge_rate: 2400,
        pay: 3750,
        charge: 6000,
      },
      {
        band: 'saturday',
        start: at('2026-01-10 11:30'),
        end: at('2026-01-10 11:30'),
        hours: 0,
        minutes: 0,
        pay_rate: 1500,
        charge_rate: 2400,
        pay: 0,
        charge: 3600,
        minimum_charge_hours: 1.5,
      },
    ]);
    expect(p.totals).toEqual({ hours: 2.5, pay: 3750, charge: 9600, margin: 5850 });
  });

  it.each([
    ['exactly the minimum', '09:00', '13:00'],
    ['longer than the minimum', '09:00', '17:00'],
  ])('%s: no top-up', (_, from, to) => {
    expect(price(shift(`2026-01-07 ${from}`, `2026-01-07 ${to}`), minimum4, CARD, NO_HOLIDAYS).lines).toHaveLength(1);
  });

  it('counts paid hours, after the break', () => {
    const p = price(shift('2026-01-07 09:00', '2026-01-07 13:00', { breakMinutes: 30 }), minimum4, CARD, NO_HOLIDAYS);
    expect(p.lines[1]).toMatchObject({ minimum_charge_hours: 0.5, charge: 1000, pay: 0 });
  });
});

describe('sleep-ins (flat rate)', () => {
  it('one flat line, whatever the bands, with no break and no minimum', () => {
    const p = price(
      shift('2026-01-10 22:00', '2026-01-11 07:00', { flat: { pay: 6000, charge: 9000 } }),
      { ...RULES, breakRules: [{ minHours: 6, breakMinutes: 30 }], minimumChargeHours: 12 },
      CARD,
      NO_HOLIDAYS,
    );
    expect(p).toEqual({
      lines: [
        {
          band: 'flat',
          start: at('2026-01-10 22:00'),
          end: at('2026-01-11 07:00'),
          hours: 9,
          minutes: 540,
          pay_rate: 6000,
          charge_rate: 9000,
          pay: 6000,
          charge: 9000,
        },
      ],
      totals: { hours: 9, pay: 6000, charge: 9000, margin: 3000 },
    });
  });
});

describe('late cancellation', () => {
  // A Saturday shift from 08:00 on 10 January 2026; the default rule charges 4 hours within 24 hours.
  const saturday = shift('2026-01-10 08:00', '2026-01-10 20:00');
  const rules: PricingRules = { ...DEFAULT_RULES, timeZone: LONDON };
  it.each([
    ['two days ahead: nothing', '2026-01-08 08:00', null],
    ['exactly 24 hours ahead: nothing', '2026-01-09 08:00', null],
    [
      '23 hours 59 minutes ahead: 4 hours at the Saturday charge rate',
      '2026-01-09 08:01',
      { hours: 4, charge: 4 * 2400, payHours: 0, pay: 0 },
    ],
    ['after the start: charged too', '2026-01-10 09:00', { hours: 4, charge: 4 * 2400, payHours: 0, pay: 0 }],
  ])('%s', (_, cancelledAt, expected) => {
    expect(lateCancellationCharge(saturday, rules, CARD, NO_HOLIDAYS, at(cancelledAt))).toEqual(expected);
  });

  it('uses the band the shift starts in (a bank holiday here)', () => {
    expect(
      lateCancellationCharge(
        shift('2026-05-04 08:00', '2026-05-04 20:00'),
        rules,
        CARD,
        holidaysOf('england_wales'),
        at('2026-05-04 07:00'),
      ),
    ).toEqual({ hours: 4, charge: 4 * 3000, payHours: 0, pay: 0 });
  });

  it('pays the worker the rule’s hours at the pay rate of that band, when the rule pays them (issue 33)', () => {
    const paying = { ...rules, lateCancellation: { withinHours: 24, chargeHours: 4, payHours: 3 } };
    // Saturday: 4 h charged at £24.00, 3 h paid at £15.00; 2.5 h paid at £15.00 = £37.50.
    expect(lateCancellationCharge(saturday, paying, CARD, NO_HOLIDAYS, at('2026-01-10 07:00'))).toEqual({
      hours: 4,
      charge: 4 * 2400,
      payHours: 3,
      pay: 3 * 1500,
    });
    const half = { ...rules, lateCancellation: { withinHours: 24, chargeHours: 4, payHours: 2.5 } };
    expect(lateCancellationCharge(saturday, half, CARD, NO_HOLIDAYS, at('2026-01-10 07:00'))?.pay).toBe(3_750);
  });

  it('no rule, no charge', () => {
    expect(
      lateCancellationCharge(saturday, { ...rules, lateCancellation: null }, CARD, NO_HOLIDAYS, at('2026-01-10 07:00')),
    ).toBeNull();
  });
});

describe('bad input', () => {
  it.each([
    ['a shift that ends when it starts', shift('2026-01-07 09:00', '2026-01-07 09:00'), RULES],
    ['a shift that ends before it starts', shift('2026-01-07 09:00', '2026-01-07 08:00'), RULES],
    ['a start that is not an instant', { start: 'tomorrow', end: at('2026-01-07 09:00') }, RULES],
    [
      'an instant without its offset (it would be read in the machine’s zone)',
      { start: '2026-01-07T09:00', end: at('2026-01-07 17:00') },
      RULES,
    ],
    ['an unknown time zone', shift('2026-01-07 09:00', '2026-01-07 17:00'), { ...RULES, timeZone: 'Mars/Olympus' }],
    [
      'a night start that is not a time',
      shift('2026-01-07 09:00', '2026-01-07 17:00'),
      { ...RULES, nightStart: '8pm' },
    ],
  ])('%s is refused', (_, s, rules) => {
    expect(() => price(s, rules, CARD, NO_HOLIDAYS)).toThrow(RangeError);
  });
});

describe('properties', () => {
  const ZONES = ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const weekPoint = fc.record({ weekday: fc.integer({ min: 0, max: 6 }), time });
  const rules = fc.record({
    timeZone: fc.constantFrom(...ZONES),
    nightStart: time,
    nightEnd: time,
    weekendStart: weekPoint,
    weekendEnd: weekPoint,
    splitAtBoundaries: fc.boolean(),
    breakRules: fc.array(
      fc.record({ minHours: fc.integer({ min: 0, max: 14 }), breakMinutes: fc.integer({ min: 0, max: 90 }) }),
      { maxLength: 3 },
    ),
    minimumChargeHours: fc.constantFrom(0, 0, 3, 4.5),
    lateCancellation: fc.constant(null),
  });
  const rates = fc.record({
    weekday_day: fc.integer({ min: 0, max: 10_000 }),
    weekday_night: fc.integer({ min: 0, max: 10_000 }),
    saturday: fc.integer({ min: 0, max: 10_000 }),
    sunday: fc.integer({ min: 0, max: 10_000 }),
    bank_holiday: fc.integer({ min: 0, max: 10_000 }),
  });
  const card = fc.record({ pay: rates, charge: rates });
  const shiftArb = fc
    .tuple(
      wholeMinuteInstant('2020-01-01', '2030-12-31'),
      fc.integer({ min: 1, max: 36 * 60 }),
      fc.option(fc.integer({ min: 0, max: 120 })),
    )
    .map(([start, minutes, breakMinutes]) => ({
      start: start.toISOString(),
      end: new Date(start.getTime() + minutes * 60_000).toISOString(),
      breakMinutes: breakMinutes ?? undefined,
    }));
  const holidays = fc
    .constantFrom(...(['england_wales', 'scotland', 'northern_ireland'] as const))
    .map((r) => holidaySet(r, '2019-12-01', '2031-01-31', []));
  const cents = (x: number) => Math.round(x * 100);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

  test.prop([shiftArb, rules, card, holidays])(
    'pay, charge and hours are the sums of the lines; margin is charge − pay',
    (s, r, c, h) => {
      const p = price(s, r, c, h);
      expect(p.totals.pay).toBe(sum(p.lines.map((l) => l.pay)));
      expect(p.totals.charge).toBe(sum(p.lines.map((l) => l.charge)));
      expect(cents(p.totals.hours)).toBe(sum(p.lines.map((l) => cents(l.hours))));
      expect(p.totals.margin).toBe(p.totals.charge - p.totals.pay);
      for (const l of p.lines) {
        expect(Number.isInteger(l.pay) && Number.isInteger(l.charge)).toBe(true);
      }
    },
  );

  // Issue 14 item 5: every line is its paid minutes × rate, rounded once, for every band and break split.
  test.prop([shiftArb, rules, card, holidays])(
    'every line is paid and charged its minutes × rate, rounded once to the penny',
    (s, r, c, h) => {
      const p = price(s, { ...r, minimumChargeHours: 0 }, c, h);
      const elapsed = (Date.parse(s.end) - Date.parse(s.start)) / 60_000;
      const breakMinutes = Math.min(elapsed, breakMinutesFor(s, r, elapsed / 60));
      expect(sum(p.lines.map((l) => l.minutes))).toBe(elapsed - breakMinutes);
      for (const l of p.lines)
        expect([l.pay, l.charge]).toEqual([amount(l.minutes, l.pay_rate), amount(l.minutes, l.charge_rate)]);
    },
  );

  it('3 h 50 min at £30 is £115.00, and 11.5 h of day and night at £13.50 is £155.25', () => {
    const flatCard = (rate: number): RateCard => ({
      pay: { ...CARD.pay, weekday_day: rate, weekday_night: rate },
      charge: { ...CARD.charge, weekday_day: rate, weekday_night: rate },
    });
    expect(price(shift('2026-01-07 09:00', '2026-01-07 12:50'), RULES, flatCard(3000), NO_HOLIDAYS).totals.charge).toBe(
      11500,
    );
    // 16:10–03:40: 230 min of day and 460 of night, rounded as hours 3.83 and 7.67 used to give £155.26.
    expect(price(shift('2026-01-07 16:10', '2026-01-08 03:40'), RULES, flatCard(1350), NO_HOLIDAYS).totals.pay).toBe(
      15525,
    );
  });

  test.prop([shiftArb, rules, card, holidays])(
    'paid hours are the elapsed time less the break, across any clock change',
    (s, r, c, h) => {
      const elapsedMinutes = (Date.parse(s.end) - Date.parse(s.start)) / 60_000;
      const breakMinutes = Math.min(elapsedMinutes, breakMinutesFor(s, r, elapsedMinutes / 60));
      expect(price(s, r, c, h).totals.hours).toBe(Math.round(((elapsedMinutes - breakMinutes) * 100) / 60) / 100);
    },
  );

  test.prop([shiftArb, rules, card, holidays])(
    'splitting never changes the hours; the lines cover the shift end to end',
    (s, r, c, h) => {
      const split = price(s, { ...r, splitAtBoundaries: true }, c, h);
      const whole = price(s, { ...r, splitAtBoundaries: false }, c, h);
      expect(split.totals.hours).toBe(whole.totals.hours);
      const worked = split.lines.filter((l) => l.minimum_charge_hours === undefined);
      expect(worked[0].start).toBe(s.start);
      expect(worked[worked.length - 1].end).toBe(s.end);
      for (let i = 1; i < worked.length; i++) {
        expect(worked[i].start).toBe(worked[i - 1].end);
        expect(worked[i].band).not.toBe(worked[i - 1].band);
      }
    },
  );

  test.prop([shiftArb, rules, card, holidays])(
    'a split line’s band is in force from its start to its last moment',
    (s, r, c, h) => {
      for (const l of price(s, { ...r, splitAtBoundaries: true }, c, h).lines) {
        if (l.minimum_charge_hours !== undefined) continue;
        const lastMoment = new Date(Date.parse(l.end) - 1).toISOString();
        expect([bandAt(l.start, r, h), bandAt(lastMoment, r, h)]).toEqual([l.band, l.band]);
      }
    },
  );

  const nearChange = fc
    .tuple(
      fc.constantFrom('Europe/London', 'America/New_York', 'Australia/Lord_Howe'),
      fc.integer({ min: 2020, max: 2030 }),
      fc.boolean(),
    )
    .chain(([tz, year, second]) => {
      const change = tzScan(tz, { start: new Date(Date.UTC(year, 0, 1)), end: new Date(Date.UTC(year + 1, 0, 1)) })[
        second ? 1 : 0
      ].date.getTime();
      return fc.record({
        tz: fc.constant(tz),
        start: fc.integer({ min: -18 * 60, max: 0 }).map((m) => new Date(change + m * 60_000).toISOString()),
        minutes: fc.integer({ min: 1, max: 24 * 60 }),
      });
    });
  test.prop([nearChange, rules, card])(
    'near a clock change too, lines hold one band each and the hours are elapsed time',
    ({ tz, start, minutes }, r, c) => {
      const s = { start, end: new Date(Date.parse(start) + minutes * 60_000).toISOString(), breakMinutes: 0 };
      const rulesHere = { ...r, timeZone: tz, splitAtBoundaries: true, minimumChargeHours: 0 };
      const p = price(s, rulesHere, c, new Set());
      expect(p.totals.hours).toBe(Math.round((minutes * 100) / 60) / 100);
      for (const l of p.lines) {
        const lastMoment = new Date(Date.parse(l.end) - 1).toISOString();
        expect([bandAt(l.start, rulesHere, new Set()), bandAt(lastMoment, rulesHere, new Set())]).toEqual([
          l.band,
          l.band,
        ]);
      }
    },
  );
});

describe('cancellationTerms: who may cancel when, and whether the client is charged', () => {
  // A day shift 08:00–16:00 UTC on 10 November 2026.
  const shift = { start: '2026-11-10T08:00:00.000Z', end: '2026-11-10T16:00:00.000Z' };
  const before = '2026-11-09T12:00:00.000Z';
  const during = '2026-11-10T09:00:00.000Z';
  const after = '2026-11-11T10:00:00.000Z';
  it.each<[string, CancelParty, boolean, boolean, string, ReturnType<typeof cancellationTerms>]>([
    ['the client, ahead, booked: chargeable', 'client', true, false, before, { allowed: true, chargeable: true }],
    ['the agency, ahead: never charged', 'agency', true, false, before, { allowed: true, chargeable: false }],
    ['the staff member, during: never charged', 'worker', true, false, during, { allowed: true, chargeable: false }],
    [
      'a client user during it',
      'client',
      true,
      true,
      during,
      { allowed: false, reason: expect.stringMatching(/already started/) },
    ],
    [
      'anyone after it ended',
      'worker',
      true,
      false,
      after,
      { allowed: false, reason: expect.stringMatching(/has ended/) },
    ],
    // A no-show: a booked shift, once it has started, even after it ended; never charged.
    ['a no-show during it', 'no_show', true, false, during, { allowed: true, chargeable: false }],
    ['a no-show the next day', 'no_show', true, false, after, { allowed: true, chargeable: false }],
    [
      'a no-show before it starts',
      'no_show',
      true,
      false,
      before,
      { allowed: false, reason: expect.stringMatching(/not started yet/) },
    ],
    [
      'a no-show of an unfilled shift',
      'no_show',
      false,
      false,
      during,
      { allowed: false, reason: expect.stringMatching(/Nobody is booked/) },
    ],
  ])('%s', (_, requestedBy, booked, byClientUser, at, expected) => {
    expect(cancellationTerms({ ...shift, at, booked, requestedBy, byClientUser })).toEqual(expected);
  });
});
