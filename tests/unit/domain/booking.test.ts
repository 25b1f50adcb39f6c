// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  assessBooking,
  availabilityFit,
  awrWeeks,
  awrQualifyingDate,
  averageWeeklyHours,
  AWR_MAX_BREAK_WEEKS,
  AWR_QUALIFYING_WEEKS,
  durationHours,
  formatHours,
  hoursInWeek,
  isNightShift,
  localDates,
  neighbours,
  overlaps,
  rankSuggestions,
  REFERENCE_WEEKS,
  REST_HOURS,
  restBetween,
  WEEKLY_LIMIT_HOURS,
  weekOf,
  type BookedShift,
  type BookingFacts,
  type CheckCode,
  type Interval,
  type SuggestionCandidate,
} from '../../../core/domain/booking/checks';
import type { ComplianceCategory, ComplianceDocument } from '../../../core/domain/compliance/compliance';
import { dayToDate, localDateTime, localDay } from '../../../core/domain/time/zoneClock';
import {
  addDaysToDate,
  instantToZoned,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../../core/domain/time/agencyTime';
import { wholeMinuteInstant } from './arbitraries';
import { ageOn, DEFAULT_WAGE_FLOORS } from '../../../core/domain/pricing/oncosts';
import { blockingChecks, overridableChecks, type WageFacts } from '../../../core/domain/booking/checks';

const TZ = 'Europe/London';
const MEADOWBANK = 1;
const OTHER_CLIENT = 2;
const MAIN_HOUSE = 11;
const GARDEN_WING = 12;
const CARER = 2;
const NURSE = 1;

/** The instant the agency's clock shows `time` on `date`, as the API sends it. */
const at = (date: string, time: string) => zonedDateTimeToInstant(date, time, TZ).toISOString();
/** A shift from `date` `from` to `to`, ending the next day when `to` is not later than `from`. */
const span = (date: string, from: string, to: string): Interval => ({
  start: at(date, from),
  end: at(to > from ? date : addDaysToDate(date, 1), to),
});
let nextShiftId = 100;
const booked = (date: string, from: string, to: string, extra: Partial<BookedShift> = {}): BookedShift => ({
  id: nextShiftId++,
  client_id: MEADOWBANK,
  job_role_id: CARER,
  ...span(date, from, to),
  ...extra,
});

const DBS: ComplianceCategory = { id: 10, name: 'DBS certificate', mandatory: true, job_role_ids: [] };
const RTW: ComplianceCategory = { id: 11, name: 'Right to work', mandatory: true, job_role_ids: [] };
const MANUAL: ComplianceCategory = {
  id: 12,
  name: 'Manual handling training',
  mandatory: false,
  job_role_ids: [CARER],
};
const NMC: ComplianceCategory = { id: 13, name: 'NMC PIN', mandatory: false, job_role_ids: [NURSE] };
let nextDocId = 1;
const doc = (
  category: ComplianceCategory,
  status: ComplianceDocument['status'],
  expiry_date: string | null,
): ComplianceDocument => ({
  id: nextDocId++,
  document_category_id: category.id,
  status,
  expiry_date,
  superseded: false,
});
const GOOD_DOCUMENTS = [
  doc(DBS, 'verified', '2027-01-01'),
  doc(RTW, 'verified', null),
  doc(MANUAL, 'verified', '2027-01-01'),
];

// Saturday 14 March 2026, a day shift at Meadowbank's main house.
const SHIFT_DATE = '2026-03-14';

function facts(
  overrides: Partial<BookingFacts> = {},
  shift: Interval = span(SHIFT_DATE, '08:00', '20:00'),
): BookingFacts {
  return {
    timeZone: TZ,
    shift: {
      id: 1,
      client_id: MEADOWBANK,
      site_id: MAIN_HOUSE,
      job_role_id: CARER,
      clientName: 'Meadowbank Care Home',
      siteName: 'Main House',
      jobRoleName: 'Care Assistant',
      ...shift,
    },
    candidate: {
      id: 7,
      name: 'Priya Shah',
      status: 'approved',
      activated: true,
      job_role_id: CARER,
      jobRoleName: 'Care Assistant',
    },
    compliance: { categories: [DBS, RTW, MANUAL, NMC], documents: GOOD_DOCUMENTS },
    restrictions: [],
    otherShifts: [],
    availability: [],
    preferences: null,
    awrShifts: [],
    ...overrides,
  };
}

const codes = (results: { code: CheckCode }[]) => results.map((r) => r.code);

describe('assessBooking: a clean booking', () => {
  it('passes every check and shows the AWR count', () => {
    const a = assessBooking(facts());
    expect(a.hard).toEqual([]);
    expect(a.soft).toEqual([]);
    expect(a.info).toEqual([
      {
        code: 'awr',
        severity: 'info',
        message: 'Agency Workers Regulations: week 1 of 12 at Meadowbank Care Home as Care Assistant.',
      },
    ]);
    expect(a.awr).toEqual({ weeks: 1, qualified: false, paused: false, resetOn: null });
  });
});

describe('assessBooking: hard checks', () => {
  const nightIntoExpiry = span('2026-03-14', '20:00', '08:00');
  const cases: { name: string; facts: BookingFacts; code: CheckCode | null; message?: string }[] = [
    {
      name: 'pending staff',
      facts: facts({ candidate: { ...facts().candidate, status: 'pending', activated: false } }),
      code: 'not_approved_active',
      message: 'Priya Shah is not approved and active: their status is pending and they are not activated.',
    },
    {
      name: 'approved but not activated',
      facts: facts({ candidate: { ...facts().candidate, activated: false } }),
      code: 'not_approved_active',
      message: 'Priya Shah is not approved and active: they are not activated.',
    },
    {
      name: 'another job role',
      facts: facts({ candidate: { ...facts().candidate, job_role_id: NURSE, jobRoleName: 'Nurse' } }),
      code: 'job_role_mismatch',
      message: 'Priya Shah is a Nurse, not a Care Assistant.',
    },
    {
      name: 'no job role',
      facts: facts({ candidate: { ...facts().candidate, job_role_id: null, jobRoleName: null } }),
      code: 'job_role_mismatch',
      message: 'Priya Shah has no job role; this shift needs a Care Assistant.',
    },
    {
      name: 'a mandatory document missing',
      facts: facts({
        compliance: { categories: [DBS, RTW, MANUAL], documents: [GOOD_DOCUMENTS[0], GOOD_DOCUMENTS[2]] },
      }),
      code: 'document_missing',
      message: 'Priya Shah is missing a mandatory document for Care Assistant: Right to work.',
    },
    {
      name: 'a role document missing, and only rejected ones count as missing',
      facts: facts({
        compliance: { categories: [DBS, RTW, MANUAL], documents: [GOOD_DOCUMENTS[0], doc(RTW, 'rejected', null)] },
      }),
      code: 'document_missing',
      message:
        'Priya Shah is missing mandatory documents for Care Assistant: Right to work and Manual handling training.',
    },
    {
      name: 'a document awaiting verification',
      facts: facts({
        compliance: {
          categories: [DBS, RTW, MANUAL],
          documents: [doc(DBS, 'awaiting', '2027-01-01'), ...GOOD_DOCUMENTS.slice(1)],
        },
      }),
      code: 'document_unverified',
      message: "Priya Shah's DBS certificate is not verified yet.",
    },
    {
      name: 'a document expired before the shift',
      facts: facts({
        compliance: {
          categories: [DBS, RTW, MANUAL],
          documents: [doc(DBS, 'verified', '2026-03-13'), ...GOOD_DOCUMENTS.slice(1)],
        },
      }),
      code: 'document_expired',
      message: "Priya Shah's DBS certificate (valid until 13 Mar 2026) will have expired by 14 Mar 2026.",
    },
    {
      name: 'a document already expired today, booked ahead',
      facts: facts({
        today: '2026-03-01',
        compliance: {
          categories: [DBS, RTW, MANUAL],
          documents: [doc(DBS, 'verified', '2026-02-20'), ...GOOD_DOCUMENTS.slice(1)],
        },
      }),
      code: 'document_expired',
      message: "Priya Shah's DBS certificate expired on 20 Feb 2026.",
    },
    {
      name: 'one document already expired and another expiring before the shift',
      facts: facts({
        today: '2026-03-01',
        compliance: {
          categories: [DBS, RTW, MANUAL],
          documents: [doc(DBS, 'verified', '2026-02-20'), GOOD_DOCUMENTS[1], doc(MANUAL, 'verified', '2026-03-10')],
        },
      }),
      code: 'document_expired',
      message:
        "Priya Shah's DBS certificate expired on 20 Feb 2026; their Manual handling training (valid until 10 Mar 2026) will have expired by 14 Mar 2026.",
    },
    {
      name: 'an early renewal awaiting its check keeps the verified document counting (issue 30.2)',
      facts: facts({
        compliance: {
          categories: [DBS, RTW, MANUAL],
          documents: [
            doc(DBS, 'verified', '2027-03-21'),
            doc(DBS, 'awaiting', '2030-03-01'),
            ...GOOD_DOCUMENTS.slice(1),
          ],
        },
      }),
      code: null,
    },
    {
      name: 'the verified document expired, its renewal awaiting its check',
      facts: facts({
        today: '2026-03-01',
        compliance: {
          categories: [DBS, RTW, MANUAL],
          documents: [
            doc(DBS, 'verified', '2026-02-20'),
            doc(DBS, 'awaiting', '2029-02-01'),
            ...GOOD_DOCUMENTS.slice(1),
          ],
        },
      }),
      code: 'document_expired',
      message:
        "Priya Shah's DBS certificate expired on 20 Feb 2026. The renewal of DBS certificate is not verified yet.",
    },
    {
      name: 'a document good through the shift date',
      facts: facts({
        compliance: {
          categories: [DBS, RTW, MANUAL],
          documents: [doc(DBS, 'verified', SHIFT_DATE), ...GOOD_DOCUMENTS.slice(1)],
        },
      }),
      code: null,
    },
    {
      name: 'a night running past the expiry day into the morning',
      facts: facts(
        {
          compliance: {
            categories: [DBS, RTW, MANUAL],
            documents: [doc(DBS, 'verified', SHIFT_DATE), ...GOOD_DOCUMENTS.slice(1)],
          },
        },
        nightIntoExpiry,
      ),
      code: 'document_expired',
    },
    {
      name: "another role's document is not required",
      facts: facts({ compliance: { categories: [DBS, RTW, MANUAL, NMC], documents: GOOD_DOCUMENTS } }),
      code: null,
    },
    {
      name: 'restricted at the client',
      facts: facts({ restrictions: [{ client_id: MEADOWBANK, site_id: null, reason: 'Left a shift early' }] }),
      code: 'restricted_client',
      message: 'Priya Shah is restricted at Meadowbank Care Home: Left a shift early.',
    },
    {
      name: 'restricted at the site',
      facts: facts({
        restrictions: [{ client_id: MEADOWBANK, site_id: MAIN_HOUSE, reason: 'Complaint from the manager.' }],
      }),
      code: 'restricted_site',
      message: 'Priya Shah is restricted at Main House (Meadowbank Care Home): Complaint from the manager.',
    },
    {
      name: 'restricted at another site of the client',
      facts: facts({ restrictions: [{ client_id: MEADOWBANK, site_id: GARDEN_WING, reason: 'x' }] }),
      code: null,
    },
    {
      name: 'restricted at another client',
      facts: facts({ restrictions: [{ client_id: OTHER_CLIENT, site_id: null, reason: 'x' }] }),
      code: null,
    },
    {
      name: 'booked elsewhere at the same time',
      facts: facts({ otherShifts: [booked(SHIFT_DATE, '14:00', '22:00', { client_id: OTHER_CLIENT })] }),
      code: 'overlap',
      message: 'Priya Shah is already booked 14 Mar 2026 14:00–22:00, which overlaps this shift.',
    },
    {
      name: 'a night before that runs into this shift',
      facts: facts({ otherShifts: [booked('2026-03-13', '20:00', '08:30')] }),
      code: 'overlap',
      message: 'Priya Shah is already booked 13 Mar 2026 20:00–08:30, which overlaps this shift.',
    },
    {
      name: 'this same shift among their shifts (re-assessing a booked shift)',
      facts: facts({
        otherShifts: [{ id: 1, client_id: MEADOWBANK, job_role_id: CARER, ...span(SHIFT_DATE, '08:00', '20:00') }],
      }),
      code: null,
    },
  ];

  it.each(cases)('$name', ({ facts: f, code, message }) => {
    const { hard } = assessBooking(f);
    if (code === null) {
      expect(hard).toEqual([]);
      return;
    }
    expect(codes(hard)).toEqual([code]);
    expect(hard[0].severity).toBe('hard');
    if (message) expect(hard[0].message).toBe(message);
  });

  it('names every failure, not just the first', () => {
    const a = assessBooking(
      facts({
        candidate: {
          ...facts().candidate,
          status: 'rejected',
          activated: false,
          job_role_id: NURSE,
          jobRoleName: 'Nurse',
        },
        compliance: { categories: [DBS, RTW, MANUAL], documents: [] },
        restrictions: [{ client_id: MEADOWBANK, site_id: null, reason: 'x' }],
        otherShifts: [booked(SHIFT_DATE, '07:00', '09:00'), booked(SHIFT_DATE, '19:00', '23:00')],
      }),
    );
    expect(codes(a.hard)).toEqual([
      'not_approved_active',
      'job_role_mismatch',
      'document_missing',
      'restricted_client',
      'overlap',
      'overlap',
    ]);
  });
});

describe('overlaps', () => {
  const cases: { name: string; a: Interval; b: Interval; expected: boolean }[] = [
    {
      name: 'same times',
      a: span(SHIFT_DATE, '08:00', '20:00'),
      b: span(SHIFT_DATE, '08:00', '20:00'),
      expected: true,
    },
    {
      name: 'one inside the other',
      a: span(SHIFT_DATE, '08:00', '20:00'),
      b: span(SHIFT_DATE, '10:00', '12:00'),
      expected: true,
    },
    { name: 'partly', a: span(SHIFT_DATE, '08:00', '16:00'), b: span(SHIFT_DATE, '15:59', '22:00'), expected: true },
    {
      name: '08:00 end and 08:00 start touch',
      a: span('2026-03-13', '20:00', '08:00'),
      b: span(SHIFT_DATE, '08:00', '20:00'),
      expected: false,
    },
    {
      name: '20:00 end and 20:00 start touch',
      a: span(SHIFT_DATE, '08:00', '20:00'),
      b: span(SHIFT_DATE, '20:00', '08:00'),
      expected: false,
    },
    {
      name: 'a night into an early',
      a: span(SHIFT_DATE, '20:00', '08:00'),
      b: span('2026-03-15', '07:00', '15:00'),
      expected: true,
    },
    {
      name: 'a night and a late the evening before',
      a: span(SHIFT_DATE, '20:00', '08:00'),
      b: span(SHIFT_DATE, '14:00', '20:30'),
      expected: true,
    },
    {
      name: 'two nights in a row',
      a: span(SHIFT_DATE, '20:00', '08:00'),
      b: span('2026-03-15', '20:00', '08:00'),
      expected: false,
    },
    { name: 'apart', a: span(SHIFT_DATE, '08:00', '12:00'), b: span(SHIFT_DATE, '13:00', '17:00'), expected: false },
    // 29 March 2026: clocks go forward at 01:00. A night is 11 hours; an early at 07:00 BST overlaps only if the
    // night ends after it.
    {
      name: 'a short night across the spring change',
      a: span('2026-03-28', '20:00', '08:00'),
      b: span('2026-03-29', '07:59', '15:00'),
      expected: true,
    },
    {
      name: 'touching across the spring change',
      a: span('2026-03-28', '20:00', '08:00'),
      b: span('2026-03-29', '08:00', '15:00'),
      expected: false,
    },
  ];
  it.each(cases)('$name', ({ a, b, expected }) => {
    expect(overlaps(a, b)).toBe(expected);
    expect(overlaps(b, a)).toBe(expected);
  });

  it('reads instants with any offset', () => {
    expect(
      overlaps(
        { start: '2026-06-01T08:00:00+01:00', end: '2026-06-01T20:00:00+01:00' },
        { start: '2026-06-01T19:00:00Z', end: '2026-06-01T20:00:00Z' },
      ),
    ).toBe(false);
    expect(
      overlaps(
        { start: '2026-06-01T08:00:00+01:00', end: '2026-06-01T20:00:00+01:00' },
        { start: '2026-06-01T18:59:00Z', end: '2026-06-01T20:00:00Z' },
      ),
    ).toBe(true);
  });

  it('refuses a value that is not an instant', () => {
    expect(() => overlaps({ start: 'soon', end: '2026-06-01T20:00:00Z' }, span(SHIFT_DATE, '08:00', '20:00'))).toThrow(
      RangeError,
    );
  });

  const interval = fc
    .tuple(wholeMinuteInstant('2020-01-01', '2030-12-31'), fc.integer({ min: 1, max: 24 * 60 }))
    .map(([start, minutes]) => ({
      start: start.toISOString(),
      end: new Date(start.getTime() + minutes * 60_000).toISOString(),
    }));

  test.prop([interval, interval])('is symmetric', (a, b) => {
    expect(overlaps(a, b)).toBe(overlaps(b, a));
  });

  test.prop([interval])('a shift overlaps itself but not itself moved by its own duration', (a) => {
    const length = Date.parse(a.end) - Date.parse(a.start);
    const later = { start: a.end, end: new Date(Date.parse(a.end) + length).toISOString() };
    const earlier = { start: new Date(Date.parse(a.start) - length).toISOString(), end: a.start };
    expect(overlaps(a, a)).toBe(true);
    expect(overlaps(a, later)).toBe(false);
    expect(overlaps(a, earlier)).toBe(false);
  });

  test.prop([interval, interval])('two shifts overlap exactly when neither rests before the other', (a, b) => {
    expect(overlaps(a, b)).toBe(restBetween(a, b) < 0 && restBetween(b, a) < 0);
  });
});

describe('assessBooking: rest between shifts', () => {
  const cases: { name: string; other: BookedShift; shift?: Interval; fails: boolean; message?: string }[] = [
    { name: 'exactly 11 hours after a late', other: booked('2026-03-13', '13:00', '21:00'), fails: false },
    {
      name: '10 h 59 after a late',
      other: booked('2026-03-13', '13:01', '21:01'),
      fails: true,
      message: 'Priya Shah would have only 10 hours 59 minutes rest after their previous shift (at least 11 hours).',
    },
    { name: 'exactly 11 hours before an early', other: booked('2026-03-15', '07:00', '15:00'), fails: false },
    {
      name: '10 h 59 before an early',
      other: booked('2026-03-15', '06:59', '15:00'),
      fails: true,
      message: 'Priya Shah would have only 10 hours 59 minutes rest before their next shift (at least 11 hours).',
    },
    {
      name: 'a night straight after a night',
      other: booked('2026-03-13', '20:00', '08:00'),
      shift: span(SHIFT_DATE, '20:00', '08:00'),
      fails: false,
    },
    { name: 'a day straight after a night', other: booked('2026-03-13', '20:00', '08:00'), fails: true },
    // Clocks go forward at 01:00 on 29 March: 21:00 GMT to 08:00 BST is 10 real hours.
    {
      name: 'across the spring change, the lost hour counts',
      other: booked('2026-03-28', '13:00', '21:00'),
      shift: span('2026-03-29', '08:00', '20:00'),
      fails: true,
    },
    // Clocks go back at 02:00 on 25 October: 22:00 BST to 08:00 GMT is 11 real hours.
    {
      name: 'across the autumn change, the extra hour counts',
      other: booked('2026-10-24', '14:00', '22:00'),
      shift: span('2026-10-25', '08:00', '20:00'),
      fails: false,
    },
  ];
  it.each(cases)('$name', ({ other, shift, fails, message }) => {
    const { soft, hard } = assessBooking(facts({ otherShifts: [other] }, shift));
    expect(hard).toEqual([]);
    expect(codes(soft)).toEqual(fails ? ['short_rest'] : []);
    if (message) expect(soft[0].message).toBe(message);
  });

  it('judges rest by the nearest shift on each side', () => {
    const prev = booked('2026-03-13', '13:00', '21:00');
    const earlier = booked('2026-03-12', '08:00', '10:00');
    const next = booked('2026-03-15', '07:00', '15:00');
    const shift = span(SHIFT_DATE, '08:00', '20:00');
    expect(neighbours(shift, [next, earlier, prev])).toEqual({ previous: prev, next });
    expect(restBetween(prev, shift)).toBe(REST_HOURS);
  });
});

describe('assessBooking: availability', () => {
  const night = span(SHIFT_DATE, '20:00', '08:00');
  const day = span(SHIFT_DATE, '08:00', '20:00');
  const cases: {
    name: string;
    availability: { date: string; status: string }[];
    shift: Interval;
    code: CheckCode | null;
    message?: string;
  }[] = [
    { name: 'not set', availability: [], shift: day, code: null },
    {
      name: 'available all day, for a night',
      availability: [{ date: SHIFT_DATE, status: 'available' }],
      shift: night,
      code: null,
    },
    {
      name: 'unavailable',
      availability: [{ date: SHIFT_DATE, status: 'unavailable' }],
      shift: day,
      code: 'unavailable',
      message: 'Priya Shah is unavailable on 14 Mar 2026.',
    },
    {
      name: 'unavailable on the morning a night ends',
      availability: [
        { date: SHIFT_DATE, status: 'night' },
        { date: '2026-03-15', status: 'unavailable' },
      ],
      shift: night,
      code: 'unavailable',
    },
    {
      name: 'unavailable the day after a day shift',
      availability: [{ date: '2026-03-15', status: 'unavailable' }],
      shift: day,
      code: null,
    },
    { name: 'day, for a day shift', availability: [{ date: SHIFT_DATE, status: 'day' }], shift: day, code: null },
    {
      name: 'day, for a night shift',
      availability: [{ date: SHIFT_DATE, status: 'day' }],
      shift: night,
      code: 'availability_mismatch',
      message: 'Priya Shah is available for day shifts only on 14 Mar 2026; this is a night shift.',
    },
    {
      name: 'night, for a night shift',
      availability: [{ date: SHIFT_DATE, status: 'night' }],
      shift: night,
      code: null,
    },
    {
      name: 'night, for a day shift',
      availability: [{ date: SHIFT_DATE, status: 'night' }],
      shift: day,
      code: 'availability_mismatch',
      message: 'Priya Shah is available for night shifts only on 14 Mar 2026; this is a day shift.',
    },
    {
      name: 'long day, for a long day',
      availability: [{ date: SHIFT_DATE, status: 'long_day' }],
      shift: span(SHIFT_DATE, '07:30', '20:00'),
      code: null,
    },
    {
      name: 'long day, for a night',
      availability: [{ date: SHIFT_DATE, status: 'long_day' }],
      shift: night,
      code: 'availability_mismatch',
    },
    {
      name: 'another date only',
      availability: [{ date: '2026-03-13', status: 'unavailable' }],
      shift: day,
      code: null,
    },
  ];
  it.each(cases)('$name', ({ availability, shift, code, message }) => {
    const { soft, hard } = assessBooking(facts({ availability }, shift));
    expect(hard).toEqual([]);
    expect(codes(soft)).toEqual(code ? [code] : []);
    if (message) expect(soft[0].message).toBe(message);
  });

  it.each([
    { name: 'early', shift: span(SHIFT_DATE, '07:00', '15:00'), night: false },
    { name: 'late', shift: span(SHIFT_DATE, '14:00', '22:00'), night: false },
    { name: 'long day', shift: span(SHIFT_DATE, '08:00', '20:00'), night: false },
    { name: 'night', shift: span(SHIFT_DATE, '20:00', '08:00'), night: true },
    { name: 'twilight to early morning', shift: span(SHIFT_DATE, '22:00', '06:00'), night: true },
    { name: 'short night across the spring change', shift: span('2026-03-28', '20:00', '08:00'), night: true },
    { name: 'long night across the autumn change', shift: span('2026-10-24', '20:00', '08:00'), night: true },
    { name: 'early hours only', shift: span(SHIFT_DATE, '02:00', '06:00'), night: true },
  ])('a $name shift is a night shift: $night', ({ shift, night }) => {
    expect(isNightShift(shift, TZ)).toBe(night);
  });

  it('a night touches two local dates; a shift ending at midnight one', () => {
    expect(localDates(span(SHIFT_DATE, '20:00', '08:00'), TZ)).toEqual([SHIFT_DATE, '2026-03-15']);
    expect(localDates(span(SHIFT_DATE, '16:00', '00:00'), TZ)).toEqual([SHIFT_DATE]);
    expect(
      availabilityFit(span(SHIFT_DATE, '16:00', '00:00'), [{ date: '2026-03-15', status: 'unavailable' }], TZ),
    ).toBe('not_set');
  });
});

describe('assessBooking: working time', () => {
  // The shift: Saturday 13 June 2026, 08:00–20:00 (12 h); its week runs Monday 8 June to Sunday 14 June.
  const JUNE = '2026-06-13';
  const MONDAY = '2026-06-08';
  const shift = span(JUNE, '08:00', '20:00');
  /** Four 12-hour days (Mon–Thu) in each of the `weeks` weeks before the shift's week, plus `extra` hours. */
  function history(hoursPerDay: number, weeks = REFERENCE_WEEKS - 1): BookedShift[] {
    const out: BookedShift[] = [];
    for (let w = 1; w <= weeks; w++) {
      const monday = addDaysToDate(MONDAY, -7 * w);
      for (let d = 0; d < 4; d++) {
        const date = addDaysToDate(monday, d);
        const startAt = zonedDateTimeToInstant(date, '08:00', TZ).getTime();
        out.push({
          id: nextShiftId++,
          client_id: MEADOWBANK,
          job_role_id: CARER,
          start: new Date(startAt).toISOString(),
          end: new Date(startAt + hoursPerDay * 3_600_000).toISOString(),
        });
      }
    }
    return out;
  }
  // Three 12-hour days in the shift's own week: with the shift, 48 hours.
  const thisWeek = [
    booked(MONDAY, '08:00', '20:00'),
    booked('2026-06-09', '08:00', '20:00'),
    booked('2026-06-10', '08:00', '20:00'),
  ];

  it('48 hours a week on average exactly is allowed', () => {
    const f = facts({ otherShifts: [...history(12), ...thisWeek] }, shift);
    expect(codes(assessBooking(f).soft)).toEqual([]);
  });

  it('more than 48 on average is flagged, unless they opted out', () => {
    const otherShifts = [...history(12.25), ...thisWeek];
    const flagged = assessBooking(
      facts({ otherShifts, preferences: { max_hours_per_week: null, opted_out_48h: false } }, shift),
    );
    expect(codes(flagged.soft)).toEqual(['weekly_average']);
    expect(flagged.soft[0].message).toBe(
      `Priya Shah would average 48 hours 56 minutes a week over the 17 weeks to 14 Jun 2026, above ${WEEKLY_LIMIT_HOURS} hours, and has not opted out.`,
    );
    expect(codes(assessBooking(facts({ otherShifts }, shift)).soft)).toEqual(['weekly_average']);
    const optedOut = assessBooking(
      facts({ otherShifts, preferences: { max_hours_per_week: null, opted_out_48h: true } }, shift),
    );
    expect(optedOut.soft).toEqual([]);
  });

  // The staff report asks the same rule as of its period's end (averageWeeklyHours): the week of the date and the
  // 16 before, elapsed hours of the shifts starting in them, over 17.
  const averages: { name: string; shifts: Interval[]; asOf: string; expected: number }[] = [
    { name: 'no shifts', shifts: [], asOf: JUNE, expected: 0 },
    { name: 'four 12-hour days in each of 16 weeks before', shifts: history(12), asOf: JUNE, expected: (16 * 48) / 17 },
    {
      name: 'with three more in the week itself',
      shifts: [...history(12), ...thisWeek],
      asOf: JUNE,
      expected: 48 - 12 / 17,
    },
    { name: 'the week counts whole, whichever day asOf is', shifts: thisWeek, asOf: MONDAY, expected: 36 / 17 },
    {
      name: 'the 17th week before is outside',
      shifts: history(20, REFERENCE_WEEKS).slice(-4),
      asOf: JUNE,
      expected: 0,
    },
    { name: 'a later week is outside', shifts: [span('2026-06-15', '08:00', '20:00')], asOf: JUNE, expected: 0 },
    {
      name: 'a night into Monday counts in the Sunday’s week',
      shifts: [span('2026-06-14', '20:00', '08:00')],
      asOf: JUNE,
      expected: 12 / 17,
    },
    {
      name: 'elapsed, not paid: the break is time at work',
      shifts: [{ ...span(JUNE, '08:00', '20:00'), paid_minutes: 660 }],
      asOf: JUNE,
      expected: 12 / 17,
    },
  ];
  it.each(averages)('average weekly hours: $name', ({ shifts, asOf, expected }) => {
    expect(averageWeeklyHours(shifts, asOf, TZ)).toBeCloseTo(expected, 9);
  });

  it('counts only the 17 weeks ending with the shift’s week', () => {
    const older = history(20, REFERENCE_WEEKS).slice(-4); // the 17th week before: outside the reference period
    const later = [booked('2026-06-15', '08:00', '20:00'), booked('2026-06-16', '08:00', '20:00')]; // next week
    const f = facts({ otherShifts: [...history(12), ...thisWeek, ...older, ...later] }, shift);
    expect(codes(assessBooking(f).soft)).toEqual([]);
  });

  it.each([
    { max: 48, fails: false },
    { max: 47, fails: true },
    { max: 12, fails: true },
  ])('preferred maximum $max hours, working 48 this week: flagged $fails', ({ max, fails }) => {
    const result = assessBooking(
      facts({ otherShifts: thisWeek, preferences: { max_hours_per_week: max, opted_out_48h: false } }, shift),
    );
    expect(codes(result.soft)).toEqual(fails ? ['above_max_hours'] : []);
    if (max === 47) {
      expect(result.soft[0].message).toBe(
        'Priya Shah would work 48 hours in the week of 8 Jun 2026, above their preferred 47 hours.',
      );
    }
  });

  it('the week runs Monday to Sunday, and a night belongs to the week it starts in', () => {
    const sundayNightBefore = booked('2026-06-07', '20:00', '08:00'); // ends Monday morning: last week's
    const sundayNight = booked('2026-06-14', '20:00', '08:00'); // this week's Sunday
    const nextMonday = booked('2026-06-15', '08:00', '20:00');
    const otherShifts = [sundayNightBefore, sundayNight, nextMonday];
    expect(hoursInWeek([...otherShifts, shift], MONDAY, TZ)).toBe(24);
    const result = assessBooking(
      facts({ otherShifts, preferences: { max_hours_per_week: 24, opted_out_48h: false } }, shift),
    );
    expect(codes(result.soft)).toEqual([]);
  });

  it('counts paid hours, not unpaid breaks, in the week and against the preferred maximum (issue 14.16)', () => {
    // Four 11-hour shifts with a 30-minute unpaid break each: 44 hours on the clock, 42 paid.
    const week = ['2026-06-08', '2026-06-09', '2026-06-10'].map((d) =>
      booked(d, '08:00', '19:00', { paid_minutes: 630 }),
    );
    const fourth = { ...span('2026-06-11', '08:00', '19:00'), paid_minutes: 630 };
    expect(hoursInWeek([...week, fourth], MONDAY, TZ)).toBe(42);
    const result = assessBooking(
      facts({ otherShifts: week, preferences: { max_hours_per_week: 42, opted_out_48h: false } }, fourth),
    );
    expect(codes(result.soft)).toEqual([]);
    const over = assessBooking(
      facts({ otherShifts: week, preferences: { max_hours_per_week: 41, opted_out_48h: false } }, fourth),
    );
    expect(over.soft[0].message).toBe(
      'Priya Shah would work 42 hours in the week of 8 Jun 2026, above their preferred 41 hours.',
    );
  });

  it('counts real hours across a clock change', () => {
    // The week of 23 March 2026 holds the spring change: a 20:00–08:00 night is 11 hours.
    expect(hoursInWeek([span('2026-03-28', '20:00', '08:00')], '2026-03-23', TZ)).toBe(11);
    expect(durationHours(span('2026-10-24', '20:00', '08:00'))).toBe(13);
  });

  test.prop([
    fc.array(fc.tuple(fc.integer({ min: 0, max: 28 * 24 * 4 - 1 }), fc.integer({ min: 1, max: 16 * 4 })), {
      maxLength: 30,
    }),
  ])('every shift falls in exactly one week', (parts) => {
    // Shifts starting on quarter hours across four weeks of October 2026 (with the autumn change).
    const base = zonedDateTimeToInstant('2026-10-05', '00:00', TZ).getTime();
    const shifts = parts.map(([q, length]) => ({
      start: new Date(base + q * 15 * 60_000).toISOString(),
      end: new Date(base + q * 15 * 60_000 + length * 15 * 60_000).toISOString(),
    }));
    const total = shifts.reduce((sum, s) => sum + durationHours(s), 0);
    const byWeek = ['2026-10-05', '2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02'].reduce(
      (sum, monday) => sum + hoursInWeek(shifts, monday, TZ),
      0,
    );
    expect(byWeek).toBeCloseTo(total, 9);
  });
});

describe('awrWeeks', () => {
  /** One day shift on the Wednesday of each listed week, counted from the week of Monday 5 January 2026. */
  const weeksWorked = (weeks: number[]) => weeks.map((w) => span(addDaysToDate('2026-01-07', 7 * w), '08:00', '20:00'));
  const weekDate = (w: number, day = 2) => addDaysToDate('2026-01-05', 7 * w + day);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  const cases: {
    name: string;
    weeks: number[];
    asOf: string;
    expected: { weeks: number; qualified: boolean; paused: boolean; resetOn: string | null };
  }[] = [
    {
      name: 'never worked',
      weeks: [],
      asOf: weekDate(0),
      expected: { weeks: 0, qualified: false, paused: false, resetOn: null },
    },
    {
      name: 'three weeks in a row',
      weeks: [0, 1, 2],
      asOf: weekDate(2),
      expected: { weeks: 3, qualified: false, paused: false, resetOn: null },
    },
    {
      name: 'a week without work yet, still running',
      weeks: [0, 1, 2],
      asOf: weekDate(3),
      expected: { weeks: 3, qualified: false, paused: false, resetOn: null },
    },
    {
      name: 'twelve weeks qualify',
      weeks: range(0, 11),
      asOf: weekDate(11),
      expected: { weeks: 12, qualified: true, paused: false, resetOn: null },
    },
    {
      name: 'eleven do not',
      weeks: range(0, 10),
      asOf: weekDate(10),
      expected: { weeks: 11, qualified: false, paused: false, resetOn: null },
    },
    {
      name: 'a 6-week break pauses the clock',
      weeks: [0, 1, 2, 9],
      asOf: weekDate(9),
      expected: { weeks: 4, qualified: false, paused: false, resetOn: null },
    },
    {
      name: 'a 7-week break resets it',
      weeks: [0, 1, 2, 10],
      asOf: weekDate(10),
      expected: { weeks: 1, qualified: false, paused: false, resetOn: '2026-03-16' },
    },
    {
      name: 'paused during a break',
      weeks: [0, 1, 2],
      asOf: weekDate(5),
      expected: { weeks: 3, qualified: false, paused: true, resetOn: null },
    },
    {
      name: 'still paused in the 7th week of a break',
      weeks: [0, 1, 2],
      asOf: weekDate(9, 6),
      expected: { weeks: 3, qualified: false, paused: true, resetOn: null },
    },
    {
      name: 'reset once 7 whole weeks pass without work',
      weeks: [0, 1, 2],
      asOf: weekDate(10, 0),
      expected: { weeks: 0, qualified: false, paused: false, resetOn: '2026-03-16' },
    },
    {
      name: 'qualification lost after a long break',
      weeks: [...range(0, 11), 19, 20],
      asOf: weekDate(20),
      expected: { weeks: 2, qualified: false, paused: false, resetOn: '2026-05-18' },
    },
    {
      name: 'qualification kept through a short break',
      weeks: [...range(0, 11), 18],
      asOf: weekDate(18),
      expected: { weeks: 13, qualified: true, paused: false, resetOn: null },
    },
    {
      name: 'shifts after the date are ignored',
      weeks: [0, 1, 2, 3, 4],
      asOf: weekDate(2),
      expected: { weeks: 3, qualified: false, paused: false, resetOn: null },
    },
  ];
  it.each(cases)('$name', ({ weeks, asOf, expected }) => {
    expect(awrWeeks(weeksWorked(weeks), asOf, TZ)).toEqual(expected);
  });

  it('counts a week once however many shifts it holds', () => {
    const shifts = [
      span('2026-01-05', '08:00', '20:00'),
      span('2026-01-06', '08:00', '20:00'),
      span('2026-01-11', '20:00', '08:00'),
    ];
    expect(awrWeeks(shifts, '2026-01-12', TZ).weeks).toBe(1);
  });

  it('puts a shift in the local week, across daylight-saving changes', () => {
    // Sunday 29 March 2026 23:30 BST is 22:30 UTC on Sunday; Monday 30 March 00:30 BST is still Sunday in UTC.
    expect(awrWeeks([span('2026-03-29', '23:30', '23:45')], '2026-03-29', TZ).weeks).toBe(1);
    expect(awrWeeks([span('2026-03-30', '00:30', '08:00')], '2026-03-29', TZ).weeks).toBe(0);
    // In UTC both would fall in one week.
    const consecutive = [span('2026-03-29', '23:30', '23:45'), span('2026-03-30', '00:30', '08:00')];
    expect(awrWeeks(consecutive, '2026-03-30', TZ)).toEqual({
      weeks: 2,
      qualified: false,
      paused: false,
      resetOn: null,
    });
    // Across the autumn change: the weeks of 19 and 26 October, then a 6-week break to the week of 14 December.
    const autumn = [
      span('2026-10-24', '20:00', '08:00'),
      span('2026-10-26', '08:00', '20:00'),
      span('2026-12-14', '08:00', '20:00'),
    ];
    expect(awrWeeks(autumn, '2026-12-14', TZ)).toEqual({ weeks: 3, qualified: false, paused: false, resetOn: null });
    expect(awrWeeks(autumn.slice(0, 2), '2026-12-21', TZ)).toEqual({
      weeks: 0,
      qualified: false,
      paused: false,
      resetOn: '2026-12-21',
    });
  });

  // The date equal treatment applies from (the staff report's qualifying date): the Monday after the 12th week
  // counted; not yet qualified, the earliest, working every week from the week of asOf on.
  const qualifying: { name: string; weeks: number[]; asOf: string; expected: string | null }[] = [
    { name: 'never worked: no date', weeks: [], asOf: weekDate(0), expected: null },
    {
      name: 'twelve in a row: the Monday after the 12th',
      weeks: range(0, 11),
      asOf: weekDate(11),
      expected: weekDate(12, 0),
    },
    { name: 'qualified long ago keeps its date', weeks: range(0, 15), asOf: weekDate(15), expected: weekDate(12, 0) },
    {
      name: 'a short break pushes it on',
      weeks: [...range(0, 5), ...range(9, 14)],
      asOf: weekDate(14),
      expected: weekDate(15, 0),
    },
    {
      name: 'three weeks, this one worked: nine more from next week',
      weeks: [0, 1, 2],
      asOf: weekDate(2),
      expected: weekDate(12, 0),
    },
    {
      name: 'three weeks, this one not yet worked: it can still count',
      weeks: [0, 1, 2],
      asOf: weekDate(3),
      expected: weekDate(12, 0),
    },
    {
      name: 'paused by a break: counting resumes this week',
      weeks: [0, 1, 2],
      asOf: weekDate(6),
      expected: weekDate(15, 0),
    },
    { name: 'reset by a long break: no date', weeks: [0, 1, 2], asOf: weekDate(10, 0), expected: null },
    {
      name: 'after a reset, from the new run',
      weeks: [...range(0, 11), ...range(20, 22)],
      asOf: weekDate(22),
      expected: weekDate(32, 0),
    },
  ];
  it.each(qualifying)('qualifying date: $name', ({ weeks, asOf, expected }) => {
    expect(awrQualifyingDate(weeksWorked(weeks), asOf, TZ)).toBe(expected);
  });

  test.prop([fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 40 })])(
    'never counts more weeks than were worked, and qualifies at 12',
    (weeks) => {
      const result = awrWeeks(weeksWorked(weeks), weekDate(60), TZ);
      expect(result.weeks).toBeLessThanOrEqual(weeks.length);
      expect(result.qualified).toBe(result.weeks >= AWR_QUALIFYING_WEEKS);
      if (weeks.length === 0 || 60 - Math.max(...weeks) - 1 > AWR_MAX_BREAK_WEEKS) expect(result.weeks).toBe(0);
    },
  );

  test.prop([fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: AWR_MAX_BREAK_WEEKS })])(
    'a run of weeks counts in full after any break of up to 6 weeks',
    (n, gap) => {
      const weeks = [0, ...range(gap + 1, gap + n)];
      expect(awrWeeks(weeksWorked(weeks), weekDate(gap + n), TZ).weeks).toBe(n + 1);
    },
  );

  it('is shown on the booking, counting the week of the shift', () => {
    const awrShifts = weeksWorked(range(1, 8)); // weeks of 12 Jan to 2 Mar 2026
    const a = assessBooking(facts({ awrShifts }, span(SHIFT_DATE, '08:00', '20:00'))); // week of 9 March
    expect(a.awr.weeks).toBe(9);
    expect(a.info[0].message).toBe(
      'Agency Workers Regulations: week 9 of 12 at Meadowbank Care Home as Care Assistant.',
    );
    const qualified = assessBooking(
      facts({ awrShifts: weeksWorked(range(0, 10)) }, span('2026-03-25', '08:00', '20:00')),
    );
    expect(qualified.info[0].message).toBe(
      'Agency Workers Regulations: 12 qualifying weeks at Meadowbank Care Home as Care Assistant; equal treatment applies.',
    );
  });
});

