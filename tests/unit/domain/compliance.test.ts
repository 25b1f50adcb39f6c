// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  assessCompliance,
  complianceOn,
  countingDocument,
  describeCompliance,
  isCompliantOn,
  replacedDocuments,
  requiredCategories,
  type ComplianceCategory,
  type ComplianceDocument,
} from '../../../core/domain/compliance/compliance';
import { DOCUMENT_STATUSES } from '../../../core/domain/compliance/documents';
import { addDaysToDate, agencyToday } from '../../../core/domain/time/agencyTime';
import { plainDate } from './arbitraries';

const NURSE = 1;
const CARER = 2;
const COOK = 3;

const DBS: ComplianceCategory = { id: 10, name: 'DBS certificate', mandatory: true, job_role_ids: [] };
const RTW: ComplianceCategory = { id: 11, name: 'Right to work', mandatory: true, job_role_ids: [] };
const NMC: ComplianceCategory = { id: 12, name: 'NMC PIN', mandatory: false, job_role_ids: [NURSE] };
const MANUAL: ComplianceCategory = {
  id: 13,
  name: 'Manual handling training',
  mandatory: false,
  job_role_ids: [NURSE, CARER],
};
const FOOD: ComplianceCategory = { id: 14, name: 'Food hygiene', mandatory: false, job_role_ids: [COOK] };
const OPTIONAL: ComplianceCategory = { id: 15, name: 'Driving licence', mandatory: false, job_role_ids: [] };
const CATEGORIES = [DBS, RTW, NMC, MANUAL, FOOD, OPTIONAL];

const TODAY = '2026-03-15';
let nextId = 1;
const doc = (
  category: ComplianceCategory,
  status: ComplianceDocument['status'],
  expiry_date: string | null,
  superseded = false,
): ComplianceDocument => ({ id: nextId++, document_category_id: category.id, status, expiry_date, superseded });

const assess = (jobRoleId: number | null, documents: ComplianceDocument[], today = TODAY) =>
  assessCompliance({ jobRoleId, categories: CATEGORIES, documents, today });

describe('requiredCategories', () => {
  it.each([
    [null, [DBS, RTW]],
    [NURSE, [DBS, RTW, NMC, MANUAL]],
    [CARER, [DBS, RTW, MANUAL]],
    [COOK, [DBS, RTW, FOOD]],
    [99, [DBS, RTW]],
  ])('job role %s needs %j', (role, expected) => {
    expect(requiredCategories(CATEGORIES, role)).toEqual(expected);
  });
});

describe('countingDocument', () => {
  it('is the verified current document with the latest expiry; no expiry beats any date', () => {
    const a = doc(DBS, 'verified', '2026-06-01');
    const b = doc(DBS, 'verified', '2027-06-01');
    const c = doc(DBS, 'verified', null);
    const old = doc(DBS, 'verified', '2030-01-01', true);
    const awaiting = doc(DBS, 'awaiting', '2031-01-01');
    const other = doc(RTW, 'verified', '2032-01-01');
    expect(countingDocument([a, b, old, awaiting, other], DBS.id)).toBe(b);
    expect(countingDocument([a, c, b], DBS.id)).toBe(c);
    expect(countingDocument([old, awaiting, other], DBS.id)).toBeUndefined();
  });
});

