import { describe, expect, it } from 'vitest';
import { canAccess, canRead, mayRunReport, permits, type Principal } from '../../../core/resources/access';
import { reportByName, REPORT_DECLARATIONS } from '../../../core/resources/reports';
import type { ReportDeclaration } from '../../../core/engine/reports';
import { declarationByName, declarations } from '../../../core/resources/declarations';
import { CRUD_ACTIONS, FIELD_GROUPS, type FieldGroup, type Role } from '../../../core/engine/types';
import { PRESETS, privilegeChoices, privilegeRows } from '../../../core/resources/roles/privileges';

// Issue 35: a custom role is granted what its stored privileges name and admin is declared to do, through the one
// permits() the API and the screens ask — table-driven.
const custom = (...privileges: string[]): Principal => ({ loginType: 'agency', role: 'custom', privileges });
const admin: Principal = { loginType: 'agency', role: 'admin' };
const rows = privilegeRows(declarations);
const everything = rows.flatMap((r) => r.privileges.map((p) => p.key));

describe('permits with a custom role', () => {
  it.each([
    // [privileges, resource, action, granted]
    [['candidates.list'], 'candidates', 'list', true],
    [['candidates.list'], 'candidates', 'show', false],
    [['candidates.list'], 'clients', 'list', false],
    [['candidates.show'], 'candidates', 'read', true], // react-admin's 'read' is a show
    [['candidates.create'], 'candidates', 'clone', true], // and 'clone' a create
    [['candidates.approve'], 'candidates', 'approve', true], // a declared action
    [['candidates.list'], 'candidates', 'approve', false],
    [[], 'candidates', 'list', false],
    // Stored but beyond admin: never granted (users are never deleted, a client manager's signing is not admin's).
    [['users.delete'], 'users', 'delete', false],
    [['timesheets.sign'], 'timesheets', 'sign', false],
    // The roles themselves are not a privilege: granted by nothing a role can store.
    [['agency_roles.list'], 'agency_roles', 'list', false],
  ] as const)('%j → %s %s: %s', (privileges, resource, action, granted) => {
    expect(canAccess(custom(...privileges), resource, action)).toBe(granted);
  });

  it('with every privilege it can hold, a custom role is granted exactly what admin is, the roles aside', () => {
    const full = custom(...everything);
    const differs: string[] = [];
    for (const d of declarations) {
      const actions = [...CRUD_ACTIONS, ...(d.actions ?? []).map((a) => a.name)];
      for (const a of actions) {
        const expected = d.name === 'agency_roles' || d.served === false ? false : permits(admin, d, a);
        if (permits(full, d, a) !== expected) differs.push(`${d.name}.${a}`);
      }
    }
    expect(differs).toEqual([]);
  });

  it('is granted nothing outside the agency panel, whatever it stores', () => {
    for (const loginType of ['client', 'staff', 'link'] as const)
      expect(
        permits({ loginType, role: 'custom', privileges: everything }, declarationByName.get('clients')!, 'list'),
      ).toBe(false);
    // And a built-in role ignores any privileges it is handed.
    expect(canAccess({ loginType: 'agency', role: 'consultant', privileges: ['users.edit'] }, 'users', 'edit')).toBe(
      false,
    );
  });
});

