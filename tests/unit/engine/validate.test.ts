// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  checkField,
  customFieldAsDeclaration,
  validateRecord,
  validateRecords,
  validateCustomFieldsInput,
  MAX_REFERENCES,
  type CustomFieldDefinition,
} from '../../../core/engine/validate';
import fc from 'fast-check';
import { format, isValid, parse } from 'date-fns';
import { parseStrictDate, resolveLimit } from '../../../core/engine/dates';
import { agencyToday } from '../../../core/domain/time/agencyTime';
import { engineMessages, interpolate } from '../../../core/engine/messages';
import type { FieldDeclaration, ResourceDeclaration } from '../../../core/engine/types';
import { pathsOf } from '../../../src/engine/react/paths';
import { canAccess, permits } from '../../../core/resources/access';
import { candidates } from '../../../core/resources/candidates/resource';
import { clients } from '../../../core/resources/clients/resource';
import { sites } from '../../../core/resources/sites/resource';
import {
  documentCategories,
  jobRoles,
  staffDetailFields,
  settingsResources,
} from '../../../core/resources/settings/resources';
import { declarations } from '../../../core/resources/declarations';

// A fixed "now": Sunday 15 March 2026, local time.
const NOW = new Date(2026, 2, 15, 10, 30);
const f = (over: Partial<FieldDeclaration> & Pick<FieldDeclaration, 'type'>): FieldDeclaration => ({
  source: 'x',
  label: 'X',
  ...over,
});
const check = (field: FieldDeclaration, value: unknown) => checkField(field, value, NOW);
const msg = (field: FieldDeclaration, value: unknown) => check(field, value)?.message;