describe('assessCompliance', () => {
  const carerAllGood = () => [
    doc(DBS, 'verified', '2027-01-10'),
    doc(RTW, 'verified', null),
    doc(MANUAL, 'verified', '2026-12-01'),
  ];

  it('is compliant when every required category has a verified, unexpired document', () => {
    expect(assess(CARER, carerAllGood())).toEqual({
      compliant: true,
      missing: [],
      expired: [],
      expiring: [],
      validUntil: '2026-12-01',
      complete: true,
    });
  });

  it('with nothing required it is compliant and never runs out', () => {
    const result = assessCompliance({ jobRoleId: null, categories: [OPTIONAL], documents: [], today: TODAY });
    expect(result).toMatchObject({ compliant: true, complete: true, validUntil: null, missing: [] });
  });

  it.each([
    ['no document at all', []],
    ['only one awaiting check', [doc(RTW, 'awaiting', null)]],
    ['only a rejected one', [doc(RTW, 'rejected', '2030-01-01')]],
    ['only a superseded verified one', [doc(RTW, 'verified', '2030-01-01', true)]],
    ['a verified one of another category', [doc(OPTIONAL, 'verified', null)]],
  ])('a category is missing with %s', (_, rtwDocs) => {
    const documents = [doc(DBS, 'verified', '2027-01-10'), doc(MANUAL, 'verified', '2026-12-01'), ...rtwDocs];
    const result = assess(CARER, documents);
    expect(result.missing).toEqual([RTW]);
    expect(result.compliant).toBe(false);
    expect(result.complete).toBe(false);
  });

  it('an expired verified document makes the staff member non-compliant but complete', () => {
    const result = assess(CARER, [
      doc(DBS, 'verified', '2027-01-10'),
      doc(RTW, 'verified', null),
      doc(MANUAL, 'verified', '2026-03-14'),
    ]);
    expect(result).toEqual({
      compliant: false,
      missing: [],
      expired: [{ category: MANUAL, expiry: '2026-03-14', daysLeft: -1 }],
      expiring: [],
      validUntil: '2026-03-14',
      complete: true,
    });
  });

  it('a document expiring today still counts; due soon ones are listed as expiring, soonest first', () => {
    const result = assess(NURSE, [
      doc(DBS, 'verified', '2026-04-14'),
      doc(RTW, 'verified', '2026-03-15'),
      doc(NMC, 'verified', '2026-04-15'),
      doc(MANUAL, 'verified', '2026-03-20'),
    ]);
    expect(result.compliant).toBe(true);
    expect(result.expiring).toEqual([
      { category: RTW, expiry: '2026-03-15', daysLeft: 0 },
      { category: MANUAL, expiry: '2026-03-20', daysLeft: 5 },
      { category: DBS, expiry: '2026-04-14', daysLeft: 30 },
    ]);
    expect(result.validUntil).toBe('2026-03-15');
  });

  it('honours a longer due window', () => {
    const documents = [doc(DBS, 'verified', '2026-05-01'), doc(RTW, 'verified', null)];
    expect(assessCompliance({ jobRoleId: null, categories: CATEGORIES, documents, today: TODAY }).expiring).toEqual([]);
    expect(
      assessCompliance({ jobRoleId: null, categories: CATEGORIES, documents, today: TODAY, dueWithinDays: 60 })
        .expiring,
    ).toEqual([{ category: DBS, expiry: '2026-05-01', daysLeft: 47 }]);
  });

  it('a renewal that replaced an expired document counts; the old one no longer does', () => {
    const documents = [
      doc(DBS, 'verified', '2026-01-01', true),
      doc(DBS, 'verified', '2029-01-01'),
      doc(RTW, 'verified', null),
    ];
    expect(assess(null, documents)).toMatchObject({ compliant: true, expired: [], validUntil: '2029-01-01' });
  });

  it('when two current verified documents exist, the one lasting longest counts', () => {
    const documents = [
      doc(DBS, 'verified', '2026-01-01'),
      doc(DBS, 'verified', '2028-01-01'),
      doc(RTW, 'verified', null),
    ];
    expect(assess(null, documents)).toMatchObject({ compliant: true, expired: [], validUntil: '2028-01-01' });
  });

  it('ignores documents of categories the role does not need, even expired ones', () => {
    const documents = [
      doc(DBS, 'verified', null),
      doc(RTW, 'verified', null),
      doc(FOOD, 'verified', '2020-01-01'),
      doc(NMC, 'rejected', null),
    ];
    expect(assess(CARER, documents).missing).toEqual([MANUAL]);
    expect(assess(CARER, documents).expired).toEqual([]);
    expect(assess(null, documents)).toMatchObject({ compliant: true, validUntil: null });
  });

  it("expires at the agency's midnight: London at 23:30 UTC on 31 March 2026 is already 1 April", () => {
    const documents = [doc(DBS, 'verified', '2026-03-31'), doc(RTW, 'verified', null)];
    const now = new Date('2026-03-31T23:30:00Z');
    const london = assess(null, documents, agencyToday('Europe/London', now));
    expect(london.compliant).toBe(false);
    expect(london.expired).toEqual([{ category: DBS, expiry: '2026-03-31', daysLeft: -1 }]);
    expect(assess(null, documents, agencyToday('UTC', now)).compliant).toBe(true);
    // In winter London and a UTC machine agree.
    const winterDocs = [doc(DBS, 'verified', '2026-01-15'), doc(RTW, 'verified', null)];
    const winterNight = new Date('2026-01-15T23:30:00Z');
    expect(assess(null, winterDocs, agencyToday('Europe/London', winterNight)).compliant).toBe(true);
    expect(assess(null, winterDocs, agencyToday('UTC', winterNight)).compliant).toBe(true);
  });
});