describe('canRead with a custom role (guarded fields)', () => {
  it.each([
    // [readableBy, groups, privileges, readable]
    [undefined, undefined, [], true], // no guard
    [['admin', 'consultant'], undefined, [], true], // guarded, in no group: as every built-in agency role reads it
    [['admin', 'consultant', 'manager'], undefined, [], true],
    [['admin'], undefined, everything, false], // narrowed to admin and in no group (a secret)
    [[], undefined, everything, false], // nobody (a password hash)
    [['staff'], undefined, everything, false],
    // The field groups: granted one by one.
    [['admin', 'consultant'], ['pay_rates'], [], false],
    [['admin', 'consultant'], ['pay_rates'], ['fields.pay_rates'], true],
    [['admin', 'consultant'], ['pay_rates'], ['fields.margins'], false],
    [['admin', 'consultant', 'staff'], ['pay_rates'], ['fields.pay_rates'], true],
    [['admin', 'consultant'], ['margins'], ['fields.margins'], true],
    [['admin', 'consultant'], ['margins'], ['fields.pay_rates', 'fields.bank_details'], false],
    [['admin'], ['bank_details'], ['fields.bank_details'], true], // admin's own field, granted
    [['admin'], ['bank_details'], ['fields.pay_rates', 'fields.margins'], false],
    // A price line carries pay and charge: both groups.
    [['admin', 'consultant'], ['pay_rates', 'margins'], ['fields.pay_rates'], false],
    [['admin', 'consultant'], ['pay_rates', 'margins'], ['fields.pay_rates', 'fields.margins'], true],
    // Never beyond admin: a group on a field admin does not read.
    [['consultant'], ['pay_rates'], ['fields.pay_rates'], false],
  ] as [Role[] | undefined, FieldGroup[] | undefined, string[], boolean][])(
    'readableBy %j, groups %j, holding %j → %s',
    (roles, groups, privileges, readable) => {
      expect(canRead(custom(...privileges), roles, groups)).toBe(readable);
    },
  );

  it.each([
    // [principal, readable]: the groups change nothing for the built-in roles and outsiders
    [admin, true],
    [{ loginType: 'agency', role: 'consultant' }, true],
    [{ loginType: 'client', role: 'manager' }, false],
    [{ loginType: 'staff', role: 'staff' }, false],
    [{ loginType: 'client', role: 'custom', privileges: ['fields.pay_rates'] }, false],
  ] as [Principal, boolean][])('a pay rate read by %j → %s', (principal, readable) => {
    expect(canRead(principal, ['admin', 'consultant'], ['pay_rates'])).toBe(readable);
  });

  it('every money field agency users read and client users do not is in a group (or a payroll record)', () => {
    // A new pay or margin field forgotten here would reach every custom role: the groups are declared on the fields.
    const PAYROLL_RECORDS = ['payslips', 'payslip_lines', 'staff_deductions', 'payroll_adjustments', 'pay_runs'];
    const ungrouped = declarations
      .filter((d) => !PAYROLL_RECORDS.includes(d.name))
      .flatMap((d) =>
        d.fields
          .filter(
            (f) =>
              f.type === 'money' &&
              f.readableBy?.includes('admin') &&
              !f.readableBy.includes('manager') &&
              !f.groups?.length,
          )
          .map((f) => `${d.name}.${f.source}`),
      );
    expect(ungrouped).toEqual([]);
  });

  it('the groups name only fields admin reads, and the bank details only the masked line', () => {
    const grouped = declarations.flatMap((d) =>
      d.fields.filter((f) => f.groups?.length).map((f) => ({ name: `${d.name}.${f.source}`, f })),
    );
    expect(grouped.filter((g) => g.f.readableBy && !g.f.readableBy.includes('admin')).map((g) => g.name)).toEqual([]);
    expect(grouped.filter((g) => g.f.groups!.includes('bank_details')).map((g) => g.name)).toEqual([
      'candidates.bank_details_masked',
    ]);
    expect(grouped.length).toBeGreaterThan(30);
  });
});