describe('checkField: required and empty values', () => {
  it('reports ra.validation.required for undefined, null and "" on a required field, blank text and [] where they mean nothing', () => {
    for (const type of ['text', 'email', 'number', 'choice', 'date', 'reference'] as const) {
      const field = f({ type, required: true, choices: [{ id: 'a', name: 'A' }] });
      for (const v of [undefined, null, ''])
        expect(msg(field, v), `${type} ${JSON.stringify(v)}`).toBe('ra.validation.required');
    }
    for (const type of ['text', 'longtext', 'email', 'phone'] as const)
      expect(msg(f({ type, required: true }), '   '), type).toBe('ra.validation.required');
    expect(msg(f({ type: 'references', required: true }), [])).toBe('ra.validation.required');
  });
  it('accepts empty values on an optional field, whatever its type', () => {
    for (const type of [
      'text',
      'email',
      'phone',
      'number',
      'money',
      'choice',
      'date',
      'datetime',
      'reference',
      'references',
      'image',
      'address',
    ] as const) {
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
    expect(check(f({ type: 'text' }), 'a'.repeat(256))).toEqual({
      message: 'ra.validation.maxLength',
      args: { max: 255 },
    });
    expect(check(f({ type: 'longtext' }), 'a'.repeat(5000))).toBeUndefined();
    expect(check(f({ type: 'longtext' }), 'a'.repeat(5001))).toEqual({
      message: 'ra.validation.maxLength',
      args: { max: 5000 },
    });
  });
  it('rejects non-string values for text types', () => {
    expect(msg(f({ type: 'text' }), 12)).toBe('engine.validation.text');
    expect(msg(f({ type: 'email' }), { a: 1 })).toBe('engine.validation.text');
  });
  it('checks e-mail addresses, and the key translates to "Invalid email address"', () => {
    const email = f({ type: 'email' });
    for (const bad of ['plain', 'a@b', 'a b@c.uk', '@c.uk', 'a@.'])
      expect(msg(email, bad), bad).toBe('engine.validation.email');
    for (const good of ['a@b.co', 'jane.doe+x@agency.co.uk', '  a@b.co  '])
      expect(check(email, good), good).toBeUndefined();
    expect(engineMessages.engine.validation.email).toBe('Invalid email address');
  });
  it('checks phone numbers: 7 to 20 of digits, spaces, +, ( ) and -', () => {
    const phone = f({ type: 'phone' });
    for (const good of ['+44 20 7946 0958', '(020) 7946-0958', '0123456'])
      expect(check(phone, good), good).toBeUndefined();
    for (const bad of ['123456', 'call me', '+44 20 7946 0958 0000 0', '0207x946'])
      expect(msg(phone, bad), bad).toBe('engine.validation.phone');
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
  it('choices is an array of declared choice ids, none of them an empty list', () => {
    const channels = f({
      type: 'choices',
      choices: [
        { id: 'email', name: 'E-mail' },
        { id: 'sms', name: 'SMS' },
      ],
    });
    expect(check(channels, ['email', 'sms'])).toBeUndefined();
    expect(check(channels, [])).toBeUndefined();
    expect(msg(channels, ['email', 'fax'])).toBe('engine.validation.choice');
    expect(msg(channels, 'email')).toBe('engine.validation.choice');
    expect(msg(channels, [1])).toBe('engine.validation.choice');
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
  it('parseStrictDate reads yyyy-MM-dd by hand exactly as date-fns parses and writes it back', () => {
    const byDateFns = (text: string) => {
      const d = parse(text, 'yyyy-MM-dd', new Date(2000, 0, 1));
      return isValid(d) && format(d, 'yyyy-MM-dd') === text ? d : null;
    };
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          expect(parseStrictDate(text)).toEqual(byDateFns(text));
        },
      ),
      { numRuns: 2000 },
    );
    for (const text of [
      '0000-01-01',
      '0099-12-31',
      '9999-12-31',
      '2026-04-31',
      ' 2026-01-01',
      '2026-01-01 ',
      '+2026-01-01',
    ])
      expect(parseStrictDate(text), text).toEqual(byDateFns(text));
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
  const id = '3f2a8c1e-5b7d-4e2f-9a6b-1c2d3e4f5a6b';
  const chosen = (size: number, type: string) => ({
    rawFile: new File([new Uint8Array(size)], 'x', { type }),
    src: 'blob:x',
    title: 'x',
  });
  it("accepts a stored file's id or a shipped file path; refuses data URLs, other sites and anything else", () => {
    const img = f({ type: 'image' });
    expect(check(img, id)).toBeUndefined();
    expect(check(img, id.toUpperCase())).toBeUndefined();
    expect(check(img, '/demo/agency-logo.svg')).toBeUndefined();
    for (const bad of [
      'data:image/png;base64,iVBORw0KGgo=',
      '//evil.example/pixel.png',
      'https://evil.example/x.png',
      `${id}x`,
      { src: id },
      42,
    ]) {
      expect(msg(img, bad), JSON.stringify(bad)).toBe('engine.validation.file');
    }
  });
  it("a file chosen in a form passes until the save uploads it, within its kind's size and types", () => {
    const img = f({ type: 'image' });
    const doc = f({ type: 'file' });
    expect(check(img, chosen(1024 * 1024, 'image/png'))).toBeUndefined();
    expect(check(img, chosen(1024 * 1024 + 1, 'image/png'))).toEqual({
      message: 'engine.validation.fileSize',
      args: { max: '1 MB' },
    });
    expect(msg(img, chosen(10, 'application/pdf'))).toBe('engine.validation.image');
    expect(msg(img, chosen(10, 'image/svg+xml'))).toBe('engine.validation.image');
    expect(check(doc, chosen(10 * 1024 * 1024, 'application/pdf'))).toBeUndefined();
    expect(check(doc, chosen(10 * 1024 * 1024 + 1, 'application/pdf'))).toEqual({
      message: 'engine.validation.fileSize',
      args: { max: '10 MB' },
    });
    expect(msg(doc, chosen(10, 'text/html'))).toBe('engine.validation.fileType');
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
  const goodCandidate = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    status: 'pending',
    activated: false,
  };
  it('returns no problems for a valid record and one per faulty field, keyed by source', () => {
    expect(validateRecord(candidates, goodCandidate, [], NOW)).toEqual({});
    const p = validateRecord(
      candidates,
      { ...goodCandidate, first_name: '', email: 'nope', date_of_birth: '2026-02-31' },
      [],
      NOW,
    );
    expect(Object.keys(p).sort()).toEqual(['date_of_birth', 'email', 'first_name']);
    expect(p.first_name.message).toBe('ra.validation.required');
    expect(p.email.message).toBe('engine.validation.email');
  });
  it('applies the declaration rules: a candidate cannot be activated without approval', () => {
    expect(validateRecord(candidates, { ...goodCandidate, activated: true }, [], NOW)).toEqual({
      activated: { message: 'engine.validation.activateUnapproved' },
    });
    expect(validateRecord(candidates, { ...goodCandidate, status: 'approved', activated: true }, [], NOW)).toEqual({});
    expect(validateRecord(candidates, { ...goodCandidate, status: 'rejected', activated: false }, [], NOW)).toEqual({});
  });
  it('a set validates as each record alone: a value fine once is fine again, a bad one refused on every record', () => {
    // Values repeat across the set (the same e-mail, date of birth and state), some good, some bad, and a rule.
    const set = [
      { ...goodCandidate },
      { ...goodCandidate, activated: true },
      { ...goodCandidate, email: 'not-an-email', date_of_birth: '2026-02-30' },
      { ...goodCandidate },
      { ...goodCandidate, email: 'not-an-email', first_name: '' },
      { ...goodCandidate, status: 'approved', activated: true },
      { ...goodCandidate, date_of_birth: '2026-02-30' },
    ];
    const each = set.map((r) => validateRecord(candidates, r, [], NOW));
    expect(validateRecords(candidates, set, [], NOW)).toEqual(each);
    expect(each.map((p) => Object.keys(p).sort().join())).toEqual([
      '',
      'activated',
      'date_of_birth,email',
      '',
      'email,first_name',
      '',
      'date_of_birth',
    ]);
  });
  it('a field problem wins over a rule for the same field', () => {
    const decl: ResourceDeclaration = {
      ...candidates,
      rules: () => ({ first_name: 'custom.rule', last_name: 'custom.rule' }),
    };
    const p = validateRecord(decl, { ...goodCandidate, first_name: '' }, [], NOW);
    expect(p.first_name.message).toBe('ra.validation.required');
    expect(p.last_name.message).toBe('custom.rule');
  });
  it('staff detail fields: a choice needs at least one option', () => {
    const base = { label: 'Shoe size', key: 'shoe_size', required: false, show_in_list: false, position: 0 };
    expect(
      validateRecord(staffDetailFields, { ...base, field_type: 'choice', options: ' , ' }, [], NOW).options?.message,
    ).toBe('engine.validation.choiceOptions');
    expect(validateRecord(staffDetailFields, { ...base, field_type: 'choice', options: 'S, M' }, [], NOW)).toEqual({});
    expect(validateRecord(staffDetailFields, { ...base, field_type: 'text', options: '' }, [], NOW)).toEqual({});
    expect(
      validateRecord(staffDetailFields, { ...base, key: 'Shoe Size', field_type: 'text' }, [], NOW).key?.message,
    ).toBe('engine.validation.key');
  });
  it('agency custom fields are validated under custom_fields.<key>', () => {
    const defs: CustomFieldDefinition[] = [
      { key: 'dbs_number', label: 'DBS number', field_type: 'text', required: true },
      {
        key: 'shift_pref',
        label: 'Shift preference',
        field_type: 'choice',
        required: false,
        options: 'Days, Nights ,Any',
      },
      { key: 'licence_expiry', label: 'Licence expiry', field_type: 'date', required: false },
    ];
    const missing = validateRecord(candidates, goodCandidate, defs, NOW);
    expect(missing).toEqual({ 'custom_fields.dbs_number': { message: 'ra.validation.required' } });
    const bad = validateRecord(
      candidates,
      { ...goodCandidate, custom_fields: { dbs_number: '001', shift_pref: 'Weekends', licence_expiry: '2026-2-3' } },
      defs,
      NOW,
    );
    expect(bad['custom_fields.shift_pref'].message).toBe('engine.validation.choice');
    expect(bad['custom_fields.licence_expiry'].message).toBe('engine.validation.date');
    expect(bad['custom_fields.dbs_number']).toBeUndefined();
    expect(
      validateRecord(
        candidates,
        { ...goodCandidate, custom_fields: { dbs_number: '001', shift_pref: 'Nights' } },
        defs,
        NOW,
      ),
    ).toEqual({});
  });
  it('customFieldAsDeclaration maps type, requiredness and trimmed options', () => {
    expect(
      customFieldAsDeclaration({ key: 'k', label: 'K', field_type: 'choice', required: true, options: ' a, b ,,c ' }),
    ).toEqual({
      source: 'custom_fields.k',
      label: 'K',
      type: 'choice',
      required: true,
      choices: [
        { id: 'a', name: 'a' },
        { id: 'b', name: 'b' },
        { id: 'c', name: 'c' },
      ],
    });
    expect(
      customFieldAsDeclaration({ key: 'n', label: 'N', field_type: 'number', required: false }).choices,
    ).toBeUndefined();
  });
  it('interpolate fills arguments the way the server words its 422 answers', () => {
    expect(interpolate(engineMessages.engine.validation.dateMax, { max: '2010-03-15' })).toBe(
      'Must be on or before 2010-03-15',
    );
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
    expect(p.patterns).toEqual({
      list: '/client/client-list',
      create: '/client/create',
      show: '/client/view/:id',
      edit: '/client/edit/:id',
    });
    expect(pathsOf(candidates).show(5)).toBe('/staffs/5');
    expect(pathsOf(sites).show(5)).toBe('/site/site-profile/5');
  });
  it("falls back to react-admin's own paths, and encodes ids", () => {
    const decl: ResourceDeclaration = {
      ...clients,
      name: 'widgets',
      routes: undefined,
      tabs: [{ id: 'big', label: 'Big', filter: {} }],
    };
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
  const admin = { loginType: 'agency' as const, role: 'admin' };
  const consultant = { loginType: 'agency' as const, role: 'consultant' };
  const client = { loginType: 'client' as const, role: 'admin' };
  it('an agency admin may do everything on every declared resource, except what is history (written once, never changed)', () => {
    // Records that are history: the audit trail and the e-mail outbox are written by the server only; a shift is
    // deleted only with a reason (soft: the row stays); a support request is never edited, a reply never changed.
    // A sign-in user is deactivated, never deleted (docs/decisions.md, users), and their list of sign-in addresses
    // is not offered as an export. A timesheet is generated from shifts, never created by hand, and never deleted
    // (pay and invoices rest on it); its lines change only by amendment (an action), its signatures only by signing.
    const history: Record<string, string[]> = {
      timesheets: ['create', 'delete'],
      timesheet_lines: ['edit', 'delete'],
      timesheet_signatures: ['create', 'edit', 'delete', 'export'],
      audit_entries: ['create', 'edit', 'delete'],
      email_outbox: ['create', 'edit', 'delete'],
      support_requests: ['edit'],
      support_replies: ['edit', 'delete', 'export'],
      users: ['delete', 'export'],
      // Issue 17: a staff member's request is made on their phone and answered by actions.
      shift_requests: ['create', 'edit', 'delete', 'export'],
      // Issue 29.1: the client names who signs hours on staff phones and sets their PINs; the agency only reads them.
      timesheet_approvers: ['create', 'edit', 'delete', 'export'],
      // Issue 31.8: the notification settings are not served as CRUD; their own routes (route()) read this access.
      // A setting is saved per event and never deleted (a template is, restoring the default) nor exported.
      notification_settings: ['delete', 'export'],
      notification_templates: ['export'],
      notification_payment_settings: ['delete', 'export'],
      notification_preferences: ['delete', 'export'],
      // Issue 32: an invoice is never deleted (a draft is voided with a reason); a run is made by generating.
      invoices: ['delete'],
      invoice_runs: ['create', 'edit', 'delete', 'export'],
      // A credit note is made by an invoice's Credit action and never changed.
      credit_notes: ['create', 'edit', 'delete'],
      credit_note_lines: ['create', 'edit', 'delete', 'export'],
      // A payment is reversed with a reason, never edited or deleted; its allocations are written by it.
      payments: ['edit', 'delete'],
      payment_allocations: ['create', 'edit', 'delete', 'export'],
      // An accounting export records its batch; a batch is never changed, so the next export can trust it.
      invoice_export_batches: ['create', 'edit', 'delete', 'export'],
      // Issue 32: the invoice settings are one row per agency, saved and never deleted; a reminder is written by the
      // reminders job once per invoice and step, and read on the invoice's history.
      invoice_settings: ['delete', 'export'],
      // Issue 35: the agency's one row of client settings, served by its own routes (server/routes/clientSettings.ts).
      client_settings: ['delete', 'export'],
      // Issue 35: the agency's one row of recruitment settings (server/routes/recruitmentSettings.ts).
      recruitment_settings: ['delete', 'export'],
      invoice_reminders: ['create', 'edit', 'delete', 'export'],
      // Issue 33: a pay run is made by generating; its payslips and their lines are written by it and follow it.
      pay_runs: ['create', 'edit', 'delete'],
      payslips: ['create', 'edit', 'delete'],
      payslip_lines: ['create', 'edit', 'delete', 'export'],
      // An adjustment, once recorded, is history: a pay run takes it (a wrong one is undone by another adjustment).
      payroll_adjustments: ['edit', 'delete'],
      // Issue 33: holiday taken is cancelled while booked and paid by a run, never deleted (a payslip may pay it).
      staff_holidays: ['delete', 'export'],
      // Issue 35: the agency's one row of settings, read and saved by its own routes; never listed, deleted, exported.
      agency_settings: ['list', 'delete', 'export'],
      // Issue 35: the agency's own roles are a handful of names and their privileges, not a list to export.
      agency_roles: ['export'],
    };
    // Another resource not served as CRUD (a staff member's sign-in) is the engine's alone: no action; the notification
    // and invoice settings are served by their own routes (route()), which read this access.
    for (const d of declarations) {
      const own =
        d.served !== false ||
        d.name.startsWith('notification_') ||
        d.name.startsWith('invoice_') ||
        d.name === 'client_settings' ||
        d.name === 'recruitment_settings' ||
        d.name === 'agency_settings';
      for (const a of ['list', 'show', 'create', 'edit', 'delete', 'export'])
        expect(canAccess(admin, d.name, a), `${d.name} ${a}`).toBe(own && !history[d.name]?.includes(a));
    }
    expect(canAccess(admin, 'shifts', 'remove')).toBe(true);
  });
  it('a role counts only in its own panel: an agency role grants a client user nothing, and the reverse', () => {
    expect(canAccess({ loginType: 'client', role: 'admin' }, 'clients', 'list')).toBe(false);
    expect(canAccess({ loginType: 'agency', role: 'manager' }, 'sites', 'list')).toBe(false);
    expect(canAccess({ loginType: 'client', role: 'manager' }, 'sites', 'list')).toBe(true);
    expect(canAccess({ loginType: 'client', role: 'manager' }, 'candidates', 'list')).toBe(false);
  });
  it('actions are granted by their declaration', () => {
    expect(canAccess(admin, 'candidates', 'approve')).toBe(true);
    expect(canAccess(consultant, 'candidate_documents', 'verify')).toBe(true);
    expect(canAccess({ loginType: 'client', role: 'manager' }, 'candidates', 'approve')).toBe(false);
    expect(canAccess(admin, 'candidates', 'no_such_action')).toBe(false);
  });
  it('a consultant works on clients, sites and staff but cannot delete them', () => {
    for (const name of ['clients', 'sites', 'candidates']) {
      for (const a of ['list', 'show', 'create', 'edit', 'export'])
        expect(canAccess(consultant, name, a), `${name} ${a}`).toBe(true);
      expect(canAccess(consultant, name, 'delete'), name).toBe(false);
    }
  });
  it('a consultant only reads the staff settings', () => {
    for (const d of settingsResources) {
      expect(canAccess(consultant, d.name, 'list')).toBe(true);
      expect(canAccess(consultant, d.name, 'show')).toBe(true);
      for (const a of ['create', 'edit', 'delete', 'export', 'clone'])
        expect(canAccess(consultant, d.name, a), `${d.name} ${a}`).toBe(false);
    }
  });
  it('a client login may do nothing in the agency back office, whatever its role', () => {
    for (const d of declarations) for (const a of ['list', 'show']) expect(canAccess(client, d.name, a)).toBe(false);
    expect(canAccess({ loginType: 'client', role: 'manager' }, 'clients', 'list')).toBe(false);
  });
  it('unknown resources and roles are denied', () => {
    expect(canAccess(admin, 'purchase_orders', 'list')).toBe(false);
    expect(canAccess({ loginType: 'agency', role: 'owner' }, 'clients', 'list')).toBe(false);
    expect(canAccess(admin, 'clients', 'launch')).toBe(false);
  });
  it("react-admin's 'clone' is a create and 'read' is a show", () => {
    const listOnly: ResourceDeclaration = { ...clients, access: { viewer: ['list', 'show'], manager: ['create'] } };
    expect(permits({ loginType: 'client', role: 'viewer' }, listOnly, 'read')).toBe(true);
    expect(permits({ loginType: 'client', role: 'viewer' }, listOnly, 'clone')).toBe(false);
    expect(permits({ loginType: 'client', role: 'manager' }, listOnly, 'clone')).toBe(true);
    expect(permits({ loginType: 'client', role: 'manager' }, listOnly, 'read')).toBe(false);
  });
});

describe('strict types: hostile values are field errors, never converted', () => {
  // JSON can carry an object whose toString is not a function: Number() and String() throw on it.
  const hostile = JSON.parse('{"toString":"x"}');
  const hostileValueOf = JSON.parse('{"valueOf":"1","toString":"1"}');

  it('an object in a text, a unique text or a reference field is reported, and checking it does not throw', () => {
    const code = clients.fields.find((x) => x.source === 'code')!; // unique text
    expect(code.unique).toBe(true);
    for (const v of [hostile, hostileValueOf]) {
      expect(msg(f({ type: 'text' }), v)).toBe('engine.validation.text');
      expect(msg(code, v)).toBe('engine.validation.text');
      expect(msg(f({ type: 'reference', reference: 'clients' }), v)).toBe('engine.validation.reference');
      expect(msg(f({ type: 'references', reference: 'clients' }), [1, v])).toBe('engine.validation.reference');
      expect(msg(f({ type: 'number' }), v)).toBe('ra.validation.number');
      expect(msg(f({ type: 'choice', choices: [{ id: 'x', name: 'X' }] }), v)).toBe('engine.validation.choice');
    }
  });
  it('a reference is a positive whole number or a string of digits naming one, within the id range', () => {
    const ref = f({ type: 'reference', reference: 'clients' });
    for (const ok of [1, '1', 2147483647, '2147483647']) expect(check(ref, ok), JSON.stringify(ok)).toBeUndefined();
    for (const bad of [
      ' 3',
      '3 ',
      '3.0',
      '03',
      '1e3',
      '0x10',
      '-1',
      true,
      [3],
      {},
      2147483648,
      '2147483648',
      '99999999999',
    ]) {
      expect(msg(ref, bad), JSON.stringify(bad)).toBe('engine.validation.reference');
    }
  });
  it(`references is a list of such ids, at most ${MAX_REFERENCES}`, () => {
    const refs = f({ type: 'references', reference: 'staff_profiles' });
    expect(
      check(
        refs,
        Array.from({ length: MAX_REFERENCES }, (_, i) => i + 1),
      ),
    ).toBeUndefined();
    expect(
      check(
        refs,
        Array.from({ length: MAX_REFERENCES + 1 }, (_, i) => i + 1),
      ),
    ).toEqual({ message: 'engine.validation.tooMany', args: { max: MAX_REFERENCES } });
    expect(msg(refs, [[1]])).toBe('engine.validation.reference');
    expect(msg(refs, { 0: 1, length: 1 })).toBe('engine.validation.reference');
  });
  it('" " and [] are wrong values (not empty ones) in boolean, date, date-time, choice, number, money and reference fields', () => {
    const fields = {
      boolean: 'engine.validation.boolean',
      date: 'engine.validation.date',
      datetime: 'engine.validation.datetime',
      choice: 'engine.validation.choice',
      number: 'ra.validation.number',
      money: 'ra.validation.number',
      reference: 'engine.validation.reference',
    } as const;
    for (const [type, message] of Object.entries(fields)) {
      for (const required of [false, true]) {
        const field = f({ type: type as keyof typeof fields, required, choices: [{ id: 'a', name: 'A' }] });
        for (const v of [' ', '\t', [], {}])
          expect(msg(field, v), `${type} ${JSON.stringify(v)} required=${required}`).toBe(message);
      }
    }
  });
  it('a boolean is only true or false', () => {
    for (const bad of ['true', 'false', 0, 1, ' ', [], {}])
      expect(msg(f({ type: 'boolean' }), bad), JSON.stringify(bad)).toBe('engine.validation.boolean');
  });
  it('a number is a finite number or a string of decimal digits', () => {
    const n = f({ type: 'number' });
    for (const ok of [0, -3, 2.5, '12', ' 12 ', '-4.25']) expect(check(n, ok), JSON.stringify(ok)).toBeUndefined();
    for (const bad of [' ', [], [5], true, false, '0x10', '1e3', 'Infinity', '12abc', '1.', '.5', {}])
      expect(msg(n, bad), JSON.stringify(bad)).toBe('ra.validation.number');
  });
  it('money beyond what JavaScript holds exactly is refused', () => {
    expect(msg(f({ type: 'money' }), 2 ** 53)).toBe('ra.validation.maxValue');
    expect(check(f({ type: 'money' }), 2 ** 53 - 1)).toBeUndefined();
  });
  it('reproduced: client_type [] and validity_months " " are refused, not stored as "" or 0', () => {
    const clientType = clients.fields.find((x) => x.source === 'client_type')!;
    expect(msg(clientType, [])).toBe('engine.validation.choice');
    const validity = documentCategories.fields.find((x) => x.source === 'validity_months')!;
    expect(msg(validity, ' ')).toBe('ra.validation.number');
    expect(check(validity, null)).toBeUndefined(); // empty: never expires
  });
  it('an address treats spaces as missing in its parts', () => {
    const addr = sites.fields.find((x) => x.source === 'address')!;
    expect(msg(addr, { line1: '1 High St', postcode: '   ' })).toBe('engine.validation.addressRequired');
  });
});

describe("date limits follow the agency's today, given as yyyy-MM-dd", () => {
  it('resolveLimit and checkField accept a yyyy-MM-dd today as well as a Date', () => {
    expect(resolveLimit('today', '2026-03-15')).toEqual(new Date(2026, 2, 15));
    expect(resolveLimit('-16y', '2026-03-15')).toEqual(new Date(2010, 2, 15));
    expect(resolveLimit('+30d', '2026-12-15')).toEqual(new Date(2027, 0, 14));
    const future = f({ type: 'date', date: { min: 'today' } });
    expect(checkField(future, '2026-03-15', '2026-03-15')).toBeUndefined();
    expect(checkField(future, '2026-03-15', '2026-03-16')).toEqual({
      message: 'engine.validation.dateMin',
      args: { min: '2026-03-16' },
    });
  });
  it("the same instant is another day in the agency's time zone than on the machine: the given today decides", () => {
    // 23:30 UTC on 28 June is 00:30 on 29 June in London (BST).
    const instant = new Date('2026-06-28T23:30:00Z');
    expect(agencyToday('Europe/London', instant)).toBe('2026-06-29');
    expect(agencyToday('UTC', instant)).toBe('2026-06-28');
    expect(agencyToday('Europe/London', new Date('2026-01-15T23:30:00Z'))).toBe('2026-01-15'); // GMT in winter
    const dob = candidates.fields.find((x) => x.source === 'date_of_birth')!; // at most -16y
    // Turning 16 on 29 June 2026 counts in London from 00:00 BST, when UTC still says the 28th.
    expect(checkField(dob, '2010-06-29', agencyToday('Europe/London', instant))).toBeUndefined();
    expect(checkField(dob, '2010-06-29', agencyToday('UTC', instant))?.message).toBe('engine.validation.dateMax');
  });
  it('validateRecord passes the today on to every field', () => {
    const record = {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      status: 'pending',
      activated: false,
      date_of_birth: '2010-06-29',
    };
    expect(validateRecord(candidates, record, [], '2026-06-29')).toEqual({});
    expect(Object.keys(validateRecord(candidates, record, [], '2026-06-28'))).toEqual(['date_of_birth']);
  });
  it('a malformed today is a programming error, said loudly', () => {
    expect(() => resolveLimit('today', '29/06/2026')).toThrow(/yyyy-MM-dd/);
  });
});

describe('validateCustomFieldsInput', () => {
  const defs: CustomFieldDefinition[] = [
    { key: 'dbs_number', label: 'DBS number', field_type: 'text', required: true },
    { key: 'shoe_size', label: 'Shoe size', field_type: 'number', required: false },
    { key: 'driver', label: 'Driver', field_type: 'boolean', required: false },
    { key: 'licence_expiry', label: 'Licence expiry', field_type: 'date', required: false },
    { key: 'shift', label: 'Shift', field_type: 'choice', required: false, options: 'Days, Nights' },
  ];
  const stored = { dbs_number: 'D-1', shoe_size: 9, old_badge: 'B-7' }; // old_badge: a field since removed
  const run = (input: unknown, today = '2026-03-15') => validateCustomFieldsInput(defs, input, stored, today);

  it('merges declared values into the stored ones, normalised (trimmed text, numbers from digits), and nothing is lost', () => {
    const r = run({ shoe_size: '10', driver: true, shift: 'Nights', dbs_number: '  D-2 ' });
    expect(r.problems).toEqual({});
    expect(r.merged).toEqual({ dbs_number: 'D-2', shoe_size: 10, driver: true, shift: 'Nights', old_badge: 'B-7' });
    expect(run(undefined)).toEqual({ problems: {}, merged: stored });
    expect(run({})).toEqual({ problems: {}, merged: stored });
  });
  it('null or "" removes a value; requiredness is left to validateRecord on the merged record', () => {
    const r = run({ shoe_size: null, dbs_number: '' });
    expect(r.problems).toEqual({});
    expect(r.merged).toEqual({ old_badge: 'B-7' });
    expect(
      validateRecord(
        candidates,
        {
          first_name: 'A',
          last_name: 'B',
          email: 'a@b.co',
          status: 'pending',
          activated: false,
          custom_fields: r.merged,
        },
        defs,
        '2026-03-15',
      ),
    ).toEqual({ 'custom_fields.dbs_number': { message: 'ra.validation.required' } });
  });
  it('refuses anything but a plain object on custom_fields as a whole', () => {
    for (const bad of ['abc', 'x'.repeat(100_000), 12, true, null, [], ['a'], [{ dbs_number: 'x' }]]) {
      const r = run(bad);
      expect(r.problems, JSON.stringify(bad).slice(0, 20)).toEqual({
        custom_fields: { message: 'engine.validation.customFields' },
      });
      expect(r.merged).toEqual(stored);
    }
  });
  it('refuses an undeclared key, naming it, and stores nothing of the input', () => {
    const r = run({ shoe_size: 11, nickname: 'Al', __proto__x: 1, constructor: 'x', toString: 'y' });
    expect(r.problems).toEqual({
      'custom_fields.nickname': { message: 'engine.validation.unknownField' },
      'custom_fields.__proto__x': { message: 'engine.validation.unknownField' },
      'custom_fields.constructor': { message: 'engine.validation.unknownField' },
      'custom_fields.toString': { message: 'engine.validation.unknownField' },
    });
    expect(r.merged).toEqual(stored);
    // A __proto__ key from JSON is an own key like any other: refused, and the prototype is untouched.
    const proto = run(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.keys(proto.problems)).toEqual(['custom_fields.__proto__']);
    expect(({} as any).polluted).toBeUndefined();
  });
  it("a removed field's stored value may be sent back unchanged or cleared, never changed or newly written", () => {
    expect(run({ old_badge: 'B-7', shoe_size: 8 })).toEqual({ problems: {}, merged: { ...stored, shoe_size: 8 } });
    expect(run({ old_badge: null }).merged).toEqual({ dbs_number: 'D-1', shoe_size: 9 });
    expect(run({ old_badge: 'B-8' }).problems).toEqual({
      'custom_fields.old_badge': { message: 'engine.validation.removedField' },
    });
    expect(validateCustomFieldsInput(defs, { old_badge: 'B-7' }, {}, '2026-03-15').problems).toEqual({
      'custom_fields.old_badge': { message: 'engine.validation.unknownField' },
    });
  });
  it('checks each value against its declared type', () => {
    const r = run({ shoe_size: ' ', driver: 'yes', licence_expiry: '2026-2-3', shift: 'Weekends', dbs_number: 5 });
    expect(r.problems).toEqual({
      'custom_fields.shoe_size': { message: 'ra.validation.number' },
      'custom_fields.driver': { message: 'engine.validation.boolean' },
      'custom_fields.licence_expiry': { message: 'engine.validation.date' },
      'custom_fields.shift': { message: 'engine.validation.choice' },
      'custom_fields.dbs_number': { message: 'engine.validation.text' },
    });
    expect(r.merged).toEqual(stored);
  });
  it('refuses nested values: an object or a list is not a single value', () => {
    expect(run({ dbs_number: { a: 1 }, shoe_size: [9] }).problems).toEqual({
      'custom_fields.dbs_number': { message: 'engine.validation.singleValue' },
      'custom_fields.shoe_size': { message: 'engine.validation.singleValue' },
    });
  });
  it('a value nested 100,000 deep is refused at once, without recursing (no stack overflow)', () => {
    const depth = 100_000;
    const deep = JSON.parse('{"dbs_number":' + '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) + '}');
    expect(run(deep).problems).toEqual({ 'custom_fields.dbs_number': { message: 'engine.validation.singleValue' } });
    expect(run(deep.dbs_number).problems).toEqual({ 'custom_fields.a': { message: 'engine.validation.singleValue' } });
    // At once: nothing below the refused value is read (a proxy notes every read of it).
    const reads: string[] = [];
    const watched = new Proxy(deep.dbs_number, {
      get: (target, key, receiver) => (reads.push(String(key)), Reflect.get(target, key, receiver)),
      ownKeys: (target) => (reads.push('(its keys)'), Reflect.ownKeys(target)),
      has: (target, key) => (reads.push(String(key)), Reflect.has(target, key)),
    });
    expect(run({ dbs_number: watched }).problems).toEqual({
      'custom_fields.dbs_number': { message: 'engine.validation.singleValue' },
    });
    expect(reads).toEqual([]);
  });
  it('at most 50 keys and 20 KB', () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'x']));
    expect(run(many).problems).toEqual({
      custom_fields: { message: 'engine.validation.customFieldsTooMany', args: { max: 50 } },
    });
    // Built with a loop: Object.fromEntries over an array of 1.3M pairs took 6–7 s on a loaded machine (either Node),
    // past the test's timeout, for the same object.
    const huge: Record<string, string> = {};
    for (let i = 0; i < 1_300_000; i++) huge[i] = 'x';
    expect(run(huge).problems.custom_fields.message).toBe('engine.validation.customFieldsTooMany');
    const large = { dbs_number: 'x'.repeat(21 * 1024) };
    expect(run(large).problems).toEqual({
      custom_fields: { message: 'engine.validation.customFieldsTooLarge', args: { max: '20 KB' } },
    });
    const longKey = { ['k'.repeat(30_000)]: 1 };
    expect(run(longKey).problems).toEqual({
      custom_fields: { message: 'engine.validation.customFieldsTooLarge', args: { max: '20 KB' } },
    });
  });
  it('a date value must be an exact yyyy-MM-dd date', () => {
    const withLimit: CustomFieldDefinition[] = [{ key: 'd', label: 'D', field_type: 'date', required: false }];
    expect(validateCustomFieldsInput(withLimit, { d: '2026-02-29' }, {}, '2026-03-15').problems).toEqual({
      'custom_fields.d': { message: 'engine.validation.date' },
    });
    expect(validateCustomFieldsInput(withLimit, { d: '2028-02-29' }, {}, '2026-03-15')).toEqual({
      problems: {},
      merged: { d: '2028-02-29' },
    });
  });
});
