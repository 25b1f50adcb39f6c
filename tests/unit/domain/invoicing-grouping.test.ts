// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { instantToZoned } from '../../../core/domain/time/agencyTime';
import {
  groupInvoiceable,
  INVOICE_MODES,
  type ClientBilling,
  type InvoiceableItem,
  type InvoiceMode,
} from '../../../core/domain/invoicing/grouping';
import { plainDate } from './arbitraries';

// Issue 32.1: which invoiceable items go on which invoice. Calendar facts the tables rest on (any calendar): 2 March
// 2026 and 30 March 2026 are Mondays; 29 March and 25 October 2026 are the Sundays British Summer Time starts and
// ends; 1 February and 1 March 2026 are Sundays; 31 January 2026 is a Saturday; 2024 is a leap year; the ISO week of
// 29 December 2025 (a Monday) ends on Sunday 4 January 2026.
const LONDON = 'Europe/London';
let nextId = 1;
const item = (over: Partial<InvoiceableItem> & { date: string }): InvoiceableItem => ({
  kind: 'timesheet_line',
  id: nextId++,
  client_id: 1,
  site_id: 10,
  staff_id: 100,
  shift_id: nextId + 1000,
  po_number: null,
  net: 10_000,
  ...over,
});
/** Each group as 'client/from..to[/site][/staff][/shift][/po]: dates of its items'. */
const summary = (items: InvoiceableItem[], mode: InvoiceMode, billing?: Record<number, ClientBilling>) =>
  groupInvoiceable(items, mode, (c) => billing?.[c]).groups.map(
    (g) =>
      `${g.client_id}/${g.from}..${g.to}` +
      (g.site_id ? `/site ${g.site_id}` : '') +
      (g.staff_id ? `/staff ${g.staff_id}` : '') +
      (g.shift_id ? `/shift ${g.shift_id}` : '') +
      (g.po_number ? `/po ${g.po_number}` : '') +
      `: ${g.items.map((i) => i.date.slice(5)).join(' ')}`,
  );

describe('groupInvoiceable by mode', () => {
  it.each<[string, InvoiceMode, InvoiceableItem[], string[]]>([
    [
      'Weekly: Monday to Sunday, a Sunday ends the week and the Monday starts the next',
      'Weekly',
      [item({ date: '2026-03-08' }), item({ date: '2026-03-02' }), item({ date: '2026-03-09' })],
      ['1/2026-03-02..2026-03-08: 03-02 03-08', '1/2026-03-09..2026-03-15: 03-09'],
    ],
    [
      'Weekly: a week across the new year is one week',
      'Weekly',
      [item({ date: '2025-12-31' }), item({ date: '2026-01-04' }), item({ date: '2026-01-05' })],
      ['1/2025-12-29..2026-01-04: 12-31 01-04', '1/2026-01-05..2026-01-11: 01-05'],
    ],
    [
      'Weekly: a week across a month end is one week',
      'Weekly',
      [item({ date: '2026-01-31' }), item({ date: '2026-02-01' }), item({ date: '2026-02-02' })],
      ['1/2026-01-26..2026-02-01: 01-31 02-01', '1/2026-02-02..2026-02-08: 02-02'],
    ],
    [
      'Weekly: one invoice per client, whatever the site or staff',
      'Weekly',
      [
        item({ date: '2026-03-03', client_id: 2 }),
        item({ date: '2026-03-02', site_id: 11, staff_id: 101 }),
        item({ date: '2026-03-04' }),
      ],
      ['1/2026-03-02..2026-03-08: 03-02 03-04', '2/2026-03-02..2026-03-08: 03-03'],
    ],
    [
      'daily: one per client and day',
      'daily',
      [item({ date: '2026-03-02' }), item({ date: '2026-03-02', staff_id: 101 }), item({ date: '2026-03-03' })],
      ['1/2026-03-02..2026-03-02: 03-02 03-02', '1/2026-03-03..2026-03-03: 03-03'],
    ],
    [
      'monthly: calendar months, 28 days in February 2026, a month end on a Saturday',
      'monthly',
      [
        item({ date: '2026-01-31' }),
        item({ date: '2026-02-01' }),
        item({ date: '2026-02-28' }),
        item({ date: '2026-03-01' }),
      ],
      ['1/2026-01-01..2026-01-31: 01-31', '1/2026-02-01..2026-02-28: 02-01 02-28', '1/2026-03-01..2026-03-31: 03-01'],
    ],
    [
      'monthly: February of a leap year ends on the 29th',
      'monthly',
      [item({ date: '2024-02-29' }), item({ date: '2024-03-01' })],
      ['1/2024-02-01..2024-02-29: 02-29', '1/2024-03-01..2024-03-31: 03-01'],
    ],
    [
      'shift_staff: one per shift and staff member; a cancellation charge joins its shift',
      'shift_staff',
      [
        item({ date: '2026-03-02', shift_id: 7, staff_id: 100 }),
        item({ date: '2026-03-02', shift_id: 7, staff_id: 101 }),
        item({ date: '2026-03-02', shift_id: 7, staff_id: 100, kind: 'cancellation' }),
        item({ date: '2026-03-03', shift_id: 8, staff_id: 100 }),
      ],
      [
        '1/2026-03-02..2026-03-02/staff 100/shift 7: 03-02 03-02',
        '1/2026-03-02..2026-03-02/staff 101/shift 7: 03-02',
        '1/2026-03-03..2026-03-03/staff 100/shift 8: 03-03',
      ],
    ],
    [
      'staff_weekly: one per staff member per week for each client',
      'staff_weekly',
      [
        item({ date: '2026-03-02', staff_id: 100 }),
        item({ date: '2026-03-08', staff_id: 100 }),
        item({ date: '2026-03-03', staff_id: 101 }),
        item({ date: '2026-03-04', staff_id: 100, client_id: 2 }),
        item({ date: '2026-03-09', staff_id: 100 }),
      ],
      [
        '1/2026-03-02..2026-03-08/staff 100: 03-02 03-08',
        '1/2026-03-02..2026-03-08/staff 101: 03-03',
        '1/2026-03-09..2026-03-15/staff 100: 03-09',
        '2/2026-03-02..2026-03-08/staff 100: 03-04',
      ],
    ],
  ])('%s', (_name, mode, items, expected) => {
    expect(summary(items, mode)).toEqual(expected);
  });
});

