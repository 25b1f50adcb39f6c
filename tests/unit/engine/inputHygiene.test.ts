// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { checkField, validateRecord } from '../../../core/engine/validate';
import { parseStrictInstant } from '../../../core/engine/dates';
import { emailLookAlikeProblem } from '../../../core/engine/formats';
import { isNameField, normaliseText, textCharactersProblem } from '../../../core/engine/text';
import type { FieldDeclaration } from '../../../core/engine/types';
import { candidatePreferences } from '../../../core/resources/compliance/resource';
import { declarations } from '../../../core/resources/declarations';
import { toFieldErrors } from '../../../server/engine/messages';

const f = (over: Partial<FieldDeclaration> & Pick<FieldDeclaration, 'type'>): FieldDeclaration => ({
  source: 'x',
  label: 'X',
  ...over,
});
const msg = (field: FieldDeclaration, value: unknown) => checkField(field, value, '2026-03-15')?.message;

/** Characters no text keeps: the attacker's findings, one of each kind. */
const HIDDEN = {
  NUL: '\u0000',
  ESC: '\u001b[31m',
  BEL: '\u0007',
  DEL: '\u007f',
  NEL: '\u0085',
  CSI: '\u009b',
  'lone high surrogate': '\ud800',
  'lone low surrogate': '\udc00',
  'replacement character': '\ufffd',
  'right-to-left override': '\u202e',
  'left-to-right isolate': '\u2066',
  'zero-width space': '\u200b',
  'zero-width joiner': '\u200d',
  'word joiner': '\u2060',
  'byte-order mark': '\ufeff',
  'soft hyphen': '\u00ad',
  'line separator': '\u2028',
  'paragraph separator': '\u2029',
  'vertical tab': '\u000b',
  'form feed': '\u000c',
};
const LINE_BREAKS = { CR: '\r', LF: '\n', 'CR LF': '\r\n', TAB: '\t' };

describe('text characters', () => {
  it.each(Object.entries(HIDDEN))('%s inside any text is refused', (_, junk) => {
    for (const kind of ['line', 'multiline'] as const)
      expect(textCharactersProblem(`a${junk}b`, kind), kind).toBe('engine.validation.hiddenCharacters');
    for (const type of ['text', 'longtext', 'email', 'phone'] as const)
      expect(msg(f({ type }), `a${junk}b`), type).toBe('engine.validation.hiddenCharacters');
  });

  it.each(Object.entries(LINE_BREAKS))('%s: a one-line field refuses it, a multi-line field keeps it', (_, brk) => {
    expect(msg(f({ type: 'text' }), `a${brk}b`)).toBe('engine.validation.oneLine');
    expect(msg(f({ type: 'email' }), `a@b.c${brk}x`)).toBe('engine.validation.oneLine');
    expect(msg(f({ type: 'longtext' }), `a${brk}b`)).toBeUndefined();
  });

  it('address parts are one-line text, and the problem names its part', () => {
    const address = f({ type: 'address' });
    expect(checkField(address, { line1: 'Flat 1\n2 High St', postcode: 'AB1 2CD' })).toEqual({
      message: 'engine.validation.oneLine',
      args: { part: 'line1' },
    });
    expect(checkField(address, { line1: '2 High St', city: 'Leeds\u202e', postcode: 'AB1 2CD' })).toEqual({
      message: 'engine.validation.hiddenCharacters',
      args: { part: 'city' },
    });
    expect(checkField(address, { line1: '2 High St', city: 'Leeds', postcode: 'AB1 2CD' })).toBeUndefined();
  });

  it('real text passes: accents, other scripts, emoji (joined ones and flags too), typographic punctuation', () => {
    for (const text of [
      'Zoë Łukasz',
      'Renée O’Brien – Nurse',
      '履歴書',
      'محمد',
      'नमस्ते',
      'Good job 👍🏽',
      'Team 👩‍💻👨‍👩‍👧',
      'From 🏴󠁧󠁢󠁳󠁣󠁴󠁿',
      '£12.50 · 5×',
    ]) {
      expect(textCharactersProblem(text, 'line'), text).toBeUndefined();
      expect(msg(f({ type: 'text' }), text), text).toBeUndefined();
    }
  });

  it('every ASCII character is answered by what it is: printable ones pass, controls are refused, breaks by kind', () => {
    for (let code = 0; code < 128; code++) {
      const ch = String.fromCharCode(code);
      const breakOrTab = ch === '\r' || ch === '\n' || ch === '\t';
      const printable = code >= 0x20 && code <= 0x7e;
      expect(textCharactersProblem(`a${ch}b`, 'line'), `U+${code.toString(16)}`).toBe(
        printable ? undefined : breakOrTab ? 'engine.validation.oneLine' : 'engine.validation.hiddenCharacters',
      );
      expect(textCharactersProblem(`a${ch}b`, 'multiline'), `U+${code.toString(16)}`).toBe(
        printable || breakOrTab ? undefined : 'engine.validation.hiddenCharacters',
      );
    }
  });

  it('the messages are plain words, the same in the form and the API', () => {
    expect(
      toFieldErrors({
        name: { message: 'engine.validation.hiddenCharacters' },
        code: { message: 'engine.validation.oneLine' },
      }),
    ).toEqual({
      name: 'Remove control or invisible characters (such as pasted formatting)',
      code: 'Keep this on one line: remove line breaks and tabs',
    });
  });

  it('text is stored trimmed and in NFC', () => {
    const decomposed = 'Rene\u0301e';
    expect(normaliseText(` ${decomposed} `)).toBe('Ren\u00e9e');
    expect(normaliseText(decomposed)).toHaveLength(5);
  });
});

