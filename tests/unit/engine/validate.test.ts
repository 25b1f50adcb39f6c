import { describe, expect, it } from 'vitest';
import { checkField, customFieldAsDeclaration, validateRecord, MAX_UPLOAD_BYTES, type CustomFieldDefinition } from '../../../src/engine/validate';
import { parseStrictDate, resolveLimit } from '../../../src/engine/dates';
import { engineMessages, interpolate } from '../../../src/engine/messages';
import type { FieldDeclaration, ResourceDeclaration } from '../../../src/engine/types';
import { pathsOf } from '../../../src/engine/react/paths';
import { canAccess, permits } from '../../../src/resources/access';
import { candidates } from '../../../src/resources/candidates/resource';
import { clients } from '../../../src/resources/clients/resource';
import { sites } from '../../../src/resources/sites/resource';
import { jobRoles, staffDetailFields, settingsResources } from '../../../src/resources/settings/resources';
import { declarations } from '../../../src/resources/declarations';

// A fixed "now": Sunday 15 March 2026, local time.
const NOW = new Date(2026, 2, 15, 10, 30);
const f = (over: Partial<FieldDeclaration> & Pick<FieldDeclaration, 'type'>): FieldDeclaration => ({ source: 'x', label: 'X', ...over });
const check = (field: FieldDeclaration, value: unknown) => checkField(field, value, NOW);
const msg = (field: FieldDeclaration, value: unknown) => check(field, value)?.message;

describe('checkField: required and empty values', () => {
  it('reports ra.validation.required for undefined, null, blank text and empty arrays on a required field', () => {
    for (const type of ['text', 'email', 'number', 'choice', 'date', 'reference'] as const) {
      const field = f({ type, required: true, choices: [{ id: 'a', name: 'A' }] });
      for (const v of [undefined, null, '', '   ']) expect(msg(field, v), `${type} ${JSON.stringify(v)}`).toBe('ra.validation.required');
    }
    expect(msg(f({ type: 'references', required: true }), [])).toBe('ra.validation.required');
  });
  it('accepts empty values on an optional field, whatever its type', () => {
    for (const type of ['text', 'email', 'phone', 'number', 'money', 'choice', 'date', 'datetime', 'reference', 'references', 'image', 'address'] as const) {
      expect(check(f({ type }), null), type).toBeUndefined();
      expect(check(f({ type }), undefined), type).toBeUndefined();
    }
  });
  it('a required boolean is satisfied by false (not reported as missing) but a missing boolean is not an error', () => {
    expect(check(f({ type: 'boolean', required: true }), false)).toBeUndefined();
    expect(check(f({ type: 'boolean', required: true }), undefined)).toBeUndefined();
    expect(msg(f({ type: 'boolean' }), 'yes')).toBe('engine.validation.boolean');
    expect(msg(f({ type: 'boolean' }), 1)).toBe('engine.validation.boolean');
    expect(check(f({ type: 'boolean' }), true)).toBeUndefined();
  });
  it('read-only fields are never checked (the server fills them)', () => {
    expect(check(f({ type: 'text', required: true, readOnly: true }), undefined)).toBeUndefined();
    expect(check(f({ type: 'datetime', readOnly: true }), 'garbage')).toBeUndefined();
  });
});