describe('rankSuggestions', () => {
  const c = (id: number, name: string, over: Partial<SuggestionCandidate> = {}): SuggestionCandidate => ({
    id,
    name,
    passesHard: true,
    available: true,
    preferred: false,
    avoided: false,
    hoursThisWeek: 0,
    ...over,
  });
  const cases: { name: string; input: SuggestionCandidate[]; expected: number[] }[] = [
    { name: 'drops those failing hard checks', input: [c(1, 'A', { passesHard: false }), c(2, 'B')], expected: [2] },
    {
      name: 'available first',
      input: [c(1, 'A', { available: false }), c(2, 'B', { hoursThisWeek: 40 })],
      expected: [2, 1],
    },
    {
      name: 'then preferred',
      input: [c(1, 'A', { hoursThisWeek: 0 }), c(2, 'B', { preferred: true, hoursThisWeek: 30 })],
      expected: [2, 1],
    },
    {
      name: 'avoided after neutral',
      input: [c(1, 'A', { avoided: true }), c(2, 'B', { hoursThisWeek: 30 })],
      expected: [2, 1],
    },
    {
      name: 'then fewest hours',
      input: [c(1, 'A', { hoursThisWeek: 24 }), c(2, 'B', { hoursThisWeek: 12 })],
      expected: [2, 1],
    },
    { name: 'then by name', input: [c(1, 'zoe Brown'), c(2, 'Adam Smith'), c(3, 'Émile Ward')], expected: [2, 3, 1] },
    { name: 'same name: by id', input: [c(5, 'Sam Lee'), c(3, 'Sam Lee')], expected: [3, 5] },
    { name: 'nobody', input: [], expected: [] },
  ];
  it.each(cases)('$name', ({ input, expected }) => {
    expect(rankSuggestions(input).map((x) => x.id)).toEqual(expected);
  });

  it('keeps the caller’s extra fields and leaves the input untouched', () => {
    const input = [
      { ...c(1, 'B'), email: 'b@x' },
      { ...c(2, 'A'), email: 'a@x' },
    ];
    expect(rankSuggestions(input)).toEqual([input[1], input[0]]);
    expect(input.map((x) => x.id)).toEqual([1, 2]);
  });
});

