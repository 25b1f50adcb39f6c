import { en } from './en';

/**
 * The light pages' translator (the Login page, the signing-link page, the staff page's timesheet parts): polyglot's
 * English rules (%{name} interpolation; "one |||| many" chosen by smart_count) in a few lines, over a catalogue of
 * `app.*` messages, so those bundles carry neither react-admin, ra-language-english nor node-polyglot (8 KB gzip).
 */
export function translateIn(catalogue: object, key: string, options: Record<string, unknown> = {}): string {
  let phrase: unknown = catalogue;
  for (const part of key.split('.'))
    phrase = phrase && typeof phrase === 'object' ? (phrase as Record<string, unknown>)[part] : undefined;
  if (typeof phrase !== 'string') return typeof options._ === 'string' ? options._ : key;
  let text = phrase;
  if (typeof options.smart_count === 'number') {
    const forms = text.split('||||').map((s) => s.trim());
    text = forms[options.smart_count === 1 || forms.length === 1 ? 0 : 1];
  }
  return text.replace(/%\{(\w+)\}/g, (whole, name: string) => (name in options ? String(options[name]) : whole));
}

/** The app's own messages (src/i18n/en.ts), as the full app's polyglot reads them. */
export const t = (key: string, options: Record<string, unknown> = {}): string => translateIn(en, key, options);
