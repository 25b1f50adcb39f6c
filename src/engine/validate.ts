import type { FieldDeclaration, ResourceDeclaration } from './types';
import { parseStrictDate, resolveLimit, formatDate } from './dates';
import { EMAIL } from './formats';

/** A message key with its arguments: react-admin translates it in forms, the server in its 422 answers. */
export interface Problem {
  message: string;
  args?: Record<string, unknown>;
}
export type Problems = Record<string, Problem>;

const PHONE = /^\+?[0-9 ()-]{7,20}$/;
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,[A-Za-z0-9+/=]+$/;
export const MAX_UPLOAD_BYTES = 1024 * 1024;

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

export const splitOptions = (options?: string | null) => (options ?? '').split(',').map((s) => s.trim()).filter(Boolean);

const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** Checks one value against its field; undefined when it is fine. */
export function checkField(f: FieldDeclaration, value: unknown, now = new Date()): Problem | undefined {
  if (f.readOnly) return undefined;
  if (empty(value)) return f.required && f.type !== 'boolean' ? { message: 'ra.validation.required' } : undefined;
  switch (f.type) {
    case 'text':
    case 'longtext':
    case 'email':
    case 'phone': {
      if (typeof value !== 'string') return { message: 'engine.validation.text' };
      const v = value.trim();
      if (f.minLength && v.length < f.minLength) return { message: 'ra.validation.minLength', args: { min: f.minLength } };
      const max = f.maxLength ?? (f.type === 'longtext' ? 5000 : 255);
      if (v.length > max) return { message: 'ra.validation.maxLength', args: { max } };
      if (f.type === 'email' && !EMAIL.test(v)) return { message: 'engine.validation.email' };
      if (f.type === 'phone' && !PHONE.test(v)) return { message: 'engine.validation.phone' };
      if (f.pattern && !new RegExp(f.pattern.regex).test(v)) return { message: f.pattern.message };
      return undefined;
    }
    case 'number':
    case 'money': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return { message: 'ra.validation.number' };
      // Money travels in minor units (pence): a whole number; its limits are declared in major units.
      if ((f.type === 'money' || f.integer) && !Number.isInteger(n)) return { message: 'engine.validation.integer' };
      const major = f.type === 'money' ? n / 100 : n;
      if (f.min !== undefined && major < f.min) return { message: 'ra.validation.minValue', args: { min: f.min } };
      if (f.max !== undefined && major > f.max) return { message: 'ra.validation.maxValue', args: { max: f.max } };
      if (Math.abs(n) > 2 ** 31 - 1 && f.type !== 'money') return { message: 'ra.validation.maxValue', args: { max: 2 ** 31 - 1 } };
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : { message: 'engine.validation.boolean' };
    case 'choice':
      return typeof value === 'string' && f.choices?.some((c) => c.id === value) ? undefined : { message: 'engine.validation.choice' };
    case 'reference':
      return Number.isInteger(Number(value)) && Number(value) > 0 ? undefined : { message: 'engine.validation.reference' };
    case 'references':
      return Array.isArray(value) && value.every((v) => Number.isInteger(Number(v)) && Number(v) > 0) ? undefined : { message: 'engine.validation.reference' };
    case 'date': {
      const d = typeof value === 'string' ? parseStrictDate(value) : null;
      if (!d) return { message: 'engine.validation.date' };
      return checkDateLimits(f, d, now);
    }
    case 'datetime': {
      const d = typeof value === 'string' ? new Date(value) : null;
      if (!d || Number.isNaN(d.getTime()) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value as string)) return { message: 'engine.validation.datetime' };
      return checkDateLimits(f, d, now);
    }
    case 'image':
    case 'file': {
      const m = typeof value === 'string' ? DATA_URL.exec(value) : null;
      if (typeof value === 'string' && !m && /^\/[\w/.-]+$/.test(value)) return undefined; // a file the product ships
      if (!m) return { message: 'engine.validation.file' };
      if (f.type === 'image' && !m[1].startsWith('image/')) return { message: 'engine.validation.image' };
      if ((value as string).length * 0.75 > MAX_UPLOAD_BYTES) return { message: 'engine.validation.fileSize', args: { max: '1 MB' } };
      return undefined;
    }
    case 'address': {
      if (typeof value !== 'object' || Array.isArray(value)) return { message: 'engine.validation.address' };
      const a = value as Record<string, unknown>;
      for (const k of Object.keys(a)) if (!['line1', 'line2', 'city', 'postcode', 'country'].includes(k)) return { message: 'engine.validation.address' };
      for (const k of Object.keys(a)) if (a[k] != null && (typeof a[k] !== 'string' || (a[k] as string).length > 200)) return { message: 'engine.validation.address' };
      if (f.required && (empty(a.line1) || empty(a.postcode))) return { message: 'engine.validation.addressRequired' };
      if (!empty(a.postcode) && !/^[A-Za-z0-9 -]{3,10}$/.test(String(a.postcode).trim())) return { message: 'engine.validation.postcode' };
      return undefined;
    }
  }
}

function checkDateLimits(f: FieldDeclaration, d: Date, now: Date): Problem | undefined {
  const min = resolveLimit(f.date?.min, now);
  const max = resolveLimit(f.date?.max, now);
  const day = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  if (min && day < min) return { message: 'engine.validation.dateMin', args: { min: formatDate(min) } };
  if (max && day > max) return { message: 'engine.validation.dateMax', args: { max: formatDate(max) } };
  if (f.date?.disabledWeekdays?.includes(d.getDay())) return { message: 'engine.validation.dateDisabled' };
  return undefined;
}

export const getPath = (record: Record<string, any>, path: string) => path.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), record);

/**
 * Validates a whole record against its declaration (and the agency's custom fields). Keys are field sources;
 * `create` checks every writable field, `edit` the same on the merged record.
 */
export function validateRecord(decl: ResourceDeclaration, record: Record<string, any>, custom: CustomFieldDefinition[] = [], now = new Date()): Problems {
  const problems: Problems = {};
  const fields = [...decl.fields, ...custom.map(customFieldAsDeclaration)];
  for (const f of fields) {
    const p = checkField(f, getPath(record, f.source), now);
    if (p) problems[f.source] = p;
  }
  for (const [field, message] of Object.entries(decl.rules?.(record) ?? {})) problems[field] ??= { message };
  return problems;
}
