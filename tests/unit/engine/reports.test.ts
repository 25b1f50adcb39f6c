// @vitest-environment node
// Declared reports (issue 34): the periods, who receives which measure, the declarations' checks, the SQL a report
// builds (scope, conditions, buckets, ratios from sums) and how its values are written out. The figures themselves
// are checked against a recount on both databases in tests/api/reports.test.ts.
import { describe, expect, it } from 'vitest';
import { compileAll } from '../../../server/engine/routes';
import { parseReportQuery, reportSql, resolvePath } from '../../../server/engine/reports';
import {
  daysPastOf,
  withinDaysPast,
  periodOf,
  plainName,
  receivedMeasures,
  reportProblems,
  sourceProblems,
  taxYearOf,
  type ReportDeclaration,
} from '../../../core/engine/reports';
import {
  bucketName,
  formatReportValue,
  reportCell,
  reportFileName,
  reportHeader,
} from '../../../core/engine/reportFormat';
import {
  AGE_BUCKETS,
  REPORT_DECLARATIONS,
  ageBucketOf,
  agedDebtReport,
  clientReport,
  vatReport,
} from '../../../core/resources/reports';
import { declarationByName } from '../../../core/resources/declarations';
import type { ResourceDeclaration } from '../../../core/engine/types';
import type { EnginePrincipal } from '../../../server/engine/context';

const firms: ResourceDeclaration = {
  name: 'firms',
  table: 'firms',
  label: { one: 'Firm', many: 'Firms' },
  recordRepresentation: '%{name} (%{code})',
  defaultSort: { field: 'name', order: 'ASC' },
  delete: 'hard',
  clientScope: 'id',
  access: { admin: ['list'], manager: ['show'] },
  fields: [
    { source: 'name', type: 'text', label: 'Name' },
    { source: 'code', type: 'text', label: 'Code', readableBy: ['admin'] },
  ],
};
const gigs: ResourceDeclaration = {
  name: 'gigs',
  table: 'gigs',
  label: { one: 'Gig', many: 'Gigs' },
  recordRepresentation: '%{id}',
  defaultSort: { field: 'start_at', order: 'ASC' },
  delete: 'hard',
  clientScope: 'firm_id',
  access: { admin: ['list'], manager: ['list'] },
  fields: [
    { source: 'firm_id', type: 'reference', reference: 'firms', label: 'Firm', filter: true },
    { source: 'start_at', type: 'datetime', label: 'Starts', filter: true },
    { source: 'status', type: 'choice', label: 'Status', choices: [{ id: 'open', name: 'Open' }] },
    { source: 'charge', type: 'money', label: 'Charge' },
    { source: 'margin', type: 'money', label: 'Margin', readableBy: ['admin'] },
    { source: 'minutes', type: 'number', label: 'Minutes' },
    { source: 'due_on', type: 'date', label: 'Due' },
  ],
};
// A second source of the same figures: a gig's refunds, their date on their gig.
const refunds: ResourceDeclaration = {
  name: 'refunds',
  table: 'refunds',
  label: { one: 'Refund', many: 'Refunds' },
  recordRepresentation: '%{id}',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list'] },
  fields: [
    { source: 'gig_id', type: 'reference', reference: 'gigs', label: 'Gig' },
    { source: 'status', type: 'choice', label: 'Status', choices: [{ id: 'open', name: 'Open' }] },
    { source: 'charge', type: 'money', label: 'Charge' },
    { source: 'minutes', type: 'text', label: 'Minutes' },
  ],
};
const registry = compileAll([firms, gigs, refunds]);
const c = registry.get('gigs')!;

const gigReport: ReportDeclaration = {
  name: 'gig_report',
  label: 'Gig report',
  description: 'Gigs.',
  resource: 'gigs',
  roles: ['admin', 'manager'],
  exportRoles: ['admin'],
  where: [{ field: 'minutes', gt: 0 }],
  period: { field: 'start_at', label: 'Starting', default: 'this_week' },
  dimensions: [
    { id: 'firm', label: 'Firm', field: 'firm_id' },
    { id: 'week', label: 'Week beginning', field: 'start_at', bucket: 'week' },
  ],
  defaultGroup: ['firm'],
  measures: [
    { id: 'booked', label: 'Booked', kind: 'count', where: [{ field: 'status', in: ['open'] }] },
    { id: 'charge', label: 'Charge', kind: 'sum', field: 'charge', format: 'money' },
    { id: 'margin', label: 'Margin', kind: 'sum', field: 'margin', format: 'money' },
    {
      id: 'margin_pct',
      label: 'Margin %',
      kind: 'ratio',
      numerator: 'margin',
      denominator: 'charge',
      format: 'percent',
    },
  ],
  filters: ['firm_id'],
  defaultSort: { by: 'charge', order: 'desc' },
};

