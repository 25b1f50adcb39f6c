/**
 * What typed text may hold, shared by the forms, the engine and the hand-written routes (server/engine/input.ts).
 * Plain TypeScript: no React, no Node.
 *
 * Text is what a person reads. Controls (C0, DEL, C1: terminal escapes, NUL), unpaired surrogates (stored as
 * U+FFFD), U+FFFD itself, format characters (bidirectional overrides such as U+202E, zero-width characters, the
 * byte-order mark, soft hyphens) and the Unicode line and paragraph separators only hide or disguise what is
 * there, so no field keeps them. A one-line field (a name, a code, an e-mail, a phone, a part of an address)
 * keeps no line break or tab either; a multi-line field (notes, reasons, messages) keeps CR, LF and TAB.
 * A zero-width joiner inside an emoji sequence (👩‍💻) and the tags of a flag (🏴 of Scotland) are part of one
 * visible picture, so they are kept.
 */

/** 'line': names, codes, e-mails, phones, address parts; 'multiline': notes, reasons, messages. */
export type TextKind = 'line' | 'multiline';

/** A picture made of several code points: joined emoji, and a flag written with tag characters. */
const EMOJI_SEQUENCE =
  /\p{Extended_Pictographic}\uFE0F?(?:\u200D\p{Extended_Pictographic}\uFE0F?)+|\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/**
 * Never in any text: controls other than CR, LF and TAB, format characters, separators, surrogates, U+FFFD/FFFE/FFFF.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cf}\p{Cs}\u2028\u2029\uFFFD\uFFFE\uFFFF]/u;
const LINE_BREAK_OR_TAB = /[\r\n\t]/;
/** Letters, digits, spaces and punctuation of ASCII: none of them hidden or a break (most text; checked first). */
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/** The message key of what is wrong with a text's characters, or undefined when every character may stay. */
export function textCharactersProblem(
  text: string,
  kind: TextKind,
): 'engine.validation.hiddenCharacters' | 'engine.validation.oneLine' | undefined {
  if (PRINTABLE_ASCII.test(text)) return undefined;
  const visible = text.replace(EMOJI_SEQUENCE, '');
  if (HIDDEN.test(visible)) return 'engine.validation.hiddenCharacters';
  if (kind === 'line' && LINE_BREAK_OR_TAB.test(visible)) return 'engine.validation.oneLine';
  return undefined;
}

/**
 * Text with its hidden characters, line breaks and tabs taken out: for what cannot be refused in words, such as
 * an uploaded file's name ("invoice\u202Efdp.exe" would read as "invoiceexe.pdf").
 */
export const withoutHiddenCharacters = (text: string) =>
  text.replace(new RegExp(`${HIDDEN.source}|[\\r\\n\\t]`, 'gu'), (ch) => (/[\r\n\t]/.test(ch) ? ' ' : ''));

/** Letters that show nothing (the Hangul fillers): a name made of them looks empty. */
const INVISIBLE_LETTERS = /[\u115F\u1160\u3164\uFFA0]/gu;

/**
 * Whether a name shows something to read (issue 30.14): at least one letter or digit besides the invisible fillers.
 * A name of fillers (U+3164), a lone variation selector (U+FE0F), combining marks alone or punctuation alone reads as
 * blank or as nothing in a list, a booking or a signature.
 */
export const showsLetterOrDigit = (text: string) => /[\p{L}\p{N}]/u.test(text.replace(INVISIBLE_LETTERS, ''));

/**
 * A one-line field that names someone or something: `name`, `…_name` (first_name, company_name, signer_name), `label`
 * and `title`. Its value must show a letter or digit.
 */
export const isNameField = (f: { type: string; source: string }) =>
  f.type === 'text' && /(^|_)name$|^(label|title)$/.test(f.source);

/** Text as it is stored: trimmed, in Unicode NFC (an "é" typed as e + accent and one typed as é are one value). */
export const normaliseText = (text: string) => text.trim().normalize('NFC');

/**
 * A reason as written, ending with one full stop (or its own ! or ?): "Resident in hospital" → "Resident in hospital.".
 */
export const asSentence = (text: string) => {
  const trimmed = String(text ?? '').trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};
