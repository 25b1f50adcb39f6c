import { describe, expect, it } from 'vitest';
import { canAccess, canRead, permits, type Principal } from '../../../core/resources/access';
import { declarationByName, declarations } from '../../../core/resources/declarations';
import { CRUD_ACTIONS, type Role } from '../../../core/engine/types';
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
    [undefined, true], // no guard
    [['admin', 'consultant'], true], // pay rates and charges: every agency role reads them
    [['admin', 'consultant', 'manager'], true],
    [['admin'], false], // narrowed to admin (a staff member's bank details)
    [[], false], // nobody (a password hash)
    [['staff'], false],
  ] as [Role[] | undefined, boolean][])('readableBy %j → %s', (roles, readable) => {
    expect(canRead(custom(...everything), roles)).toBe(readable);
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
  });
});
