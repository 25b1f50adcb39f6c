import { en } from './en';

/**
 * The Login page's translator: the same `app.*` messages as the full app, read with polyglot's English rules
 * (%{name} interpolation; "one |||| many" chosen by smart_count) in a few lines, so the first bundle carries
 * neither react-admin, ra-language-english nor node-polyglot (8 KB gzip).
 */
export function t(key: string, options: Record<string, unknown> = {}): string {
  let phrase: unknown = en;
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