describe('checkField: text, long text, e-mail, phone, pattern', () => {
  it('enforces minLength and maxLength on the trimmed text, with their arguments', () => {
    const field = f({ type: 'text', minLength: 3, maxLength: 5 });
    expect(check(field, 'ab')).toEqual({ message: 'ra.validation.minLength', args: { min: 3 } });
    expect(check(field, '  ab  ')).toEqual({ message: 'ra.validation.minLength', args: { min: 3 } });
    expect(check(field, 'abc')).toBeUndefined();
    expect(check(field, 'abcde')).toBeUndefined();
    expect(check(field, 'abcdef')).toEqual({ message: 'ra.validation.maxLength', args: { max: 5 } });
    expect(check(field, '  abcde  ')).toBeUndefined();
  });
  it('defaults maxLength to 255 for text and 5000 for long text', () => {
    expect(check(f({ type: 'text' }), 'a'.repeat(255))).toBeUndefined();
    expect(check(f({ type: 'text' }), 'a'.repeat(256))).toEqual({ message: 'ra.validation.maxLength', args: { max: 255 } });
    expect(check(f({ type: 'longtext' }), 'a'.repeat(5000))).toBeUndefined();
    expect(check(f({ type: 'longtext' }), 'a'.repeat(5001))).toEqual({ message: 'ra.validation.maxLength', args: { max: 5000 } });
  });
  it('rejects non-string values for text types', () => {
    expect(msg(f({ type: 'text' }), 12)).toBe('engine.validation.text');
    expect(msg(f({ type: 'email' }), { a: 1 })).toBe('engine.validation.text');
  });
  it('checks e-mail addresses, and the key translates to "Invalid email address"', () => {
    const email = f({ type: 'email' });
    for (const bad of ['plain', 'a@b', 'a b@c.uk', '@c.uk', 'a@.'] ) expect(msg(email, bad), bad).toBe('engine.validation.email');
    for (const good of ['a@b.co', 'jane.doe+x@agency.co.uk', '  a@b.co  ']) expect(check(email, good), good).toBeUndefined();
    expect(engineMessages.engine.validation.email).toBe('Invalid email address');
  });
  it('checks phone numbers: 7 to 20 of digits, spaces, +, ( ) and -', () => {
    const phone = f({ type: 'phone' });
    for (const good of ['+44 20 7946 0958', '(020) 7946-0958', '0123456']) expect(check(phone, good), good).toBeUndefined();
    for (const bad of ['123456', 'call me', '+44 20 7946 0958 0000 0', '0207x946']) expect(msg(phone, bad), bad).toBe('engine.validation.phone');
  });
  it('applies a declared pattern with its own message key', () => {
    const code = clients.fields.find((x) => x.source === 'code')!;
    expect(msg(code, 'ACME 1')).toBe('engine.validation.code');
    expect(check(code, 'ACME_1-x')).toBeUndefined();
    const ni = candidates.fields.find((x) => x.source === 'ni_number')!;
    expect(check(ni, 'AB 12 34 56 C')).toBeUndefined();
    expect(check(ni, 'ab123456d')).toBeUndefined();
    expect(msg(ni, 'AB 12 34 56 E')).toBe('engine.validation.niNumber');
  });
});

describe('checkField: number and money', () => {
  it('checks number ranges with their arguments, and accepts numeric strings', () => {
    const n = f({ type: 'number', min: 1, max: 120 });
    expect(check(n, 0)).toEqual({ message: 'ra.validation.minValue', args: { min: 1 } });
    expect(check(n, 1)).toBeUndefined();
    expect(check(n, '120')).toBeUndefined();
    expect(check(n, 121)).toEqual({ message: 'ra.validation.maxValue', args: { max: 120 } });
    expect(msg(n, 'twelve')).toBe('ra.validation.number');
    expect(msg(n, Number.NaN)).toBe('ra.validation.number');
    expect(msg(n, Infinity)).toBe('ra.validation.number');
    expect(msg(n, true)).toBe('ra.validation.number');
  });
  it('integer fields refuse fractions; plain numbers accept them', () => {
    expect(msg(f({ type: 'number', integer: true }), 2.5)).toBe('engine.validation.integer');
    expect(check(f({ type: 'number', integer: true }), 3)).toBeUndefined();
    expect(check(f({ type: 'number' }), 2.5)).toBeUndefined();
  });
  it('numbers beyond a 32-bit integer column are refused', () => {
    expect(msg(f({ type: 'number' }), 2 ** 31)).toBe('ra.validation.maxValue');
    expect(check(f({ type: 'number' }), 2 ** 31 - 1)).toBeUndefined();
  });
  it('money travels in minor units (whole pence) but its limits are declared in pounds', () => {
    const rate = jobRoles.fields.find((x) => x.source === 'default_pay_rate')!; // min 0, max 1000 (pounds)
    expect(check(rate, 1250)).toBeUndefined(); // £12.50
    expect(check(rate, 100000)).toBeUndefined(); // £1000.00 exactly
    expect(check(rate, 100001)).toEqual({ message: 'ra.validation.maxValue', args: { max: 1000 } });
    expect(check(rate, -1)).toEqual({ message: 'ra.validation.minValue', args: { min: 0 } });
    expect(msg(rate, 12.5)).toBe('engine.validation.integer'); // a float on the wire is refused
    // 1500 pence = £15 is within a £0–£20 range even though 1500 > 20.
    expect(check(f({ type: 'money', min: 0, max: 20 }), 1500)).toBeUndefined();
    expect(msg(f({ type: 'money', min: 0, max: 20 }), 2001)).toBe('ra.validation.maxValue');
  });
});