describe('replacedDocuments (issue 30.2: an early renewal waits beside the verified document)', () => {
  const verifiedDbs = { id: 1, document_category_id: DBS.id, status: 'verified' as const };
  const awaitingDbs = { id: 2, document_category_id: DBS.id, status: 'awaiting' as const };
  const rejectedDbs = { id: 3, document_category_id: DBS.id, status: 'rejected' as const };
  const verifiedRtw = { id: 4, document_category_id: RTW.id, status: 'verified' as const };
  const upload = (status: ComplianceDocument['status']) => ({ id: 9, document_category_id: DBS.id, status });
  it.each([
    ['an upload awaiting its check beside a verified one', upload('awaiting'), [verifiedDbs], []],
    ['an upload awaiting its check, an earlier one awaiting', upload('awaiting'), [verifiedDbs, awaitingDbs], [2]],
    ['an upload awaiting its check, a rejected one', upload('awaiting'), [rejectedDbs], [3]],
    [
      'a verified document replaces every other of its category',
      upload('verified'),
      [verifiedDbs, awaitingDbs, rejectedDbs],
      [1, 2, 3],
    ],
    ['never another category', upload('verified'), [verifiedRtw], []],
    ['never itself', { ...verifiedDbs }, [verifiedDbs, awaitingDbs], [2]],
    ['a rejected renewal leaves the verified one', upload('rejected'), [verifiedDbs], []],
  ])('%s', (_what, doc, current, expected) => {
    expect(replacedDocuments(doc, current).map((d) => d.id)).toEqual(expected);
  });

  it('a staff member stays compliant with an early renewal awaiting its check, until the verified one expires', () => {
    const kept = doc(DBS, 'verified', '2027-03-21');
    const renewal = doc(DBS, 'awaiting', '2030-03-01');
    const rtw = doc(RTW, 'verified', null);
    const current = [kept, rtw, renewal];
    const left = current.filter((d) => !replacedDocuments(renewal, current).includes(d));
    expect(assess(null, left)).toMatchObject({ compliant: true, missing: [], validUntil: '2027-03-21' });
    expect(assess(null, left, '2027-03-22')).toMatchObject({
      compliant: false,
      expired: [expect.objectContaining({ category: DBS })],
    });
  });
});

describe('isCompliantOn', () => {
  it.each([
    [true, null, '2026-03-15', true],
    [true, '2026-03-15', '2026-03-15', true],
    [true, '2026-03-16', '2026-03-15', true],
    [true, '2026-03-14', '2026-03-15', false],
    [false, null, '2026-03-15', false],
    [false, '2030-01-01', '2026-03-15', false],
  ])('complete %s, valid until %s, on %s: %s', (complete, validUntil, date, expected) => {
    expect(isCompliantOn(complete, validUntil, date)).toBe(expected);
  });
});

describe('describeCompliance', () => {
  it.each([
    [
      'missing and expired',
      CARER,
      [doc(DBS, 'awaiting', null), doc(MANUAL, 'verified', '2026-03-03')],
      'Missing: DBS certificate, Right to work. Expired: Manual handling training (expired 3 Mar 2026).',
    ],
    ['compliant, never expiring', null, [doc(DBS, 'verified', null), doc(RTW, 'verified', null)], 'Compliant.'],
    [
      'compliant until a date',
      null,
      [doc(DBS, 'verified', '2026-11-03'), doc(RTW, 'verified', null)],
      'Compliant until 3 Nov 2026.',
    ],
    [
      'compliant with documents expiring',
      CARER,
      [doc(DBS, 'verified', '2026-03-15'), doc(RTW, 'verified', '2026-03-16'), doc(MANUAL, 'verified', '2026-04-01')],
      'Compliant until 15 Mar 2026. Expiring soon: DBS certificate (expires today, 15 Mar 2026), ' +
        'Right to work (expires 16 Mar 2026, in 1 day), Manual handling training (expires 1 Apr 2026, in 17 days).',
    ],
    [
      'expired and expiring',
      NURSE,
      [
        doc(DBS, 'verified', '2026-02-01'),
        doc(RTW, 'verified', '2025-12-31'),
        doc(NMC, 'verified', '2026-03-25'),
        doc(MANUAL, 'rejected', null),
      ],
      'Missing: Manual handling training. Expired: Right to work (expired 31 Dec 2025), DBS certificate (expired 1 Feb 2026). ' +
        'Expiring soon: NMC PIN (expires 25 Mar 2026, in 10 days).',
    ],
  ])('%s', (_, role, documents, text) => {
    expect(describeCompliance(assess(role, documents))).toBe(text);
  });
});