describe('names show a letter or digit (issue 30.14)', () => {
  const INVISIBLE = {
    'Hangul filler U+3164': '\u3164',
    'halfwidth Hangul filler U+FFA0': '\uffa0',
    'Hangul choseong filler U+115F': '\u115f\u1160',
    'lone variation selector U+FE0F': '\ufe0f',
    'combining marks only': '\u0301\u0302\u0303',
    'braille blank U+2800': '\u2800',
    'punctuation only': '.-_',
  };
  it.each(Object.entries(INVISIBLE))('%s is refused in every name field, in words', (_, junk) => {
    for (const source of ['name', 'first_name', 'company_name', 'label', 'title'])
      expect(msg(f({ type: 'text', source }), junk), source).toBe('engine.validation.visibleName');
    expect(toFieldErrors({ name: { message: 'engine.validation.visibleName' } }).name).toBe(
      'Enter a name with at least one letter or digit',
    );
  });

  it('every declared name field refuses them: the rule is the engine’s, not a form’s', () => {
    const names = declarations.flatMap((d) =>
      d.fields.filter((x) => isNameField(x) && !x.readOnly && !x.computed).map((x) => `${d.name}.${x.source}`),
    );
    expect(names.length).toBeGreaterThan(10);
    for (const d of declarations)
      for (const x of d.fields.filter((y) => isNameField(y) && !y.readOnly && !y.computed))
        expect(msg(x, '\u3164'), `${d.name}.${x.source}`).toBe('engine.validation.visibleName');
  });

  it('real names pass, in any script, with marks, digits or a filler beside letters', () => {
    for (const name of ['Zoë', 'Rene\u0301e', '履歴書', 'محمد', 'Ward 7', '7', 'Ann \u3164Lee', 'O’Brien', 'Café 👍'])
      expect(msg(f({ type: 'text', source: 'name' }), name), name).toBeUndefined();
    // Other one-line text (a code, a subject) is not a name: the rule is not theirs.
    expect(msg(f({ type: 'text', source: 'code' }), '---')).toBeUndefined();
  });
});