describe('checkField: choice, reference, references', () => {
  const status = candidates.fields.find((x) => x.source === 'status')!;
  it('accepts only a declared choice id', () => {
    expect(check(status, 'approved')).toBeUndefined();
    expect(msg(status, 'Approved')).toBe('engine.validation.choice');
    expect(msg(status, 'archived')).toBe('engine.validation.choice');
    expect(msg(status, 1)).toBe('engine.validation.choice');
  });
  it('a reference is a positive whole id', () => {
    const ref = f({ type: 'reference', reference: 'clients' });
    expect(check(ref, 3)).toBeUndefined();
    expect(check(ref, '3')).toBeUndefined();
    for (const bad of [0, -2, 1.5, 'abc']) expect(msg(ref, bad), String(bad)).toBe('engine.validation.reference');
  });
  it('references is an array of positive whole ids', () => {
    const refs = f({ type: 'references', reference: 'staff_profiles' });
    expect(check(refs, [1, '2', 3])).toBeUndefined();
    expect(msg(refs, [1, 0])).toBe('engine.validation.reference');
    expect(msg(refs, 1)).toBe('engine.validation.reference');
    expect(msg(refs, 'abc')).toBe('engine.validation.reference');
  });
});

describe('dates: strict parsing and limits', () => {
  it('parseStrictDate accepts only yyyy-MM-dd that writes back identically', () => {
    expect(parseStrictDate('2026-03-09')).toEqual(new Date(2026, 2, 9));
    expect(parseStrictDate('2026-02-31')).toBeNull();
    expect(parseStrictDate('2026-2-3')).toBeNull();
    expect(parseStrictDate('09/03/2026')).toBeNull();
    expect(parseStrictDate('2026-03-09T00:00')).toBeNull();
    expect(parseStrictDate('2024-02-29')).toEqual(new Date(2024, 1, 29));
    expect(parseStrictDate('2025-02-29')).toBeNull();
  });
  it('resolveLimit understands today, ISO dates and ±d/m/y offsets from the start of today', () => {
    expect(resolveLimit(undefined, NOW)).toBeUndefined();
    expect(resolveLimit('today', NOW)).toEqual(new Date(2026, 2, 15));
    expect(resolveLimit('-16y', NOW)).toEqual(new Date(2010, 2, 15));
    expect(resolveLimit('+1y', NOW)).toEqual(new Date(2027, 2, 15));
    expect(resolveLimit('-30d', NOW)).toEqual(new Date(2026, 1, 13));
    expect(resolveLimit('+6m', NOW)).toEqual(new Date(2026, 8, 15));
    expect(resolveLimit('2026-01-01', NOW)).toEqual(new Date(2026, 0, 1));
    expect(resolveLimit('nonsense', NOW)).toBeUndefined();
  });
  it('a date field rejects impossible and loosely formatted dates', () => {
    const d = f({ type: 'date' });
    expect(check(d, '2026-03-09')).toBeUndefined();
    expect(msg(d, '2026-02-31')).toBe('engine.validation.date');
    expect(msg(d, '2026-2-3')).toBe('engine.validation.date');
    expect(msg(d, '2026-03-09T10:00:00Z')).toBe('engine.validation.date');
    expect(msg(d, 20260309)).toBe('engine.validation.date');
    expect(engineMessages.engine.validation.date).toBe('Enter a date as yyyy-MM-dd');
  });
  it('date of birth: at least 16 years ago (relative limit), at most 100', () => {
    const dob = candidates.fields.find((x) => x.source === 'date_of_birth')!; // min -100y, max -16y
    expect(check(dob, '2010-03-15')).toBeUndefined(); // exactly 16 today
    expect(check(dob, '2010-03-16')).toEqual({ message: 'engine.validation.dateMax', args: { max: '2010-03-15' } });
    expect(check(dob, '1926-03-14')).toEqual({ message: 'engine.validation.dateMin', args: { min: '1926-03-15' } });
    expect(check(dob, '1926-03-15')).toBeUndefined();
  });
  it("'today' and '+1y' limits", () => {
    const future = f({ type: 'date', date: { min: 'today', max: '+1y' } });
    expect(check(future, '2026-03-15')).toBeUndefined();
    expect(check(future, '2026-03-14')).toEqual({ message: 'engine.validation.dateMin', args: { min: '2026-03-15' } });
    expect(check(future, '2027-03-15')).toBeUndefined();
    expect(check(future, '2027-03-16')).toEqual({ message: 'engine.validation.dateMax', args: { max: '2027-03-15' } });
  });
  it('disabled weekdays (0 = Sunday … 6 = Saturday)', () => {
    const weekdays = f({ type: 'date', date: { disabledWeekdays: [0, 6] } });
    expect(msg(weekdays, '2026-03-14')).toBe('engine.validation.dateDisabled'); // Saturday
    expect(msg(weekdays, '2026-03-15')).toBe('engine.validation.dateDisabled'); // Sunday
    expect(check(weekdays, '2026-03-16')).toBeUndefined(); // Monday
  });
  it('a datetime needs an ISO date and time, and obeys the date limits', () => {
    const dt = f({ type: 'datetime', date: { min: 'today' } });
    expect(check(dt, '2026-03-20T08:00:00.000Z')).toBeUndefined();
    expect(check(dt, '2026-03-20T08:00')).toBeUndefined();
    expect(msg(dt, '2026-03-20')).toBe('engine.validation.datetime');
    expect(msg(dt, 'tomorrow at 8')).toBe('engine.validation.datetime');
    expect(msg(dt, '2026-13-40T08:00')).toBe('engine.validation.datetime');
    expect(msg(dt, 1773820800000)).toBe('engine.validation.datetime');
    expect(msg(dt, '2026-03-01T08:00:00')).toBe('engine.validation.dateMin');
  });
});

