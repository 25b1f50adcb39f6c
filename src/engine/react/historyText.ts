import { format, parseISO } from 'date-fns';
import type { FieldDeclaration } from '../../../core/engine/types';
import { formatAddress } from './fields';
import { formatPounds } from '../../../core/engine/money';

/** What the history's words come from: the screen's translations, passed in so that this stays a pure function. */
export interface Wording {
  yes: string;
  no: string;
  /** What an upload reads as ("a file"). */
  file: string;
  /** What an image kept inline (a drawn signature's data URL) reads as ("signature recorded"). */
  image?: string;
  /** A choice's name, translated. */
  choice?: (field: FieldDeclaration, id: unknown) => string | undefined;
}

export const NONE = '—';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** A day as the screens show it: 9 Mar 2026. */
export const readableDay = (day: string) => format(parseISO(day), 'd MMM yyyy');
/** An instant as the screens show it, on the reader's clock: 9 Mar 2026, 07:05. */
export const readableInstant = (iso: string) => format(parseISO(iso), 'd MMM yyyy, HH:mm');

/**
 * Keys of money inside a stored snapshot (a shift's price lines, a quote's totals): amounts in pence, as every
 * amount in the product.
 */
const MONEY_KEY = /(^|_)(pay|charge|margin|on_costs|amount|total|rate|fee|cost)s?$/;

const FIRST_KEYS = ['name', 'band', 'date', 'dates', 'start', 'end', 'hours'];

/** A snapshot's key in words: 'staff_needed' → 'Staff needed'. */
export const humanise = (key: string) => {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A value with no declaration (inside a list or a snapshot): dates, times and money by their look or key. */
function plain(v: unknown, key: string | undefined, w: Wording): string {
  if (v === null || v === undefined || v === '') return NONE;
  if (typeof v === 'boolean') return v ? w.yes : w.no;
  if (typeof v === 'number') return key && MONEY_KEY.test(key) ? formatPounds(v) : String(v);
  // A band is an id ('weekday_day'): in words as the quote shows it.
  if (typeof v === 'string' && key === 'band') return humanise(v);
  if (typeof v === 'string')
    return DAY.test(v) ? readableDay(v) : INSTANT.test(v) && !Number.isNaN(Date.parse(v)) ? readableInstant(v) : v;
  if (Array.isArray(v)) return list(v, key, w);
  if (typeof v === 'object') return record(v as Record<string, unknown>, w);
  return String(v);
}

/** A list in words: '1 Mar 2026, 2 Mar 2026'; a list of snapshots one after another, separated by semicolons. */
function list(items: unknown[], key: string | undefined, w: Wording): string {
  if (!items.length) return NONE;
  const parts = items.map((x) => plain(x, key, w));
  return parts.join(items.some((x) => x && typeof x === 'object') ? '; ' : ', ');
}

/**
 * A snapshot in words: 'Band: Day, Hours: 8, Charge: £144.00'; semicolons between its parts when one of them is
 * a list ('Dates: 1 Mar 2026, 2 Mar 2026; Staff needed: 2').
 */
function record(o: Record<string, unknown>, w: Wording): string {
  // The database keeps a snapshot's keys in its own order: what names a line comes first, then its times and amounts.
  const rank = (k: string) => (FIRST_KEYS.includes(k) ? FIRST_KEYS.indexOf(k) : FIRST_KEYS.length);
  const entries = Object.entries(o)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .sort(([a], [b]) => rank(a) - rank(b));
  const parts = entries.map(([k, v]) => `${humanise(k)}: ${plain(v, k, w)}`);
  return parts.length ? parts.join(entries.some(([, v]) => typeof v === 'object') ? '; ' : ', ') : NONE;
}

/**
 * A stored value in the reader's words, from its declared type: dates and times as the screens show them, money in
 * pounds, yes/no, choices by name, addresses on one line, lists and snapshots (a shift's price lines, a bulk
 * creation's dates) as readable text. References are named by the screen (it fetches their names); here they are
 * left to the caller.
 */
export function readableValue(field: FieldDeclaration | undefined, v: unknown, w: Wording): string {
  if (v === null || v === undefined || v === '') return NONE;
  // Tens of thousands of characters of base64 are no history: say that an image was kept.
  if (typeof v === 'string' && v.startsWith('data:image/')) return w.image ?? w.file;
  switch (field?.type) {
    case 'date':
      return typeof v === 'string' && DAY.test(v.slice(0, 10)) ? readableDay(v.slice(0, 10)) : String(v);
    case 'datetime':
      return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? readableInstant(v) : String(v);
    case 'money':
      return typeof v === 'number' ? formatPounds(v) : String(v);
    case 'boolean':
      return v ? w.yes : w.no;
    case 'choice':
      return w.choice?.(field, v) ?? field.choices?.find((c) => c.id === v)?.name ?? String(v);
    case 'address':
      return formatAddress(v) || NONE;
    case 'image':
    case 'file':
      return w.file;
  }
  return plain(v, field?.source, w);
}