describe('look-alike e-mail addresses (issue 30.15)', () => {
  it.each([
    ['\uff41\uff44\uff4d\uff49\uff4e@demo.test', 'engine.validation.emailCompatibility'],
    ['admin@\uff44emo.test', 'engine.validation.emailCompatibility'],
    ['\u24d0dmin@demo.test', 'engine.validation.emailCompatibility'],
    ['\u0430dmin@demo.test', 'engine.validation.emailMixedScripts'],
    ['p\u0430ypal@example.com', 'engine.validation.emailMixedScripts'],
    ['admin@\u03bfther.test', 'engine.validation.emailMixedScripts'],
    ['admin@demo.test', undefined],
    ['Zo\u00eb.Smith+rota@example.co.uk', undefined],
    ['\u0438\u0432\u0430\u043d@example.com', undefined],
    ['\u5c71\u7530\u3055\u3093@example.jp', undefined],
  ])('%s → %s', (email, problem) => {
    expect(emailLookAlikeProblem(email)).toBe(problem);
    expect(msg(f({ type: 'email' }), email)).toBe(problem);
  });
});

describe('strict date-times', () => {
  it('impossible days and times are refused, never rolled over', () => {
    for (const v of [
      '2027-02-30T08:00:00Z',
      '2027-02-29T08:00:00Z',
      '2026-04-31T08:00',
      '2027-13-01T08:00:00Z',
      '2027-01-01T24:00:00Z',
      '2027-01-01T08:60:00Z',
      '2027-01-01T08:00:60Z',
      '2027-01-01T08:00:00+25:00',
      '2027-01-01T08:00:00Zjunk',
      '2027-01-01 08:00:00Z',
      '2027-1-1T08:00Z',
    ]) {
      expect(parseStrictInstant(v), v).toBeNull();
      expect(msg(f({ type: 'datetime' }), v), v).toBe('engine.validation.datetime');
    }
  });
  it('what the pickers and the database send passes', () => {
    for (const v of [
      '2028-02-29T08:00:00Z',
      '2027-02-28T23:59:59.999Z',
      '2027-06-01T08:00:00+01:00',
      '2027-06-01T08:00',
      '2027-06-01T08:00:00.123456Z',
    ]) {
      expect(parseStrictInstant(v), v).not.toBeNull();
      expect(msg(f({ type: 'datetime' }), v), v).toBeUndefined();
    }
    expect(parseStrictInstant('2027-02-28T08:00:00Z')!.toISOString()).toBe('2027-02-28T08:00:00.000Z');
  });
});

describe('types are checked before any rule runs', () => {
  it('candidate_preferences with a string, a number or an object where a list is declared answers field problems, never throws', () => {
    for (const v of ['abc', 42, { length: 3 }, true]) {
      for (const source of ['preferred_client_ids', 'avoided_client_ids', 'preferred_site_ids', 'avoided_site_ids']) {
        const problems = validateRecord(
          candidatePreferences,
          { candidate_id: 1, preferred_client_ids: [1], avoided_client_ids: [2], [source]: v },
          [],
          '2026-03-15',
        );
        expect(problems[source], `${source} = ${JSON.stringify(v)}`).toEqual({
          message: 'engine.validation.reference',
        });
      }
    }
    // The rule still runs on well-typed values.
    expect(
      validateRecord(
        candidatePreferences,
        { candidate_id: 1, preferred_client_ids: [1], avoided_client_ids: [1] },
        [],
        '2026-03-15',
      ).avoided_client_ids,
    ).toEqual({ message: 'app.preferences.overlap' });
  });

  it('no declaration’s rules throw on a value of the wrong type in any field', () => {
    const wrong = ['abc', 42, { a: 1 }, [1, 'x'], true, '2027-02-30T08:00:00Z'];
    for (const decl of declarations) {
      for (const field of decl.fields) {
        for (const v of wrong)
          expect(
            () => validateRecord(decl, { [field.source]: v }, [], '2026-03-15'),
            `${decl.name}.${field.source} = ${JSON.stringify(v)}`,
          ).not.toThrow();
      }
    }
  });
});