describe('properties', () => {
  // Few categories and mostly verified, current documents, so that complete staff (where the dates decide) are
  // common; category 99 is one nobody requires.
  const categoryIds = [1, 2, 3, 4];
  const categories = fc.tuple(
    ...categoryIds.map((id) =>
      fc.record({
        id: fc.constant(id),
        name: fc.constant(`Category ${id}`),
        mandatory: fc.boolean(),
        job_role_ids: fc.subarray([1, 2, 3]),
      }),
    ),
  );
  // Dates over a narrow range, so expiries often fall on, just before and just after "today".
  const date = plainDate('2026-01-01', '2026-04-30');
  const documents = fc.array(
    fc.record({
      id: fc.nat(),
      document_category_id: fc.constantFrom(...categoryIds, 99),
      status: fc.oneof(
        { arbitrary: fc.constant('verified' as const), weight: 4 },
        { arbitrary: fc.constantFrom(...DOCUMENT_STATUSES.filter((st) => st !== 'verified')), weight: 1 },
      ),
      expiry_date: fc.option(date, { nil: null, freq: 4 }),
      superseded: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
    }),
    { maxLength: 12 },
  );
  const jobRole = fc.option(fc.constantFrom(1, 2, 3), { nil: null });
  // Documents and a today that often falls on, or a day either side of, one of their expiries: the edges.
  const documentsAndToday = documents.chain((docs) => {
    const expiries = docs.flatMap((d) =>
      d.expiry_date && d.status === 'verified' && !d.superseded ? [d.expiry_date] : [],
    );
    if (expiries.length === 0) return fc.tuple(fc.constant(docs), date);
    const nearExpiry = fc
      .tuple(fc.constantFrom(...expiries), fc.integer({ min: -1, max: 1 }))
      .map(([e, n]) => addDaysToDate(e, n));
    return fc.tuple(fc.constant(docs), fc.oneof({ arbitrary: nearExpiry, weight: 3 }, { arbitrary: date, weight: 1 }));
  });

  test.prop([jobRole, categories, documentsAndToday], { numRuns: 1000 })(
    'compliant === isCompliantOn(complete, validUntil, today), for any today',
    (jobRoleId, cats, [docs, today]) => {
      const result = assessCompliance({ jobRoleId, categories: cats, documents: docs, today });
      expect(result.compliant).toBe(isCompliantOn(result.complete, result.validUntil, today));
    },
  );

  test.prop([jobRole, categories, documentsAndToday, date])(
    'complete and validUntil do not depend on today, so storing them stays right as days pass',
    (jobRoleId, cats, [docs, today], otherDay) => {
      const a = assessCompliance({ jobRoleId, categories: cats, documents: docs, today });
      const b = assessCompliance({ jobRoleId, categories: cats, documents: docs, today: otherDay });
      expect([b.complete, b.validUntil]).toEqual([a.complete, a.validUntil]);
      expect(b.compliant).toBe(isCompliantOn(a.complete, a.validUntil, otherDay));
    },
  );

  test.prop([jobRole, categories, documentsAndToday])(
    'compliant exactly when every required category has some current verified document not past its expiry',
    (jobRoleId, cats, [docs, today]) => {
      const required = cats.filter((c) => c.mandatory || (jobRoleId !== null && c.job_role_ids.includes(jobRoleId)));
      const holds = (c: ComplianceCategory) =>
        docs.some(
          (d) =>
            d.document_category_id === c.id &&
            !d.superseded &&
            d.status === 'verified' &&
            (d.expiry_date === null || d.expiry_date >= today),
        );
      const result = assessCompliance({ jobRoleId, categories: cats, documents: docs, today });
      expect(result.compliant).toBe(required.every(holds));
      // Every required category is exactly one of: missing, expired, or held (possibly expiring).
      const expiredIds = result.expired.map((n) => n.category.id);
      for (const c of required) {
        const isMissing = result.missing.includes(c);
        const isExpired = expiredIds.includes(c.id);
        expect(Number(isMissing) + Number(isExpired) + Number(holds(c))).toBe(1);
      }
      for (const n of result.expiring) {
        expect(holds(n.category)).toBe(true);
        expect(n.daysLeft).toBeGreaterThanOrEqual(0);
        expect(n.daysLeft).toBeLessThanOrEqual(30);
      }
    },
  );

  test.prop([jobRole, categories, documents, documents, date])(
    'superseded documents never change the result',
    (jobRoleId, cats, docs, extra, today) => {
      const replaced = extra.map((d) => ({ ...d, superseded: true }));
      const without = assessCompliance({ jobRoleId, categories: cats, documents: docs, today });
      const withReplaced = assessCompliance({
        jobRoleId,
        categories: cats,
        documents: [...replaced, ...docs, ...replaced],
        today,
      });
      expect(withReplaced).toEqual(without);
    },
  );
});