describe('checkField: image and file', () => {
  const png = 'data:image/png;base64,iVBORw0KGgo=';
  it('accepts an image data URL or a shipped file path; refuses other strings', () => {
    const img = f({ type: 'image' });
    expect(check(img, png)).toBeUndefined();
    expect(check(img, '/logos/demo.png')).toBeUndefined();
    expect(msg(img, 'https://evil.example/x.png')).toBe('engine.validation.file');
    expect(msg(img, 'data:image/png;base64,not base64!')).toBe('engine.validation.file');
    expect(msg(img, { src: png })).toBe('engine.validation.file');
  });
  it('an image field refuses a non-image MIME type; a file field accepts it', () => {
    const pdf = 'data:application/pdf;base64,JVBERi0=';
    expect(msg(f({ type: 'image' }), pdf)).toBe('engine.validation.image');
    expect(check(f({ type: 'file' }), pdf)).toBeUndefined();
  });
  it('refuses uploads over 1 MB', () => {
    const body = (bytes: number) => 'data:image/png;base64,' + 'A'.repeat(Math.ceil((bytes * 4) / 3));
    expect(check(f({ type: 'image' }), body(MAX_UPLOAD_BYTES - 100))).toBeUndefined();
    expect(check(f({ type: 'image' }), body(MAX_UPLOAD_BYTES + 100))).toEqual({ message: 'engine.validation.fileSize', args: { max: '1 MB' } });
  });
});

describe('checkField: address', () => {
  const addr = sites.fields.find((x) => x.source === 'address')!; // required
  it('a required address needs line 1 and the postcode', () => {
    expect(check(addr, { line1: '1 High St', postcode: 'SW1A 1AA' })).toBeUndefined();
    expect(msg(addr, { line1: '1 High St' })).toBe('engine.validation.addressRequired');
    expect(msg(addr, { postcode: 'SW1A 1AA', city: 'London' })).toBe('engine.validation.addressRequired');
    expect(msg(addr, { line1: '  ', postcode: 'SW1A 1AA' })).toBe('engine.validation.addressRequired');
  });
  it('checks the postcode shape, even on an optional address', () => {
    const optional = f({ type: 'address' });
    expect(msg(addr, { line1: '1 High St', postcode: 'SW1A#1AA' })).toBe('engine.validation.postcode');
    expect(msg(optional, { city: 'Leeds', postcode: 'AB' })).toBe('engine.validation.postcode');
    expect(check(optional, { city: 'Leeds' })).toBeUndefined();
  });
  it('refuses unknown parts, non-text parts, over-long parts and non-objects', () => {
    expect(msg(addr, { line1: 'x', postcode: 'LS1 1AA', county: 'Yorks' })).toBe('engine.validation.address');
    expect(msg(addr, { line1: 5, postcode: 'LS1 1AA' })).toBe('engine.validation.address');
    expect(msg(addr, { line1: 'x'.repeat(201), postcode: 'LS1 1AA' })).toBe('engine.validation.address');
    expect(msg(addr, '1 High St, Leeds')).toBe('engine.validation.address');
    expect(msg(addr, ['1 High St'])).toBe('engine.validation.address');
  });
});

