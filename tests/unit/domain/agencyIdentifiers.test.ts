import { describe, expect, it } from 'vitest';
import {
  COMPANY_NUMBER_WORDS,
  companyNumberProblem,
  ianaTimeZones,
  registrationLine,
  TIME_ZONE_WORDS,
  timeZoneProblem,
  VAT_NUMBER_WORDS,
  vatNumberProblem,
} from '../../../core/domain/agency/identifiers';
import {
  JOB_BOARD_SLUG_PATTERN,
  jobBoardPath,
  jobBoardSlugProblem,
  RESERVED_JOB_BOARD_SLUGS,
} from '../../../core/domain/agency/jobBoard';
import { validateRecord } from '../../../core/engine/validate';
import { agencySettings } from '../../../core/resources/settings/agency';

// Issue 35: the agency settings' checks of a company number, a VAT number and a time zone, and the registration line
// its invoices print.
describe('a company number', () => {
  it.each(['01234567', '09876543', 'SC123456', 'NI012345', 'OC301234', 'R0012345', ' sc 123456 ', ''])(
    'takes %j',
    (v) => expect(companyNumberProblem(v)).toBeNull(),
  );
  it.each(['1234567', '123456789', 'SC12345', 'S1234567', '12345ABC', 'SCO12345'])('refuses %j in words', (v) =>
    expect(companyNumberProblem(v)).toBe(COMPANY_NUMBER_WORDS),
  );
});

describe('a VAT number', () => {
  it.each(['GB123456789', 'GB 123 4567 89', 'gb123456789', 'GB123456789012', 'GB 123 4567 89 012', '', null])(
    'takes %j',
    (v) => expect(vatNumberProblem(v)).toBeNull(),
  );
  it.each(['123456789', 'GB12345678', 'GB1234567890', 'GB12345678901', 'XI123456789', 'GBGD001', 'DE123456789'])(
    'refuses %j in words',
    (v) => expect(vatNumberProblem(v)).toBe(VAT_NUMBER_WORDS),
  );
});

describe('a time zone', () => {
  it('is one of the IANA zones the runtime knows, Europe/London and UTC among them, sorted', () => {
    const zones = ianaTimeZones();
    expect(zones).toContain('Europe/London');
    expect(zones).toContain('UTC');
    expect(zones).toContain('America/New_York');
    expect([...zones].sort()).toEqual(zones);
  });
  it.each(['Mars/Olympus_Mons', 'europe/london', 'GMT+1', '', ' Europe/London'])('refuses %j in words', (v) =>
    expect(timeZoneProblem(v)).toBe(TIME_ZONE_WORDS),
  );
});

describe('the registration line of an invoice', () => {
  it('names the place by the number’s prefix', () => {
    expect(registrationLine('Brightway Staffing Ltd', '09876543')).toBe(
      'Brightway Staffing Ltd, registered in England and Wales, company number 09876543',
    );
    expect(registrationLine('Highland Care Ltd', 'sc123456')).toBe(
      'Highland Care Ltd, registered in Scotland, company number SC123456',
    );
    expect(registrationLine('Ulster Nursing Ltd', 'NI012345')).toBe(
      'Ulster Nursing Ltd, registered in Northern Ireland, company number NI012345',
    );
    expect(registrationLine('Sole Trader Staffing', null)).toBe('Sole Trader Staffing');
    expect(registrationLine('  ', '09876543')).toBeNull();
  });
});

describe('the declaration', () => {
  const good = {
    company_name: 'Brightway Staffing',
    time_zone: 'Europe/London',
    default_region: 'england_wales',
  };
  it('takes the agency’s details as they are typed', () => {
    expect(
      validateRecord(agencySettings, {
        ...good,
        legal_name: 'Brightway Staffing Ltd',
        company_number: '09876543',
        vat_number: 'GB 123 4567 89',
        address: { line1: '12 Harbour Street', city: 'Bristol', postcode: 'BS1 4QA' },
      }),
    ).toEqual({});
  });
  it('answers each problem next to its field, both sides alike', () => {
    const problems = validateRecord(agencySettings, {
      company_name: '',
      company_number: 'ABC',
      vat_number: 'GB1',
      time_zone: 'Atlantis/Capital',
      default_region: 'wales',
      address: { city: 'Bristol' },
    });
    expect(Object.keys(problems).sort()).toEqual([
      'address',
      'company_name',
      'company_number',
      'default_region',
      'time_zone',
      'vat_number',
    ]);
    expect(problems.company_number.message).toBe(COMPANY_NUMBER_WORDS);
    expect(problems.vat_number.message).toBe(VAT_NUMBER_WORDS);
    expect(problems.time_zone.message).toBe(TIME_ZONE_WORDS);
  });
});

describe('the job board address', () => {
  it.each(['brightway-staffing', 'abc', 'care-24-7', 'a'.repeat(60), 'agency'])('takes %j', (v) =>
    expect(jobBoardSlugProblem(v)).toBeNull(),
  );
  it.each([
    ['', 'Give the job board an address.'],
    [null, 'Give the job board an address.'],
    ['ab', 'Use 3 to 60 characters.'],
    ['a'.repeat(61), 'Use 3 to 60 characters.'],
    ['Brightway', /lower-case letters and digits/],
    ['bright--way', /single hyphens/],
    ['bright-way-', /single hyphens/],
    ['bright_way', /single hyphens/],
    ['careers', '“careers” is kept for the product: choose another address.'],
  ])('refuses %j in words', (v, words) => expect(jobBoardSlugProblem(v)).toMatch(words));
  it('reserves only addresses that could be chosen otherwise', () => {
    for (const word of RESERVED_JOB_BOARD_SLUGS)
      expect(JOB_BOARD_SLUG_PATTERN.test(word) && word.length >= 3).toBe(true);
  });
  it('is the slug of the board’s own path', () =>
    expect(jobBoardPath('brightway-staffing')).toBe('/careers/brightway-staffing'));
});
