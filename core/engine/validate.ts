import type { FieldDeclaration, RecordValues, ResourceDeclaration } from './types';
import { parseStrictDate, parseStrictInstant, resolveLimit, formatDate, type Today } from './dates';
import { isNameField, normaliseText, showsLetterOrDigit, textCharactersProblem } from './text';
import { EMAIL, emailLookAlikeProblem } from './formats';
import { penceToPounds } from './money';
import { FILE_LIMITS, FILE_LIMIT_LABELS, FILE_MIMES, fileKindOf, isChosenFile, isFileId, isShippedPath } from './files';

/** A message key with its arguments: react-admin translates it in forms, the server in its 422 answers. */
export interface Problem {
  message: string;
  args?: Record<string, unknown>;
}
export type Problems = Record<string, Problem>;

const PHONE = /^\+?[0-9 ()-]{7,20}$/;

/** A custom field an agency defines for its staff (staff detail fields), validated like a declared one. */
export interface CustomFieldDefinition {
  key: string;
  label: string;
  field_type: 'text' | 'number' | 'date' | 'boolean' | 'choice';
  required: boolean;
  options?: string | null;
}

export const customFieldAsDeclaration = (c: CustomFieldDefinition): FieldDeclaration => ({
  source: `custom_fields.${c.key}`,
  label: c.label,
  type: c.field_type,
  required: c.required,
  choices: c.field_type === 'choice' ? splitOptions(c.options).map((o) => ({ id: o, name: o })) : undefined,
});