describe('validateRecord', () => {
  const goodCandidate = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', status: 'pending', activated: false };
  it('returns no problems for a valid record and one per faulty field, keyed by source', () => {
    expect(validateRecord(candidates, goodCandidate, [], NOW)).toEqual({});
    const p = validateRecord(candidates, { ...goodCandidate, first_name: '', email: 'nope', date_of_birth: '2026-02-31' }, [], NOW);
    expect(Object.keys(p).sort()).toEqual(['date_of_birth', 'email', 'first_name']);
    expect(p.first_name.message).toBe('ra.validation.required');
    expect(p.email.message).toBe('engine.validation.email');
  });
  it('applies the declaration rules: a candidate cannot be activated without approval', () => {
    expect(validateRecord(candidates, { ...goodCandidate, activated: true }, [], NOW)).toEqual({ activated: { message: 'engine.validation.activateUnapproved' } });
    expect(validateRecord(candidates, { ...goodCandidate, status: 'approved', activated: true }, [], NOW)).toEqual({});
    expect(validateRecord(candidates, { ...goodCandidate, status: 'rejected', activated: false }, [], NOW)).toEqual({});
  });
  it('a field problem wins over a rule for the same field', () => {
    const decl: ResourceDeclaration = { ...candidates, rules: () => ({ first_name: 'custom.rule', last_name: 'custom.rule' }) };
    const p = validateRecord(decl, { ...goodCandidate, first_name: '' }, [], NOW);
    expect(p.first_name.message).toBe('ra.validation.required');
    expect(p.last_name.message).toBe('custom.rule');
  });
  it('staff detail fields: a choice needs at least one option', () => {
    const base = { label: 'Shoe size', key: 'shoe_size', required: false, show_in_list: false, position: 0 };
    expect(validateRecord(staffDetailFields, { ...base, field_type: 'choice', options: ' , ' }, [], NOW).options?.message).toBe('engine.validation.choiceOptions');
    expect(validateRecord(staffDetailFields, { ...base, field_type: 'choice', options: 'S, M' }, [], NOW)).toEqual({});
    expect(validateRecord(staffDetailFields, { ...base, field_type: 'text', options: '' }, [], NOW)).toEqual({});
    expect(validateRecord(staffDetailFields, { ...base, key: 'Shoe Size', field_type: 'text' }, [], NOW).key?.message).toBe('engine.validation.key');
  });
  it('agency custom fields are validated under custom_fields.<key>', () => {
    const defs: CustomFieldDefinition[] = [
      { key: 'dbs_number', label: 'DBS number', field_type: 'text', required: true },
      { key: 'shift_pref', label: 'Shift preference', field_type: 'choice', required: false, options: 'Days, Nights ,Any' },
      { key: 'licence_expiry', label: 'Licence expiry', field_type: 'date', required: false },
    ];
    const missing = validateRecord(candidates, goodCandidate, defs, NOW);
    expect(missing).toEqual({ 'custom_fields.dbs_number': { message: 'ra.validation.required' } });
    const bad = validateRecord(candidates, { ...goodCandidate, custom_fields: { dbs_number: '001', shift_pref: 'Weekends', licence_expiry: '2026-2-3' } }, defs, NOW);
    expect(bad['custom_fields.shift_pref'].message).toBe('engine.validation.choice');
    expect(bad['custom_fields.licence_expiry'].message).toBe('engine.validation.date');
    expect(bad['custom_fields.dbs_number']).toBeUndefined();
    expect(validateRecord(candidates, { ...goodCandidate, custom_fields: { dbs_number: '001', shift_pref: 'Nights' } }, defs, NOW)).toEqual({});
  });
  it('customFieldAsDeclaration maps type, requiredness and trimmed options', () => {
    expect(customFieldAsDeclaration({ key: 'k', label: 'K', field_type: 'choice', required: true, options: ' a, b ,,c ' })).toEqual({
      source: 'custom_fields.k', label: 'K', type: 'choice', required: true,
      choices: [{ id: 'a', name: 'a' }, { id: 'b', name: 'b' }, { id: 'c', name: 'c' }],
    });
    expect(customFieldAsDeclaration({ key: 'n', label: 'N', field_type: 'number', required: false }).choices).toBeUndefined();
  });
  it('interpolate fills arguments the way the server words its 422 answers', () => {
    expect(interpolate(engineMessages.engine.validation.dateMax, { max: '2010-03-15' })).toBe('Must be on or before 2010-03-15');
    expect(interpolate('%{a} %{b}', { a: 1 })).toBe('1 %{b}');
  });
});