describe('formatHours', () => {
  it.each([
    [11, '11 hours'],
    [10 + 59 / 60, '10 hours 59 minutes'],
    [1.5, '1 hour 30 minutes'],
    [1 + 1 / 60, '1 hour 1 minute'],
    [-2, '0 hours'],
  ])('%s → %s', (hours, text) => {
    expect(formatHours(hours)).toBe(text);
  });
});

describe('the agency clock used by the checks', () => {
  const ZONES = ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];

  test.prop([wholeMinuteInstant('1990-01-01', '2060-12-31'), fc.constantFrom(...ZONES)])(
    'agrees with agencyTime on the local date and time of any instant',
    (instant, zone) => {
      expect(localDateTime(instant.getTime(), zone)).toEqual(instantToZoned(instant, zone));
      expect(dayToDate(localDay(instant.getTime(), zone))).toBe(instantToZoned(instant, zone).date);
    },
  );

  test.prop([wholeMinuteInstant('1990-01-01', '2060-12-31'), fc.constantFrom(...ZONES)])(
    'puts an instant in the week of its local Monday',
    (instant, zone) => {
      expect(weekOf(instant, zone)).toBe(startOfWeekMonday(instantToZoned(instant, zone).date));
    },
  );

  it('takes Date values as the database returns them', () => {
    const a = { start: new Date(at(SHIFT_DATE, '08:00')), end: new Date(at(SHIFT_DATE, '20:00')) };
    expect(overlaps(a, span(SHIFT_DATE, '19:00', '21:00'))).toBe(true);
    const result = assessBooking(
      facts(
        { otherShifts: [{ id: 9, client_id: MEADOWBANK, job_role_id: CARER, ...a }] },
        span(SHIFT_DATE, '20:00', '08:00'),
      ),
    );
    expect(result.hard).toEqual([]);
    expect(codes(result.soft)).toEqual(['short_rest']);
  });

  it('refuses an unknown zone or a date that is not one', () => {
    expect(() => assessBooking({ ...facts(), timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(() => awrWeeks([], '2026-02-30', TZ)).toThrow(RangeError);
  });
});

describe('assessBooking: the legal minimum wage (issues 14.4, 30.6)', () => {
  // Wednesday 10 June 2026: the National Living Wage for 21 and over is £12.71 from 1 April 2026.
  const night = {
    ...span('2026-06-10', '20:00', '08:00'),
    price_lines: [{ band: 'weekday_night' as const, pay_rate: 1250, minutes: 690, hours: 11.5 }],
  };
  const wage = (o: Partial<WageFacts> = {}): WageFacts => ({
    covered: true,
    dateOfBirth: '1972-03-01',
    floors: [...DEFAULT_WAGE_FLOORS],
    ownPay: null,
    ...o,
  });

  it('refuses a PAYE worker with no override, naming the rate, the band, the floor and the age (issue 30.6)', () => {
    const result = assessBooking(facts({ wage: wage() }, night));
    expect(result.hard).toEqual([
      {
        code: 'below_minimum_wage',
        severity: 'hard',
        message:
          'Priya Shah would be paid £12.50 an hour (Weekday night), below the National Living Wage of £12.71 an hour from 1 April 2026 at age 54. A PAYE worker cannot be paid below the legal minimum, so this booking is refused: raise the pay rate (their own rate or the rate card) first.',
      },
    ]);
    expect(codes(blockingChecks(result))).toEqual(['below_minimum_wage']);
    expect(overridableChecks(result)).toEqual([]);
  });

  it.each([
    ['an umbrella', 'Umbrella company', 'through Umbrella company'],
    ['their own company', 'Limited company', 'through Limited company'],
    ['no named type', null, 'outside PAYE'],
  ])('warns for a worker employed through %s, naming it', (_, employmentType, how) => {
    const result = assessBooking(facts({ wage: wage({ covered: false, employmentType }) }, night));
    expect(result.hard).toEqual([]);
    expect(result.soft).toEqual([
      {
        code: 'below_minimum_wage',
        severity: 'soft',
        message: `Priya Shah would be paid £12.50 an hour (Weekday night), below the National Living Wage of £12.71 an hour from 1 April 2026 at age 54. They are employed ${how}, not on the agency's PAYE payroll: make sure the rate lets their employer pay them at least the minimum.`,
      },
    ]);
    expect(codes(overridableChecks(result))).toEqual(['below_minimum_wage']);
  });

  it.each([
    ['aged 19: the 18–20 rate of £10.85', wage({ dateOfBirth: '2007-01-01' })],
    ['their own pay for the band is above the floor', wage({ ownPay: { weekday_night: 1300 } })],
    ['an umbrella worker whose own pay is above the floor', wage({ covered: false, ownPay: { weekday_night: 1300 } })],
  ])('passes when %s', (_, w) => {
    const result = assessBooking(facts({ wage: w }, night));
    expect(codes(result.hard)).toEqual([]);
    expect(codes(result.soft)).toEqual([]);
  });

  it('a sleep-in (flat allowance) and a date before the rise pass; an unknown age is read as adult', () => {
    const flat = { ...night, price_lines: [{ band: 'flat' as const, pay_rate: 6000, minutes: 720, hours: 12 }] };
    expect(codes(assessBooking(facts({ wage: wage() }, flat)).hard)).toEqual([]);
    const march = { ...span('2026-03-11', '20:00', '08:00'), price_lines: night.price_lines };
    expect(codes(assessBooking(facts({ wage: wage() }, march)).hard)).toEqual([]);
    expect(assessBooking(facts({ wage: wage({ dateOfBirth: null }) }, night)).hard[0].message).toMatch(
      /below the National Living Wage of £12\.71 an hour from 1 April 2026\. A PAYE worker/,
    );
  });

  it('ageOn counts whole years', () => {
    expect([
      ageOn('1972-06-10', '2026-06-10'),
      ageOn('1972-06-11', '2026-06-10'),
      ageOn('2004-02-29', '2025-02-28'),
      ageOn('2004-02-29', '2025-03-01'),
    ]).toEqual([54, 53, 20, 21]);
  });
});