export const splitOptions = (options?: string | null) =>
  (options ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const TEXT_LIKE = new Set(['text', 'longtext', 'email', 'phone']);
/** Nothing there at all, or text of spaces only. */
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Whether a value counts as "not given" for its field. Only text-like fields read spaces as empty and only a
 * many-reference reads [] as empty: " " or [] in a date, a boolean or a choice is a wrong value, reported as
 * such, never quietly stored as nothing (or as "{}").
 */
const isEmpty = (f: FieldDeclaration, v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (TEXT_LIKE.has(f.type) && blank(v)) ||
  (f.type === 'references' && Array.isArray(v) && v.length === 0);

/** Record ids are PostgreSQL `serial` (int4). */
const MAX_ID = 2 ** 31 - 1;
export const MAX_REFERENCES = 1000;
/** A positive whole id, as a number or as a string of digits; never an object that merely converts to one. */
const isId = (v: unknown) =>
  (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_ID) ||
  (typeof v === 'string' && /^[1-9][0-9]{0,9}$/.test(v) && Number(v) <= MAX_ID);
/** A decimal written as digits (with an optional sign and fraction): not "", " ", "0x10", "1e3" or "Infinity". */
const NUMERIC = /^-?[0-9]+(\.[0-9]+)?$/;
const toNumber = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v.trim()) : NaN;

/**
 * Checks one value against its field; undefined when it is fine. Types are strict: the server runs this before
 * anything touches the database, so a value of the wrong kind must be reported here, never converted.
 * `now` decides date limits such as 'today': the agency's date ('yyyy-MM-dd') on the server, a Date in the browser.
 */
export function checkField(f: FieldDeclaration, value: unknown, now: Today = new Date()): Problem | undefined {
  if (f.readOnly) return undefined;
  if (isEmpty(f, value)) return f.required && f.type !== 'boolean' ? { message: 'ra.validation.required' } : undefined;
  switch (f.type) {
    case 'text':
    case 'longtext':
    case 'email':
    case 'phone': {
      if (typeof value !== 'string') return { message: 'engine.validation.text' };
      const characters = textCharactersProblem(value, f.type === 'longtext' ? 'multiline' : 'line');
      if (characters) return { message: characters };
      const v = normaliseText(value);
      if (isNameField(f) && !showsLetterOrDigit(v)) return { message: 'engine.validation.visibleName' };
      if (f.minLength && v.length < f.minLength)
        return { message: 'ra.validation.minLength', args: { min: f.minLength } };
      const max = f.maxLength ?? (f.type === 'longtext' ? 5000 : 255);
      if (v.length > max) return { message: 'ra.validation.maxLength', args: { max } };
      if (f.type === 'email' && !EMAIL.test(v)) return { message: 'engine.validation.email' };
      if (f.type === 'email') {
        const lookAlike = emailLookAlikeProblem(v);
        if (lookAlike) return { message: lookAlike };
      }
      if (f.type === 'phone' && !PHONE.test(v)) return { message: 'engine.validation.phone' };
      if (f.pattern && !new RegExp(f.pattern.regex).test(v)) return { message: f.pattern.message };
      return undefined;
    }
    case 'number':
    case 'money': {
      const n = toNumber(value);
      if (!Number.isFinite(n)) return { message: 'ra.validation.number' };
      // Money travels in minor units (pence): a whole number; its limits are declared in major units.
      if ((f.type === 'money' || f.integer) && !Number.isInteger(n)) return { message: 'engine.validation.integer' };
      const major = f.type === 'money' ? penceToPounds(n) : n;
      if (f.min !== undefined && major < f.min) return { message: 'ra.validation.minValue', args: { min: f.min } };
      if (f.max !== undefined && major > f.max) return { message: 'ra.validation.maxValue', args: { max: f.max } };
      if (Math.abs(n) > 2 ** 31 - 1 && f.type !== 'money')
        return { message: 'ra.validation.maxValue', args: { max: 2 ** 31 - 1 } };
      // Money is a bigint column, but pence beyond 2^53 are no longer exact in JavaScript.
      if (!Number.isSafeInteger(n) && f.type === 'money')
        return { message: 'ra.validation.maxValue', args: { max: penceToPounds(Number.MAX_SAFE_INTEGER) } };
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : { message: 'engine.validation.boolean' };
    case 'choice':
      return typeof value === 'string' && f.choices?.some((c) => c.id === value)
        ? undefined
        : { message: 'engine.validation.choice' };
    case 'choices':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && f.choices?.some((c) => c.id === v))
        ? undefined
        : { message: 'engine.validation.choice' };
    case 'reference':
      return isId(value) ? undefined : { message: 'engine.validation.reference' };
    case 'references':
      if (!Array.isArray(value) || !value.every(isId)) return { message: 'engine.validation.reference' };
      return value.length > (f.max ?? MAX_REFERENCES)
        ? { message: 'engine.validation.tooMany', args: { max: f.max ?? MAX_REFERENCES } }
        : undefined;
    case 'date': {
      const d = typeof value === 'string' ? parseStrictDate(value) : null;
      if (!d) return { message: 'engine.validation.date' };
      return checkDateLimits(f, d, now);
    }
    case 'datetime': {
      const d = typeof value === 'string' ? parseStrictInstant(value) : null;
      if (!d) return { message: 'engine.validation.datetime' };
      return checkDateLimits(f, d, now);
    }
    case 'image':
    case 'file': {
      // A stored file's id (the API also checks it is this agency's and free to attach) or a file the product ships.
      if (isFileId(value) || isShippedPath(value)) return undefined;
      // In a form, a newly chosen file waits for the save to upload it: its size and claimed type are checked now,
      // its bytes by the API. Nothing else (data URLs, other sites' URLs) is a file.
      if (!isChosenFile(value)) return { message: 'engine.validation.file' };
      const kind = fileKindOf(f.type);
      const { size, type } = value.rawFile;
      if (type && !(FILE_MIMES[kind] as readonly string[]).includes(type))
        return { message: kind === 'image' ? 'engine.validation.image' : 'engine.validation.fileType' };
      if (size > FILE_LIMITS[kind])
        return { message: 'engine.validation.fileSize', args: { max: FILE_LIMIT_LABELS[kind] } };
      return undefined;
    }
    case 'address': {
      if (typeof value !== 'object' || Array.isArray(value)) return { message: 'engine.validation.address' };
      const a = value as RecordValues;
      for (const k of Object.keys(a))
        if (!['line1', 'line2', 'city', 'postcode', 'country'].includes(k))
          return { message: 'engine.validation.address' };
      for (const k of Object.keys(a))
        if (a[k] != null && (typeof a[k] !== 'string' || (a[k] as string).length > 200))
          return { message: 'engine.validation.address' };
      for (const k of Object.keys(a)) {
        const characters = typeof a[k] === 'string' ? textCharactersProblem(a[k] as string, 'line') : undefined;
        // The part goes along so the form shows the message on that input.
        if (characters) return { message: characters, args: { part: k } };
      }
      if (f.required && (blank(a.line1) || blank(a.postcode))) return { message: 'engine.validation.addressRequired' };
      if (!blank(a.postcode) && !/^[A-Za-z0-9 -]{3,10}$/.test(String(a.postcode).trim()))
        return { message: 'engine.validation.postcode' };
      return undefined;
    }
  }
}

function checkDateLimits(f: FieldDeclaration, d: Date, now: Today): Problem | undefined {
  const min = resolveLimit(f.date?.min, now);
  const max = resolveLimit(f.date?.max, now);
  const day = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  if (min && day < min) return { message: 'engine.validation.dateMin', args: { min: formatDate(min) } };
  if (max && day > max) return { message: 'engine.validation.dateMax', args: { max: formatDate(max) } };
  if (f.date?.disabledWeekdays?.includes(d.getDay())) return { message: 'engine.validation.dateDisabled' };
  return undefined;
}

export const getPath = (record: RecordValues, path: string): unknown =>
  // Most paths are a field's own name: read without splitting (a create of thousands validates every field of each).
  path.includes('.')
    ? path
        .split('.')
        .reduce<unknown>((o, k) => (o != null && typeof o === 'object' ? (o as RecordValues)[k] : undefined), record)
    : record[path];

/**
 * Validates a whole record against its declaration (and the agency's custom fields). Keys are field sources;
 * `create` checks every writable field, `edit` the same on the merged record.
 */
export function validateRecord(
  decl: ResourceDeclaration,
  record: RecordValues,
  custom: CustomFieldDefinition[] = [],
  now: Today = new Date(),
): Problems {
  const fields = custom.length ? [...decl.fields, ...custom.map(customFieldAsDeclaration)] : decl.fields;
  return validateOne(decl, fields, record, now);
}

/**
 * validateRecord for many records at once (a set-based write): the same problems for each, by position. A field's
 * check answers only from the field, the value and today, so a single value (a text, a number, a yes/no) once found
 * fine is fine for every record of the set: the same dates, states and amounts are not parsed again for each.
 */
export function validateRecords(
  decl: ResourceDeclaration,
  records: RecordValues[],
  custom: CustomFieldDefinition[] = [],
  now: Today = new Date(),
): Problems[] {
  const fields = custom.length ? [...decl.fields, ...custom.map(customFieldAsDeclaration)] : decl.fields;
  const fine = fields.map(() => new Set<unknown>());
  return records.map((record) => validateOne(decl, fields, record, now, fine));
}

/** A value whose check depends on nothing but the value itself (no object or list). */
const isSingle = (v: unknown) => v === null || v === undefined || typeof v !== 'object';

function validateOne(
  decl: ResourceDeclaration,
  fields: FieldDeclaration[],
  record: RecordValues,
  now: Today,
  /** Per field (by position), the single values a set found fine. */
  fine?: Set<unknown>[],
): Problems {
  const problems: Problems = {};
  // A set-based write validates thousands of records: no copies for a declaration without custom fields or rules.
  // The rules see only values of their field's type (a list where a list is declared): a value that failed its
  // check reads as not given, so a rule can never be handed a string where it expects a list.
  const checked: RecordValues | undefined = decl.rules ? { ...record } : undefined;
  for (let k = 0; k < fields.length; k++) {
    const f = fields[k];
    const v = getPath(record, f.source);
    const known = fine?.[k];
    if (known?.has(v)) continue;
    const p = checkField(f, v, now);
    if (!p) {
      if (known && isSingle(v)) known.add(v);
      continue;
    }
    problems[f.source] = p;
    if (checked && !f.source.includes('.')) checked[f.source] = undefined;
  }
  if (!decl.rules) return problems;
  for (const [field, message] of Object.entries(decl.rules(checked!) ?? {})) problems[field] ??= { message };
  return problems;
}

/** Bounds of what a caller may send as `custom_fields`: the 1.3 M-key record this prevents cost seconds per edit. */
export const CUSTOM_FIELDS_LIMITS = { maxKeys: 50, maxBytes: 20 * 1024 } as const;

const isPlainObject = (v: unknown): v is RecordValues =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(v));

