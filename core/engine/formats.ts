/**
 * What an e-mail address must look like, everywhere (forms, the API, the Login page, the CLI). Kept in a module of its
 * own so the Login page's small bundle can use it.
 */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The writing systems a look-alike address mixes (Latin with Cyrillic or Greek, most often); Japanese is one. */
const SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Japanese', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
];

/**
 * What makes an e-mail address a look-alike of another (issue 30.15), as a message key, or undefined: characters
 * that compatibility normalisation (NFKC) would turn into others (full-width ａｄｍｉｎ, ligatures, circled letters),
 * or letters of more than one writing system in one part (Latin "dmin" after a Cyrillic "а"). Such an address reads
 * as someone else's; typed in ordinary characters it is that person's.
 */
export function emailLookAlikeProblem(
  email: string,
): 'engine.validation.emailCompatibility' | 'engine.validation.emailMixedScripts' | undefined {
  if (email.normalize('NFKC') !== email.normalize('NFC')) return 'engine.validation.emailCompatibility';
  for (const part of email.split(/[@.]/)) {
    const scripts = new Set<string>();
    for (const ch of part) for (const [name, re] of SCRIPTS) if (re.test(ch)) scripts.add(name);
    if (scripts.size > 1) return 'engine.validation.emailMixedScripts';
  }
  return undefined;
}