describe('groupInvoiceable across the daylight-saving weekends in Europe/London', () => {
  // The item's date is the shift's start on the agency's calendar: instants read in London, not in UTC.
  const startingAt = (iso: string) => item({ date: instantToZoned(new Date(iso), LONDON).date });
  it.each<[string, string[], InvoiceMode, string[]]>([
    [
      'clocks forward: a Sunday night shift from 22:00 BST on 29 March is in the week of 23 March',
      ['2026-03-29T21:00:00Z', '2026-03-28T20:00:00Z'],
      'Weekly',
      ['1/2026-03-23..2026-03-29: 03-28 03-29'],
    ],
    [
      'clocks forward: 00:30 BST on Monday 30 March (23:30 UTC on the Sunday) starts the next week',
      ['2026-03-29T23:30:00Z', '2026-03-29T12:00:00Z'],
      'Weekly',
      ['1/2026-03-23..2026-03-29: 03-29', '1/2026-03-30..2026-04-05: 03-30'],
    ],
    [
      'clocks back: 00:30 BST on Sunday 25 October (23:30 UTC on the Saturday) is the Sunday',
      ['2026-10-24T23:30:00Z', '2026-10-24T12:00:00Z'],
      'daily',
      ['1/2026-10-24..2026-10-24: 10-24', '1/2026-10-25..2026-10-25: 10-25'],
    ],
    [
      'clocks back: 23:30 GMT on Sunday 25 October is still the Sunday, in the week of 19 October',
      ['2026-10-25T23:30:00Z', '2026-10-26T00:30:00Z'],
      'Weekly',
      ['1/2026-10-19..2026-10-25: 10-25', '1/2026-10-26..2026-11-01: 10-26'],
    ],
    [
      'a month that ends in summer time: 00:30 BST on 1 June (23:30 UTC on 31 May) is June',
      ['2026-05-31T23:30:00Z', '2026-05-31T22:30:00Z'],
      'monthly',
      ['1/2026-05-01..2026-05-31: 05-31', '1/2026-06-01..2026-06-30: 06-01'],
    ],
  ])('%s', (_name, starts, mode, expected) => {
    expect(summary(starts.map(startingAt), mode)).toEqual(expected);
  });
});