export interface CustomFieldsCheck {
  /** Keyed `custom_fields` (the value as a whole) or `custom_fields.<key>`. */
  problems: Problems;
  /** What to store: the stored values with the caller's changes applied (the stored values alone on problems). */
  merged: RecordValues;
}

/**
 * Checks what a caller sends as `custom_fields` against the agency's definitions, and merges it into the stored
 * values (a write sends only what it changes).
 * - It must be a plain object of at most 50 keys and 20 KB, each value a single value (no object or list).
 * - Each key must be a defined field, its value of that field's type; null or '' removes the value.
 * - A key of a field the agency has since removed keeps its stored value (nothing saved is lost): it may be sent
 *   back unchanged, as a form does, or cleared, but never newly written.
 * Whether required fields are filled is the record's question: validateRecord checks the merged values.
 * Nothing here recurses into the input, so a value nested thousands deep is refused at once.
 */
export function validateCustomFieldsInput(
  defs: CustomFieldDefinition[],
  input: unknown,
  stored: unknown,
  now: Today = new Date(),
): CustomFieldsCheck {
  const merged: RecordValues = isPlainObject(stored) ? { ...stored } : {};
  const refuse = (message: string, args?: Record<string, unknown>): CustomFieldsCheck => ({
    problems: { custom_fields: { message, args } },
    merged,
  });
  if (input === undefined) return { problems: {}, merged };
  if (!isPlainObject(input)) return refuse('engine.validation.customFields');
  const keys = Object.keys(input);
  if (keys.length > CUSTOM_FIELDS_LIMITS.maxKeys)
    return refuse('engine.validation.customFieldsTooMany', { max: CUSTOM_FIELDS_LIMITS.maxKeys });
  // Measured before any key is named in an answer. Nested values count as nothing here; they are refused below.
  let bytes = 2;
  for (const key of keys) {
    const v = input[key];
    bytes += key.length + 4 + (typeof v === 'object' && v !== null ? 0 : (JSON.stringify(v) ?? '').length);
  }
  if (bytes > CUSTOM_FIELDS_LIMITS.maxBytes) return refuse('engine.validation.customFieldsTooLarge', { max: '20 KB' });

  const problems: Problems = {};
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const original = { ...merged };
  for (const key of keys) {
    const value = input[key];
    const source = `custom_fields.${key}`;
    if (typeof value === 'object' && value !== null) {
      problems[source] = { message: 'engine.validation.singleValue' };
      continue;
    }
    const def = byKey.get(key);
    if (!def) {
      if (!Object.hasOwn(original, key)) problems[source] = { message: 'engine.validation.unknownField' };
      else if (value === null || value === '') delete merged[key];
      else if (value !== original[key]) problems[source] = { message: 'engine.validation.removedField' };
      continue;
    }
    const field = customFieldAsDeclaration(def);
    // Requiredness is checked on the merged record; here only the type of what is sent.
    const problem = checkField({ ...field, required: false }, value, now);
    if (problem) {
      problems[source] = problem;
      continue;
    }
    if (isEmpty(field, value)) delete merged[key];
    else if (def.field_type === 'number') merged[key] = toNumber(value);
    else merged[key] = typeof value === 'string' ? normaliseText(value) : value;
  }
  return Object.keys(problems).length ? { problems, merged: original } : { problems, merged };
}