describe('pathsOf', () => {
  it('uses the spec routes where the declaration names them', () => {
    const p = pathsOf(clients);
    expect(p.list).toBe('/client/client-list');
    expect(p.create).toBe('/client/create');
    expect(p.show(12)).toBe('/client/view/12');
    expect(p.edit(12)).toBe('/client/edit/12');
    expect(p.patterns).toEqual({ list: '/client/client-list', create: '/client/create', show: '/client/view/:id', edit: '/client/edit/:id' });
    expect(pathsOf(candidates).show(5)).toBe('/staffs/profileview/5');
    expect(pathsOf(sites).show(5)).toBe('/site/site-profile/5');
  });
  it("falls back to react-admin's own paths, and encodes ids", () => {
    const decl: ResourceDeclaration = { ...clients, name: 'widgets', routes: undefined, tabs: [{ id: 'big', label: 'Big', filter: {} }] };
    const p = pathsOf(decl);
    expect(p.list).toBe('/widgets');
    expect(p.create).toBe('/widgets/create');
    expect(p.show(3)).toBe('/widgets/3/show');
    expect(p.edit(3)).toBe('/widgets/3');
    expect(p.edit('a/b')).toBe('/widgets/a%2Fb');
    expect(p.tab('big')).toBe('/widgets/big');
  });
  it('tab paths: the declared spec path, else under the list', () => {
    expect(pathsOf(clients).tab('activeClient')).toBe('/client/client-list/activeClient');
    expect(pathsOf(sites).tab('Inactive-Site')).toBe('/site/Inactive-Site');
    expect(pathsOf(candidates).tab('activeStaff')).toBe('/staffs/activeStaff');
    expect(pathsOf(candidates).tab('unknownTab')).toBe('/staff/staff-list/unknownTab');
  });
});

describe('canAccess', () => {
  const admin = { loginType: 'admin' as const, role: 'admin' };
  const consultant = { loginType: 'admin' as const, role: 'consultant' };
  const client = { loginType: 'client' as const, role: 'admin' };
  it('an agency admin may do everything on every declared resource', () => {
    for (const d of declarations) for (const a of ['list', 'show', 'create', 'edit', 'delete', 'export']) expect(canAccess(admin, d.name, a), `${d.name} ${a}`).toBe(true);
  });
  it('a consultant works on clients, sites and staff but cannot delete them', () => {
    for (const name of ['clients', 'sites', 'candidates']) {
      for (const a of ['list', 'show', 'create', 'edit', 'export']) expect(canAccess(consultant, name, a), `${name} ${a}`).toBe(true);
      expect(canAccess(consultant, name, 'delete'), name).toBe(false);
    }
  });
  it('a consultant only reads the staff settings', () => {
    for (const d of settingsResources) {
      expect(canAccess(consultant, d.name, 'list')).toBe(true);
      expect(canAccess(consultant, d.name, 'show')).toBe(true);
      for (const a of ['create', 'edit', 'delete', 'export', 'clone']) expect(canAccess(consultant, d.name, a), `${d.name} ${a}`).toBe(false);
    }
  });
  it('a client login may do nothing in the agency back office, whatever its role', () => {
    for (const d of declarations) for (const a of ['list', 'show']) expect(canAccess(client, d.name, a)).toBe(false);
    expect(canAccess({ loginType: 'client', role: 'manager' }, 'clients', 'list')).toBe(false);
  });
  it('unknown resources and roles are denied', () => {
    expect(canAccess(admin, 'invoices', 'list')).toBe(false);
    expect(canAccess({ loginType: 'admin', role: 'owner' }, 'clients', 'list')).toBe(false);
    expect(canAccess(admin, 'clients', 'launch')).toBe(false);
  });
  it("react-admin's 'clone' is a create and 'read' is a show", () => {
    const listOnly: ResourceDeclaration = { ...clients, access: { viewer: ['list', 'show'], manager: ['create'] } };
    expect(permits({ loginType: 'admin', role: 'viewer' }, listOnly, 'read')).toBe(true);
    expect(permits({ loginType: 'admin', role: 'viewer' }, listOnly, 'clone')).toBe(false);
    expect(permits({ loginType: 'admin', role: 'manager' }, listOnly, 'clone')).toBe(true);
    expect(permits({ loginType: 'admin', role: 'manager' }, listOnly, 'read')).toBe(false);
  });
});