describe('a client’s billing settings', () => {
  const items = () => [
    item({ date: '2026-03-02', site_id: 10, po_number: 'PO-1' }),
    item({ date: '2026-03-03', site_id: 11, po_number: 'PO-1' }),
    item({ date: '2026-03-04', site_id: 10, po_number: 'PO-2' }),
    item({ date: '2026-03-05', site_id: 10, po_number: '  ' }),
  ];
  it.each<[string, ClientBilling, string[], string[]]>([
    ['none: one invoice', {}, ['1/2026-03-02..2026-03-08: 03-02 03-03 03-04 03-05'], []],
    [
      'split by site',
      { split_by_site: true },
      ['1/2026-03-02..2026-03-08/site 10: 03-02 03-04 03-05', '1/2026-03-02..2026-03-08/site 11: 03-03'],
      [],
    ],
    [
      'split by PO: a line without a PO gets an invoice of its own',
      { split_by_po: true },
      [
        '1/2026-03-02..2026-03-08/po PO-1: 03-02 03-03',
        '1/2026-03-02..2026-03-08/po PO-2: 03-04',
        '1/2026-03-02..2026-03-08: 03-05',
      ],
      [],
    ],
    [
      'PO required: one invoice per PO, and a line without one (blank counts) is not invoiced',
      { po_required: true },
      ['1/2026-03-02..2026-03-08/po PO-1: 03-02 03-03', '1/2026-03-02..2026-03-08/po PO-2: 03-04'],
      ['03-05'],
    ],
    [
      'site and PO together',
      { split_by_site: true, po_required: true },
      [
        '1/2026-03-02..2026-03-08/site 10/po PO-1: 03-02',
        '1/2026-03-02..2026-03-08/site 10/po PO-2: 03-04',
        '1/2026-03-02..2026-03-08/site 11/po PO-1: 03-03',
      ],
      ['03-05'],
    ],
  ])('%s', (_name, settings, expected, lacking) => {
    const its = items();
    expect(summary(its, 'Weekly', { 1: settings })).toEqual(expected);
    const result = groupInvoiceable(its, 'Weekly', () => settings);
    expect(result.lackingPo.map((i) => i.date.slice(5))).toEqual(lacking);
  });

  it('applies each client’s own settings', () => {
    const its = [item({ date: '2026-03-02', client_id: 1 }), item({ date: '2026-03-02', client_id: 2 })];
    const result = groupInvoiceable(its, 'Weekly', (c) => (c === 2 ? { po_required: true } : undefined));
    expect(result.groups.map((g) => g.client_id)).toEqual([1]);
    expect(result.lackingPo.map((i) => i.client_id)).toEqual([2]);
  });

  it('keeps PO numbers that hold the key’s separators apart', () => {
    const its = [item({ date: '2026-03-02', po_number: 'A","B' }), item({ date: '2026-03-02', po_number: 'A' })];
    expect(groupInvoiceable(its, 'Weekly', () => ({ split_by_po: true })).groups).toHaveLength(2);
  });

  it('refuses a mode it does not know', () => {
    expect(() => groupInvoiceable([], 'weekly' as InvoiceMode)).toThrow(/Not an invoice mode/);
  });
});

describe('groupInvoiceable, properties', () => {
  const anItem = fc.record({
    kind: fc.constantFrom('timesheet_line' as const, 'cancellation' as const),
    client_id: fc.integer({ min: 1, max: 3 }),
    site_id: fc.integer({ min: 1, max: 3 }),
    staff_id: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    shift_id: fc.integer({ min: 1, max: 6 }),
    date: plainDate('2025-12-01', '2026-04-10'),
    po_number: fc.option(fc.constantFrom('PO-1', 'PO-2', ''), { nil: null }),
    net: fc.integer({ min: 0, max: 100_000 }),
  });
  const items = fc
    .array(anItem, { maxLength: 40 })
    .map((xs) => xs.map((x, i) => ({ ...x, id: i + 1 }) as InvoiceableItem));
  const settings = fc.record({ split_by_site: fc.boolean(), split_by_po: fc.boolean(), po_required: fc.boolean() });
  const mode = fc.constantFrom(...INVOICE_MODES);

  test.prop([items, mode, fc.array(settings, { minLength: 3, maxLength: 3 })])(
    'every item is invoiced once or named as lacking a PO; a group holds one client, within its period',
    (its, m, perClient) => {
      const r = groupInvoiceable(its, m, (c) => perClient[c - 1]);
      const placed = [...r.groups.flatMap((g) => g.items), ...r.lackingPo].map((i) => i.id).sort((a, b) => a - b);
      expect(placed).toEqual(its.map((i) => i.id));
      for (const g of r.groups) {
        expect(g.items.length).toBeGreaterThan(0);
        for (const i of g.items) {
          expect(i.client_id).toBe(g.client_id);
          expect(i.date >= g.from && i.date <= g.to).toBe(true);
          if (g.site_id !== null) expect(i.site_id).toBe(g.site_id);
        }
      }
      for (const i of r.lackingPo) expect(perClient[i.client_id - 1].po_required && !i.po_number?.trim()).toBe(true);
    },
  );

  test.prop([items, mode, settings, fc.infiniteStream(fc.nat())])(
    'the same items in any order give the same groups and keys (a repeated run maps to the same invoices)',
    (its, m, s, seeds) => {
      const shuffled = [...its].sort(() => (seeds.next().value % 3) - 1);
      expect(groupInvoiceable(shuffled, m, () => s)).toEqual(groupInvoiceable(its, m, () => s));
    },
  );

  test.prop([items, settings])(
    'a day’s invoice and a staff member’s week lie within one week’s invoice; weeks start on a Monday',
    (its, s) => {
      const weekOf = new Map<number, string>();
      for (const g of groupInvoiceable(its, 'Weekly', () => s).groups) for (const i of g.items) weekOf.set(i.id, g.key);
      for (const g of groupInvoiceable(its, 'daily', () => s).groups)
        expect(new Set(g.items.map((i) => weekOf.get(i.id))).size).toBe(1);
      for (const g of groupInvoiceable(its, 'staff_weekly', () => s).groups)
        expect(new Set(g.items.map((i) => weekOf.get(i.id))).size).toBe(1);
      for (const g of groupInvoiceable(its, 'Weekly', () => s).groups) {
        expect(g.from <= g.to).toBe(true);
        expect(new Date(`${g.from}T00:00:00Z`).getUTCDay()).toBe(1);
      }
    },
  );
});
