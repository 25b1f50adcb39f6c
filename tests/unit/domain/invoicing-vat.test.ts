// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  CARE_TYPES,
  careTypeOfClientType,
  CONCESSION_ROLES,
  vatTreatmentOf,
  type CareType,
  type ConcessionRole,
  type VatTreatment,
} from '../../../core/domain/invoicing/vatTreatment';
import { plainDate } from './arbitraries';

// Issue 32.2: the nursing agencies' concession, case by case as HMRC states it. VAT Notice 701/57, 6.5 (and HMRC Brief
// 40/10, which restated it): an agency acting as principal may exempt the supply of (a) a person on the register of
// nurses and midwives (NMC), (b) an unregistered nursing auxiliary directly supervised by one, (c) an unregistered
// nursing auxiliary supplied to a hospital, hospice or care home with nursing, forming part of the patient's care.
// VATHLT2360: dental nurses and operating department practitioners are standard-rated. 701/57 (and the Brief): general
// care assistants giving personal care only, and staff in care homes without nursing, are standard-rated.
const ELECTED = '2026-04-01';
const role = (name: string, concession: ConcessionRole) => ({ name, concession });

describe('vatTreatmentOf', () => {
  it.each<[string, ReturnType<typeof role>, CareType, VatTreatment]>([
    [
      '(a) a registered nurse at a care home with nursing',
      role('Registered nurse', 'nurse'),
      'care_home_nursing',
      'exempt',
    ],
    ['(a) a registered nurse anywhere: a care home without nursing', role('RGN', 'nurse'), 'care_home', 'exempt'],
    ['(a) a registered mental health nurse in the community', role('RMN', 'nurse'), 'other', 'exempt'],
    [
      '(b) a healthcare assistant directly supervised by a nurse, whatever the place',
      role('HCA (supervised)', 'supervised_auxiliary'),
      'other',
      'exempt',
    ],
    [
      '(c) a healthcare assistant supplied to an NHS hospital',
      role('Healthcare assistant', 'auxiliary'),
      'hospital',
      'exempt',
    ],
    [
      '(c) a healthcare assistant supplied to a hospice',
      role('Healthcare assistant', 'auxiliary'),
      'hospice',
      'exempt',
    ],
    [
      '(c) a nursing auxiliary at a care home with nursing',
      role('Nursing auxiliary', 'auxiliary'),
      'care_home_nursing',
      'exempt',
    ],
    [
      'not (c): a nursing auxiliary at a care home without nursing, unsupervised',
      role('Nursing auxiliary', 'auxiliary'),
      'care_home',
      'standard',
    ],
    ['not (c): a nursing auxiliary in supported living', role('Senior carer', 'auxiliary'), 'other', 'standard'],
    ['personal care only, in a care home without nursing', role('Care assistant', 'none'), 'care_home', 'standard'],
    ['personal care only, even at a hospital', role('Care assistant', 'none'), 'hospital', 'standard'],
    ['VATHLT2360: a dental nurse, even flagged as a nurse', role('Dental nurse', 'nurse'), 'hospital', 'standard'],
    [
      'VATHLT2360: an operating department practitioner, even flagged as a nurse',
      role('Operating Department Practitioner', 'nurse'),
      'hospital',
      'standard',
    ],
    ['VATHLT2360: an ODP, by its short name', role('Theatre ODP', 'supervised_auxiliary'), 'hospital', 'standard'],
  ])('%s: %s', (_name, r, careType, expected) => {
    expect(vatTreatmentOf({ concessionFrom: ELECTED, suppliedOn: '2026-04-01', role: r, careType }).treatment).toBe(
      expected,
    );
  });

  it.each<[string, string | null, string, VatTreatment, RegExp]>([
    ['not elected: standard whatever the role', null, '2026-05-01', 'standard', /has not elected/],
    ['elected: a supply on the day the election applies from is exempt', ELECTED, '2026-04-01', 'exempt', /701\/57/],
    [
      'never backdated: a supply the day before the election is standard, even on an invoice issued after it',
      ELECTED,
      '2026-03-31',
      'standard',
      /before the agency’s election to use the concession from 2026-04-01/,
    ],
  ])('%s', (_name, concessionFrom, suppliedOn, expected, reason) => {
    const d = vatTreatmentOf({
      concessionFrom,
      suppliedOn,
      role: role('Registered nurse', 'nurse'),
      careType: 'hospital',
    });
    expect(d.treatment).toBe(expected);
    expect(d.reason).toMatch(reason);
  });

  it('says why a line is standard-rated, naming the role', () => {
    const d = vatTreatmentOf({
      concessionFrom: ELECTED,
      suppliedOn: '2026-05-01',
      role: role('Dental nurse', 'nurse'),
      careType: 'hospital',
    });
    expect(d.reason).toBe('Dental nurse: dental nurses and operating department practitioners never qualify.');
  });

  test.prop([
    fc.option(plainDate('2025-01-01', '2027-12-31'), { nil: null }),
    plainDate('2025-01-01', '2027-12-31'),
    fc.constantFrom(...CONCESSION_ROLES),
    fc.constantFrom(...CARE_TYPES),
  ])(
    'exempt only when elected on or before the supply, and never for a role of the "none" kind',
    (from, supply, c, ct) => {
      const d = vatTreatmentOf({ concessionFrom: from, suppliedOn: supply, role: role('Staff', c), careType: ct });
      if (d.treatment === 'exempt') {
        expect(from !== null && from <= supply).toBe(true);
        expect(c).not.toBe('none');
      }
      expect(d.reason.length).toBeGreaterThan(10);
    },
  );
});

describe('careTypeOfClientType', () => {
  it.each([
    ['Hospital', 'hospital'],
    ['Nursing home', 'care_home_nursing'],
    ['Care home', 'care_home'],
    ['Supported living', 'other'],
    ['Other', 'other'],
    [null, 'other'],
  ])('%s → %s', (clientType, careType) => {
    expect(careTypeOfClientType(clientType)).toBe(careType);
  });
});