describe('complianceOn (a past day, from the documents valid by then)', () => {
  const on = (documents: [ComplianceCategory, string | null, string, boolean?][], date: string, role = CARER) =>
    complianceOn({
      jobRoleId: role,
      categories: CATEGORIES,
      documents: documents.map(([category, expiry, uploaded, superseded]) => ({
        ...doc(category, 'verified', expiry, superseded ?? false),
        valid_from: uploaded,
      })),
      date,
    });
  it.each<[string, [ComplianceCategory, string | null, string, boolean?][], string, string]>([
    [
      'every document valid well beyond the day',
      [
        [DBS, null, '2025-01-01'],
        [RTW, '2027-01-01', '2025-01-01'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'compliant',
    ],
    [
      'one due within 30 days of the day',
      [
        [DBS, null, '2025-01-01'],
        [RTW, '2026-04-14', '2025-01-01'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'expiring',
    ],
    [
      'one 31 days ahead is not yet due',
      [
        [DBS, null, '2025-01-01'],
        [RTW, '2026-04-15', '2025-01-01'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'compliant',
    ],
    [
      'expiring on the day itself still counts',
      [
        [DBS, null, '2025-01-01'],
        [RTW, '2026-03-15', '2025-01-01'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'expiring',
    ],
    [
      'expired the day before',
      [
        [DBS, null, '2025-01-01'],
        [RTW, '2026-03-14', '2025-01-01'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'not_compliant',
    ],
    [
      'a document issued after the day did not count then',
      [
        [DBS, null, '2025-01-01'],
        [RTW, null, '2026-03-16'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'not_compliant',
    ],
    [
      'issued on the day counts',
      [
        [DBS, null, '2025-01-01'],
        [RTW, null, '2026-03-15'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'compliant',
    ],
    [
      'a version replaced since counted then',
      [
        [DBS, null, '2025-01-01'],
        [RTW, '2026-06-01', '2025-01-01', true],
        [RTW, '2028-06-01', '2026-05-20'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'compliant',
    ],
    [
      'the renewal issued later does not rescue an expired one',
      [
        [DBS, null, '2025-01-01'],
        [RTW, '2026-03-01', '2025-01-01', true],
        [RTW, '2028-06-01', '2026-03-20'],
        [MANUAL, null, '2025-01-01'],
      ],
      '2026-03-15',
      'not_compliant',
    ],
    [
      'a category the role needs missing',
      [
        [DBS, null, '2025-01-01'],
        [RTW, null, '2025-01-01'],
      ],
      '2026-03-15',
      'not_compliant',
    ],
  ])('%s', (_, documents, date, want) => {
    expect(on(documents, date)).toBe(want);
  });
  it('a document awaiting its check or rejected never counts', () => {
    const documents = [DBS, RTW, MANUAL].map((c, i) => ({
      ...doc(c, i === 1 ? 'rejected' : 'verified', null),
      valid_from: '2025-01-01',
    }));
    expect(complianceOn({ jobRoleId: CARER, categories: CATEGORIES, documents, date: TODAY })).toBe('not_compliant');
  });
});