describe('mayRunReport', () => {
  const report = reportByName.get('client_activity')!; // admin, consultant and the client roles
  const vat = reportByName.get('vat')!; // admin and consultant
  const spend = reportByName.get('client_spend')!;
  it.each([
    // [principal, report, what, may]
    [admin, report, 'view', true],
    [{ loginType: 'agency', role: 'consultant' }, vat, 'export', true],
    [{ loginType: 'client', role: 'manager' }, report, 'view', true],
    [{ loginType: 'client', role: 'manager' }, vat, 'view', false],
    [{ loginType: 'staff', role: 'staff' }, report, 'view', false],
    [custom(), report, 'view', false],
    [custom('reports.client_activity'), report, 'view', true],
    [custom('reports.client_activity'), report, 'export', true],
    [custom('reports.client_activity'), vat, 'view', false],
    [custom('reports.vat'), vat, 'export', true],
    [custom('reports.client_spend'), spend, 'view', true],
    // Resource privileges grant no report, and a report's privilege only in the agency panel.
    [custom('shifts.list', 'shifts.export'), report, 'view', false],
    [{ loginType: 'client', role: 'custom', privileges: ['reports.client_activity'] }, report, 'view', false],
  ] as [Principal, ReportDeclaration, 'view' | 'export', boolean][])('%j → %s %s: %s', (p, r, what, may) => {
    expect(mayRunReport(p, r, what)).toBe(may);
  });
});

describe('the privileges a role can hold', () => {
  it('are the choices validation accepts, each naming a resource and one of admin’s grants', () => {
    const choices = privilegeChoices(rows).map((c) => c.id);
    expect(choices).toEqual(everything);
    expect(new Set(choices).size).toBe(choices.length);
    expect(
      declarationByName
        .get('agency_roles')!
        .fields.find((f) => f.source === 'privileges')!
        .choices!.map((c) => c.id),
    ).toEqual(choices);
  });

  it('presets name only privileges a role can hold; consultant-like grants what the consultant is declared to', () => {
    for (const p of PRESETS) {
      const grants = p.grants(rows, declarations);
      expect(grants.length, p.id).toBeGreaterThan(0);
      expect(
        grants.filter((g) => !everything.includes(g)),
        p.id,
      ).toEqual([]);
    }
    const like = custom(...PRESETS.find((p) => p.id === 'consultant')!.grants(rows, declarations));
    const consultant: Principal = { loginType: 'agency', role: 'consultant' };
    for (const d of declarations.filter((x) => x.name !== 'agency_roles' && x.served !== false))
      for (const a of [...CRUD_ACTIONS, ...(d.actions ?? []).map((x) => x.name)])
        // Where admin is granted it: a consultant's grant beyond admin's (none today) stays beyond a role.
        if (permits(admin, d, a)) expect(permits(like, d, a), `${d.name}.${a}`).toBe(permits(consultant, d, a));
    // It reads what the consultant reads, and runs the consultant's reports.
    for (const d of declarations)
      for (const f of d.fields.filter((x) => x.groups?.length))
        expect(canRead(like, f.readableBy, f.groups), `${d.name}.${f.source}`).toBe(canRead(consultant, f.readableBy));
    for (const r of REPORT_DECLARATIONS) expect(mayRunReport(like, r), r.name).toBe(mayRunReport(consultant, r));
  });

  it.each([
    // [preset, field groups granted]
    ['read_only', []],
    ['consultant', ['fields.pay_rates', 'fields.margins']],
    ['payroll_clerk', ['fields.pay_rates', 'fields.bank_details']],
  ])('preset %s grants the field groups %j', (id, groups) => {
    const grants = PRESETS.find((p) => p.id === id)!.grants(rows, declarations);
    expect(grants.filter((g) => g.startsWith('fields.'))).toEqual(groups);
  });

  it('the grid ends with a row of the field groups and a row of the reports admin may run', () => {
    const [fields, reports] = rows.slice(-2);
    expect(fields.privileges.map((p) => p.key)).toEqual(FIELD_GROUPS.map((g) => `fields.${g}`));
    expect(reports.privileges.map((p) => p.key)).toEqual(
      REPORT_DECLARATIONS.filter((r) => r.roles.includes('admin')).map((r) => `reports.${r.name}`),
    );
    // Neither names a resource: a resource's privileges and a report's cannot be mistaken for each other.
    expect(declarationByName.has('fields') || declarationByName.has('reports')).toBe(false);
  });
});
