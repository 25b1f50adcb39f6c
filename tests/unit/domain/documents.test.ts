// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  DOCUMENT_REPORT_VIEWS,
  DOCUMENT_STATUSES,
  DUE_WITHIN_DAYS,
  daysLeft,
  defaultExpiry,
  documentReportView,
  expiryState,
  matchesDocumentReportView,
  resolveDocumentReportView,
  type DocumentStatus,
} from '../../../core/domain/compliance/documents';
import { agencyToday } from '../../../core/domain/time/agencyTime';
import { plainDate } from './arbitraries';

describe('defaultExpiry', () => {
  it.each([
    ['2025-01-31', 1, '2025-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2026-03-15', 12, '2027-03-15'],
    ['2026-03-15', 36, '2029-03-15'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2026-08-31', 3, '2026-11-30'],
    ['2026-03-15', 120, '2036-03-15'],
  ])('%s + %i months is %s', (issue, months, expiry) => {
    expect(defaultExpiry(issue, months)).toBe(expiry);
  });

  it('a category with no validity gives no expiry', () => {
    expect(defaultExpiry('2026-03-15', null)).toBeNull();
  });
});

describe('expiryState and daysLeft', () => {
  it.each([
    // [expiry, today, dueWithinDays, state, daysLeft]
    [null, '2026-03-15', 30, 'no_expiry', null],
    ['2026-03-14', '2026-03-15', 30, 'expired', -1],
    ['2025-03-15', '2026-03-15', 30, 'expired', -365],
    ['2026-03-15', '2026-03-15', 30, 'due', 0], // good through its expiry day
    ['2026-03-16', '2026-03-15', 30, 'due', 1],
    ['2026-04-14', '2026-03-15', 30, 'due', 30], // 30 days ahead: still due
    ['2026-04-15', '2026-03-15', 30, 'valid', 31],
    ['2026-05-14', '2026-03-15', 60, 'due', 60],
    ['2026-05-15', '2026-03-15', 60, 'valid', 61],
    ['2026-03-22', '2026-03-15', 7, 'due', 7],
    ['2026-03-23', '2026-03-15', 7, 'valid', 8],
    ['2026-03-15', '2026-03-15', 0, 'due', 0],
    ['2026-03-16', '2026-03-15', 0, 'valid', 1],
  ] as const)('expiry %s on %s (due within %i days) is %s with %s days left', (expiry, today, within, state, left) => {
    expect(expiryState(expiry, today, within)).toBe(state);
    expect(daysLeft(expiry, today)).toBe(left);
  });

  it('is due within 30 days by default', () => {
    expect(DUE_WITHIN_DAYS).toBe(30);
    expect(expiryState('2026-04-14', '2026-03-15')).toBe('due');
    expect(expiryState('2026-04-15', '2026-03-15')).toBe('valid');
  });

  it("turns at the agency's midnight, not the machine's or UTC's", () => {
    // 23:30 UTC on 31 March 2026 is 00:30 BST on 1 April: a document expiring on 31 March has expired in London.
    const summerNight = new Date('2026-03-31T23:30:00Z');
    expect(expiryState('2026-03-31', agencyToday('Europe/London', summerNight))).toBe('expired');
    expect(daysLeft('2026-03-31', agencyToday('Europe/London', summerNight))).toBe(-1);
    // On a UTC clock it is still 31 March, its last good day.
    expect(expiryState('2026-03-31', agencyToday('UTC', summerNight))).toBe('due');
    // In winter London is on UTC: both still say 15 January, the document's last good day.
    const winterNight = new Date('2026-01-15T23:30:00Z');
    expect(expiryState('2026-01-15', agencyToday('Europe/London', winterNight))).toBe('due');
    expect(expiryState('2026-01-15', agencyToday('UTC', winterNight))).toBe('due');
    expect(expiryState('2026-01-15', agencyToday('Europe/London', new Date('2026-01-16T00:00:00Z')))).toBe('expired');
  });

  test.prop([
    plainDate('2000-01-01', '2100-12-31'),
    plainDate('2000-01-01', '2100-12-31'),
    fc.integer({ min: 0, max: 400 }),
  ])('expired exactly when expiry < today; due exactly when 0 ≤ daysLeft ≤ dueWithinDays', (expiry, today, within) => {
    const state = expiryState(expiry, today, within);
    const left = daysLeft(expiry, today);
    expect(state === 'expired').toBe(expiry < today);
    expect(state === 'expired').toBe(left < 0);
    expect(state === 'due').toBe(left >= 0 && left <= within);
    expect(state === 'valid').toBe(left > within);
  });
});

type Doc = { status: DocumentStatus; expiry_date: string | null; superseded: boolean };
const doc = (expiry_date: string | null, status: DocumentStatus = 'verified', superseded = false): Doc => ({
  status,
  expiry_date,
  superseded,
});

describe('document report views', () => {
  const TODAY = '2026-03-15';

  it('has the five views of the report, in order', () => {
    expect(DOCUMENT_REPORT_VIEWS.map((v) => v.key)).toEqual([
      'AllDoc',
      'ActiveDocument',
      'DueDoc',
      'ExpiredDoc',
      'DueDoc60Days',
    ]);
    expect(documentReportView('DueDoc')?.label).toBe('Due within 30 days');
    expect(documentReportView('SomethingElse')).toBeUndefined();
  });

  it.each([
    ['AllDoc', { status: null, expiry: null }],
    ['ActiveDocument', { status: 'verified', expiry: { from: '2026-03-15', to: null, orNoExpiry: true } }],
    ['DueDoc', { status: null, expiry: { from: '2026-03-15', to: '2026-04-14', orNoExpiry: false } }],
    ['ExpiredDoc', { status: null, expiry: { from: null, to: '2026-03-14', orNoExpiry: false } }],
    ['DueDoc60Days', { status: null, expiry: { from: '2026-03-15', to: '2026-05-14', orNoExpiry: false } }],
  ])('%s on 2026-03-15 resolves to concrete dates', (key, filter) => {
    expect(resolveDocumentReportView(documentReportView(key)!, TODAY)).toEqual(filter);
  });

  it.each([
    // [document, views it belongs to on 2026-03-15]
    [doc('2026-03-15'), ['AllDoc', 'ActiveDocument', 'DueDoc', 'DueDoc60Days']],
    [doc('2026-03-14'), ['AllDoc', 'ExpiredDoc']],
    [doc('2026-04-14'), ['AllDoc', 'ActiveDocument', 'DueDoc', 'DueDoc60Days']],
    [doc('2026-04-15'), ['AllDoc', 'ActiveDocument', 'DueDoc60Days']],
    [doc('2026-05-14'), ['AllDoc', 'ActiveDocument', 'DueDoc60Days']],
    [doc('2026-05-15'), ['AllDoc', 'ActiveDocument']],
    [doc(null), ['AllDoc', 'ActiveDocument']],
    [doc('2026-03-20', 'awaiting'), ['AllDoc', 'DueDoc', 'DueDoc60Days']],
    [doc(null, 'awaiting'), ['AllDoc']],
    [doc('2026-01-01', 'rejected'), ['AllDoc', 'ExpiredDoc']],
    [doc('2026-03-20', 'verified', true), []], // replaced: only in the staff member's history
    [doc('2026-01-01', 'verified', true), []],
  ])('%j is in %j', (document, views) => {
    const matching = DOCUMENT_REPORT_VIEWS.filter((v) => matchesDocumentReportView(v, document, TODAY)).map(
      (v) => v.key,
    );
    expect(matching).toEqual(views);
  });

  const anyDoc = fc.record({
    status: fc.constantFrom(...DOCUMENT_STATUSES),
    expiry_date: fc.option(plainDate('2025-06-01', '2027-06-01'), { nil: null }),
    superseded: fc.boolean(),
  });

  test.prop([anyDoc, plainDate('2025-06-01', '2027-06-01')])('each view agrees with expiryState', (d, today) => {
    const inView = (key: string) => matchesDocumentReportView(documentReportView(key)!, d, today);
    const current = !d.superseded;
    expect(inView('AllDoc')).toBe(current);
    expect(inView('DueDoc')).toBe(current && expiryState(d.expiry_date, today, 30) === 'due');
    expect(inView('DueDoc60Days')).toBe(current && expiryState(d.expiry_date, today, 60) === 'due');
    expect(inView('ExpiredDoc')).toBe(current && expiryState(d.expiry_date, today) === 'expired');
    expect(inView('ActiveDocument')).toBe(
      current && d.status === 'verified' && expiryState(d.expiry_date, today) !== 'expired',
    );
  });
});