const who = (role: 'admin' | 'manager'): EnginePrincipal => ({
  userId: 1,
  name: 'Someone',
  loginType: role === 'admin' ? 'agency' : 'client',
  role,
  merchantId: 7,
  clientId: role === 'manager' ? 3 : null,
});
const ctx = (role: 'admin' | 'manager') => ({ principal: who(role), today: '2026-11-25', timeZone: 'Europe/London' });

describe('periodOf: each preset as dates from the agency’s today', () => {
  it.each([
    ['this_week', '2026-11-25', { from: '2026-11-23', to: '2026-11-29' }],
    ['this_week', '2026-11-29', { from: '2026-11-23', to: '2026-11-29' }],
    ['last_week', '2026-11-23', { from: '2026-11-16', to: '2026-11-22' }],
    ['this_month', '2026-02-14', { from: '2026-02-01', to: '2026-02-28' }],
    ['last_month', '2026-03-31', { from: '2026-02-01', to: '2026-02-28' }],
    ['last_month', '2026-01-10', { from: '2025-12-01', to: '2025-12-31' }],
    ['last_12_weeks', '2026-11-25', { from: '2026-09-07', to: '2026-11-29' }],
    ['this_tax_year', '2026-04-05', { from: '2025-04-06', to: '2026-04-05' }],
    ['this_tax_year', '2026-04-06', { from: '2026-04-06', to: '2027-04-05' }],
    ['this_quarter', '2026-11-25', { from: '2026-10-01', to: '2026-12-31' }],
    ['this_quarter', '2026-01-01', { from: '2026-01-01', to: '2026-03-31' }],
    ['this_quarter', '2026-06-30', { from: '2026-04-01', to: '2026-06-30' }],
    ['last_quarter', '2026-01-01', { from: '2025-10-01', to: '2025-12-31' }],
    ['last_quarter', '2026-09-30', { from: '2026-04-01', to: '2026-06-30' }],
  ] as const)('%s on %s', (preset, today, want) => {
    expect(periodOf(preset, today)).toEqual(want);
  });
  it('custom: from and to, in order, else null', () => {
    expect(periodOf('custom', '2026-11-25', { from: '2026-01-01', to: '2026-01-31' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(periodOf('custom', '2026-11-25', { from: '2026-02-01', to: '2026-01-31' })).toBeNull();
    expect(periodOf('custom', '2026-11-25', { from: '2026-02-01' })).toBeNull();
    expect(periodOf('custom', '2026-11-25', { from: '1 Feb', to: '2026-03-01' })).toBeNull();
    expect(taxYearOf('2027-01-01')).toEqual({ from: '2026-04-06', to: '2027-04-05' });
  });
});

describe('receivedMeasures: a measure made of a field the reader may not read is absent', () => {
  const agencyOnly = new Set(['margin']);
  it.each([
    ['the agency', () => true, ['booked', 'charge', 'margin', 'margin_pct']],
    ['a client user', (f: string) => !agencyOnly.has(f), ['booked', 'charge']],
    // A ratio goes with either of its parts; a count with a field of its condition.
    ['no charge', (f: string) => f !== 'charge', ['booked', 'margin']],
    ['no status', (f: string) => f !== 'status', ['charge', 'margin', 'margin_pct']],
  ])('%s', (_who, mayRead, want) => {
    expect(receivedMeasures(gigReport, mayRead).map((m) => m.id)).toEqual(want);
  });
});

describe('reportProblems: a declaration’s mistakes are named', () => {
  it('the product’s reports have none against their resources', () => {
    // A field of the resource, or one reached through one of its references (client_id.business_unit_id).
    const fieldOf = (resource: string, path: string) => {
      const [head, rest] = path.split('.', 2);
      const f = declarationByName.get(resource)!.fields.find((x) => x.source === head);
      return rest === undefined || !f?.reference
        ? f
        : declarationByName.get(f.reference)!.fields.find((x) => x.source === rest);
    };
    for (const r of REPORT_DECLARATIONS) expect(reportProblems(r, (n) => fieldOf(r.resource, n))).toEqual([]);
  });
  it.each([
    [
      { dimensions: [{ id: 'firm', label: 'Firm', field: 'charge' }] },
      'gig_report.firm: charge is money, not a reference, choice or number',
    ],
    [
      { dimensions: [{ id: 'rate', label: 'Rate', field: 'status', basisPoints: true }] },
      'gig_report.rate: status is choice, not a number',
    ],
    [
      { dimensions: [{ id: 'w', label: 'W', field: 'charge', bucket: 'week' }] },
      'gig_report.w: charge is money, not a date',
    ],
    [
      { measures: [{ id: 'x', label: 'X', kind: 'sum', field: 'status', format: 'money' }] },
      'gig_report.x: status is not a money or number field',
    ],
    [
      { measures: [{ id: 'r', label: 'R', kind: 'ratio', numerator: 'a', denominator: 'b', format: 'percent' }] },
      'gig_report.r: a is no sum or count of the report',
    ],
    [{ defaultSort: { by: 'nope', order: 'asc' } }, 'gig_report.defaultSort: nope'],
    [{ period: { field: 'charge', label: 'P', default: 'this_week' } }, 'gig_report.period: charge'],
    [
      {
        measures: [{ id: 'late', label: 'L', kind: 'count', where: [{ field: 'start_at', daysPast: { min: 1 } }] }],
      },
      'gig_report.late: start_at is not a date for daysPast',
    ],
  ] as const)('%#: %s', (change, problem) => {
    const r = { ...gigReport, ...change } as ReportDeclaration;
    expect(reportProblems(r, (n) => c.byField.get(n))).toContain(problem);
  });
  it('a plain value may be a dimension: a choice, a number (of basis points)', () => {
    const r: ReportDeclaration = {
      ...gigReport,
      dimensions: [
        { id: 'status', label: 'Status', field: 'status' },
        { id: 'minutes', label: 'Minutes', field: 'minutes', basisPoints: true },
      ],
      defaultGroup: ['status'],
    };
    expect(reportProblems(r, (n) => c.byField.get(n))).toEqual([]);
  });
});

/** A field of a compiled test resource, or one reached through one of its references, as the server resolves it. */
const pathField = (resource: string, path: string) => resolvePath(registry.get(resource)!, path)?.field;

describe('resolvePath: a report path as the start-up check and the SQL both read it', () => {
  it('a field of the row, or one of the record a reference leads to; nothing else', () => {
    const refundsC = registry.get('refunds')!;
    expect(resolvePath(refundsC, 'charge')).toMatchObject({ via: [], field: { source: 'charge' }, owner: refundsC });
    const through = resolvePath(refundsC, 'gig_id.start_at');
    expect(through?.via.map((v) => [v.reference.source, v.target.decl.name])).toEqual([['gig_id', 'gigs']]);
    expect(through?.field.source).toBe('start_at');
    expect(through?.owner.decl.name).toBe('gigs');
    for (const bad of ['nope', 'gig_id.nope', 'status.open', 'gig_id.firm_id.name', 'gig_id.'])
      expect(resolvePath(refundsC, bad), bad).toBeUndefined();
  });
});

/** Gigs and their refunds, one report: the refunds dated by their gig's due day. */
const bothReport: ReportDeclaration = {
  name: 'both',
  label: 'Both',
  description: 'Gigs and refunds.',
  resource: 'gigs',
  sources: [
    { resource: 'gigs', where: [{ field: 'firm_id.name', in: ['Acme'] }], period: 'due_on' },
    { resource: 'refunds', period: 'gig_id.due_on' },
  ],
  roles: ['admin'],
  exportRoles: ['admin'],
  period: { field: 'due_on', label: 'Due', default: 'this_quarter' },
  dimensions: [{ id: 'status', label: 'Status', field: 'status' }],
  defaultGroup: ['status'],
  measures: [{ id: 'charge', label: 'Charge', kind: 'sum', field: 'charge', format: 'money' }],
  filters: [],
  defaultSort: { by: 'status', order: 'asc' },
};
describe('sourceProblems: a report of several sources', () => {
  // The product's reports are checked against the compiled resources in tests/api/reports.test.ts.
  it('the VAT by rate is over invoice lines and credit note lines; a report of two sources', () => {
    expect(vatReport.sources?.map((s) => s.resource)).toEqual(['invoice_lines', 'credit_note_lines']);
    expect(sourceProblems(bothReport, (res, path) => pathField(res, path))).toEqual([]);
  });
  it.each([
    [{ filters: ['firm_id'] }, 'both.filters: a report of several sources takes none'],
    [{ resource: 'refunds' }, 'both.sources: the first is not refunds'],
    [
      { measures: [{ id: 'm', label: 'M', kind: 'sum', field: 'margin', format: 'money' }], defaultSort: { by: 'm' } },
      'both: refunds has no margin',
    ],
    [{ dimensions: [{ id: 'mi', label: 'Mi', field: 'minutes' }] }, 'both: refunds.minutes is text, not as in gigs'],
    [
      {
        sources: [
          { resource: 'gigs', period: 'due_on' },
          { resource: 'refunds', period: 'gig_id.start_at' },
        ],
      },
      'both: refunds.gig_id.start_at is not a date',
    ],
    [
      {
        sources: [
          { resource: 'gigs', period: 'due_on' },
          { resource: 'refunds', where: [{ field: 'gig_id.nope' }] },
        ],
      },
      'both: refunds has no gig_id.nope',
    ],
    [{ sources: [{ resource: 'gigs', period: 'due_on' }, { resource: 'refunds' }] }, 'both: refunds has no period'],
  ] as const)('%#: %s', (change, problem) => {
    const r = { ...bothReport, ...change } as ReportDeclaration;
    expect(sourceProblems(r, (res, path) => pathField(res, path))).toContain(problem);
  });
  it('the union of each source’s list rows under its own conditions and period, a condition through a reference', () => {
    const q = parseReportQuery(bothReport, c, ctx('admin'), {});
    expect(q.period).toEqual({ preset: 'this_quarter', from: '2026-10-01', to: '2026-12-31' });
    const rows = reportSql(bothReport, c, ctx('admin'), q);
    const sql = rows.sql.replace(/\s+/g, ' ');
    expect(sql).toContain(
      'from (select "status" as "status", "charge" as "charge" from "gigs" left join lateral (select "name" as "reached_value" from "firms" where "firms".id = "gigs"."firm_id" and merchant_id = $2) as "reached_0" on true where merchant_id = $1 and "reached_0"."reached_value"::text = any($3::text[]) and "due_on" >= $4::date and "due_on" <= $5::date union all select "status" as "status", "charge" as "charge" from "refunds" left join lateral (select "due_on" as "reached_value" from "gigs" where "gigs".id = "refunds"."gig_id" and merchant_id = $7) as "reached_0" on true where merchant_id = $6 and "reached_0"."reached_value" >= $8::date and "reached_0"."reached_value" <= $9::date) as base where true group by 1',
    );
    // A plain value is its own name in SQL (named afterwards: plainName), sorted by itself.
    expect(sql).toContain('select g."d0" as "status", (g."a_charge")::bigint as "charge"');
    expect(sql).toMatch(/order by g\."d0" asc nulls last, g\."d0" asc limit 25 offset 0$/);
    expect(rows.params).toEqual([7, 7, ['Acme'], '2026-10-01', '2026-12-31', 7, 7, '2026-10-01', '2026-12-31']);
  });
  it('a plain value’s name: basis points as a percentage, a choice by its name, else the value', () => {
    const choices = [{ id: 'exempt', name: 'Exempt' }];
    expect(plainName({ basisPoints: true }, undefined, 2000)).toBe('20%');
    expect(plainName({ basisPoints: true }, undefined, '500')).toBe('5%');
    expect(plainName({ basisPoints: true }, undefined, 0)).toBe('0%');
    expect(plainName({ basisPoints: true }, undefined, 1750)).toBe('17.5%');
    expect(plainName({}, choices, 'exempt')).toBe('Exempt');
    expect(plainName({}, choices, 'other')).toBe('other');
    expect(plainName({}, undefined, null)).toBeNull();
  });
});

describe('reportSql: the statements a report runs', () => {
  it('groups the list’s rows (scope first) and works a ratio out from the groups’ sums', () => {
    const q = parseReportQuery(gigReport, c, ctx('admin'), { group: 'firm,week', firm_id: '4' });
    const rows = reportSql(gigReport, c, ctx('admin'), q);
    const sql = rows.sql.replace(/\s+/g, ' ');
    expect(sql).toContain(
      `with g as (select "firm_id" as "d0", date_trunc('week', ("start_at" at time zone $1))::date as "d1", count(*) filter (where "status"::text = any($2::text[])) as "a_booked", coalesce(sum("charge"), 0) as "a_charge", coalesce(sum("margin"), 0) as "a_margin" from "gigs" where merchant_id = $3 and "firm_id" = $4 and "start_at" >= $5 and "start_at" < $6 and "minutes" > $7 group by 1, 2)`,
    );
    expect(sql).toContain(
      `case when g."a_charge" = 0 then null else round(g."a_margin"::numeric / g."a_charge", 4) end as "margin_pct"`,
    );
    expect(sql).toMatch(
      /order by \(g\."a_charge"\)::bigint desc nulls last, g\."d0" asc, g\."d1" asc limit 25 offset 0$/,
    );
    // The week of 23 November 2026 on London's clock: Monday 00:00 GMT to the instant after Sunday.
    expect(rows.params.slice(0, 7)).toEqual([
      'Europe/London',
      ['open'],
      7,
      4,
      '2026-11-23T00:00:00.000Z',
      '2026-11-30T00:00:00.000Z',
      0,
    ]);
    // The totals in the same statement: each sum over every group, the ratio from those sums.
    expect(sql).toContain(
      'case when sum(g."a_charge") over () = 0 then null else round(sum(g."a_margin") over ()::numeric / sum(g."a_charge") over (), 4) end as "__t_margin_pct"',
    );
    expect(sql).toContain('(sum(g."a_charge") over ())::bigint as "__t_charge"');
  });

  it('names a referenced record by its representation, within the reader’s scope, leaving out what they may not read', () => {
    const admin = reportSql(gigReport, c, ctx('admin'), parseReportQuery(gigReport, c, ctx('admin'), {}));
    expect(admin.sql).toContain(`concat("firms"."name"::text,`);
    expect(admin.sql).toContain(`"firms"."code"::text`);
    expect(admin.sql).toMatch(/from "firms" where "firms"\.id = g\."d0" and merchant_id = \$\d+\)/);
  });

  it('a client user: their own client only, no margin, and no grouping by records they may not list', () => {
    const q = parseReportQuery(gigReport, c, ctx('manager'), { group: 'week' });
    expect(q.measures.map((m) => m.id)).toEqual(['booked', 'charge']);
    const rows = reportSql(gigReport, c, ctx('manager'), q);
    expect(rows.sql).toContain('merchant_id = $3 and "firm_id" = $4');
    expect(rows.params[3]).toBe(3);
    expect(rows.sql).not.toMatch(/margin/);
  });

  it.each([
    [{ group: 'firm' }, 'manager', 'group'],
    [{ sort: 'margin' }, 'manager', 'sort'],
    [{ group: 'week,week' }, 'admin', 'group'],
    [{ period: 'someday' }, 'admin', 'period'],
    [{ period: 'custom', from: '2026-01-02' }, 'admin', 'from'],
    [{ status: 'open' }, 'admin', 'status'],
    [{ per_page: '101' }, 'admin', 'per_page'],
    [{ order: 'sideways' }, 'admin', 'order'],
  ] as const)('refuses %o for %s (%s)', (query, role, field) => {
    expect(() => parseReportQuery(gigReport, c, ctx(role), query)).toThrow(
      expect.objectContaining({ status: 400, errors: expect.objectContaining({ [field]: expect.any(String) }) }),
    );
  });
});

describe('how a report’s values read', () => {
  const measure = (id: string) => clientReport.measures.find((m) => m.id === id)!;
  it.each([
    [measure('charge'), { charge: 123456 }, 'Charge (£)', 1234.56, '£1,234.56'],
    [measure('fill_rate'), { fill_rate: 0.8751 }, 'Fill rate', 87.5, '87.5%'],
    [measure('margin_pct'), { margin_pct: null }, 'Margin (%)', '', '–'],
    [measure('hours'), { hours: 37.5 }, 'Hours', 37.5, '37.5'],
    [measure('requested'), { requested: 1200 }, 'Shifts requested', 1200, '1,200'],
  ] as const)('%o', (m, row, header, cell, shown) => {
    if (m.id === 'fill_rate') expect(reportHeader(m)).toBe('Fill rate (%)');
    else expect(reportHeader(m)).toBe(header);
    expect(reportCell(m, row)).toBe(cell);
    expect(formatReportValue(m.kind === 'count' ? 'count' : m.format, row[m.id as keyof typeof row])).toBe(shown);
  });
  it('a dimension: its name, a month by name, None for an empty group', () => {
    expect(reportCell({ id: 'month', label: 'Month', bucket: 'month' }, { month: '2026-11-01' })).toBe('Nov 2026');
    expect(reportCell({ id: 'week', label: 'Week', bucket: 'week' }, { week: '2026-11-23' })).toBe('2026-11-23');
    expect(reportCell({ id: 'site', label: 'Site' }, { site: null })).toBe('None');
    expect(bucketName('day', '2026-11-23')).toBe('2026-11-23');
  });
});

describe('days past the agency’s today, and the aged debt’s buckets', () => {
  it.each([
    // [due date, today, days past, bucket]
    ['2026-11-26', '2026-11-25', -1, 'current'],
    ['2026-11-25', '2026-11-25', 0, 'current'],
    ['2026-11-24', '2026-11-25', 1, 'days_1_30'],
    ['2026-10-26', '2026-11-25', 30, 'days_1_30'],
    ['2026-10-25', '2026-11-25', 31, 'days_31_60'],
    ['2026-09-26', '2026-11-25', 60, 'days_31_60'],
    ['2026-09-25', '2026-11-25', 61, 'days_61_90'],
    ['2026-08-27', '2026-11-25', 90, 'days_61_90'],
    ['2026-08-26', '2026-11-25', 91, 'days_over_90'],
    // Across the clocks going back (25 October 2026) and a year's end: whole days, not 24-hour spans.
    ['2026-10-24', '2026-10-26', 2, 'days_1_30'],
    ['2025-12-31', '2026-01-01', 1, 'days_1_30'],
    ['2024-02-28', '2024-03-01', 2, 'days_1_30'],
  ] as const)('due %s, today %s: %i days past, %s', (due, today, days, bucket) => {
    expect(daysPastOf(due, today)).toBe(days);
    expect(ageBucketOf(days)).toBe(bucket);
    // Exactly one bucket holds each day, the one the report's conditions say.
    expect(AGE_BUCKETS.filter((b) => withinDaysPast(b.daysPast, due, today)).map((b) => b.id)).toEqual([bucket]);
  });

  it(
    'the aged debt’s measures are the buckets' + "'" + ' conditions on the due date, and the SQL counts whole days',
    () => {
      const m = agedDebtReport.measures.find((x) => x.id === 'days_31_60')!;
      expect(m).toMatchObject({
        kind: 'sum',
        field: 'balance',
        where: [{ field: 'due_date', daysPast: { min: 31, max: 60 } }],
      });
      const report: ReportDeclaration = {
        ...gigReport,
        period: undefined,
        measures: [
          {
            id: 'late',
            label: 'Late',
            kind: 'sum',
            field: 'charge',
            where: [{ field: 'due_on', daysPast: { min: 31, max: 60 } }],
            format: 'money',
          },
          { id: 'current', label: 'Current', kind: 'count', where: [{ field: 'due_on', daysPast: { max: 0 } }] },
        ],
        defaultSort: { by: 'late', order: 'desc' },
      };
      const q = parseReportQuery(report, c, ctx('admin'), {});
      expect(q.period).toBeUndefined();
      expect(q.asOf).toBe('2026-11-25');
      const rows = reportSql(report, c, ctx('admin'), q);
      const sql = rows.sql.replace(/\s+/g, ' ');
      // Today is bound once and read twice: whole days from the due date to the agency's today.
      expect(sql).toContain(
        `coalesce(sum("charge") filter (where (($1::date - "due_on") >= $2::int and ($1::date - "due_on") <= $3::int)), 0) as "a_late"`,
      );
      expect(sql).toContain(`count(*) filter (where (($4::date - "due_on") <= $5::int)) as "a_current"`);
      expect(rows.params.slice(0, 5)).toEqual(['2026-11-25', 31, 60, '2026-11-25', 0]);
      // No period: no range on any date, only the agency (and the report's own conditions).
      expect(sql).not.toMatch(/"start_at" >=/);
      // A period asked of a report as of today is refused, not ignored.
      expect(() => parseReportQuery(report, c, ctx('admin'), { period: 'this_month' })).toThrow(
        expect.objectContaining({ status: 400, errors: expect.objectContaining({ period: expect.any(String) }) }),
      );
      expect(reportFileName(agedDebtReport, { asOf: '2026-11-25' })).toBe('aged-debt-as-of-2026-11-25');
    },
  );
});
