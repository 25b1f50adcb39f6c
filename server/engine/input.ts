import { parseStrictInstant } from '../../core/engine/dates.js';
import { normaliseText, showsLetterOrDigit, textCharactersProblem, type TextKind } from '../../core/engine/text.js';
import { toFieldErrors } from './messages.js';

/**
 * The engine's text and date-time rules for routes written by hand (the quote, chat messages, templates, the
 * account): the same checks and the same words as a declared field, so no route stores what a form would refuse.
 */

/** Why a text cannot be stored, in words, or undefined. Checks the characters only; lengths stay the route's. */
export function textError(value: string, kind: TextKind): string | undefined {
  const problem = textCharactersProblem(value, kind);
  return problem ? toFieldErrors({ x: { message: problem } }).x : undefined;
}

/**
 * A one-line text (a name, a subject) as it is stored, trimmed and in NFC, or the field's error in words.
 * Anything but a string answers `notText`.
 */
export function oneLineText(
  value: unknown,
  notText = 'Must be text',
): { text: string; error?: undefined } | { text?: undefined; error: string } {
  return checkedText(value, 'line', notText);
}

/**
 * A name typed into a hand-written route (the agency's, one's own) as it is stored, or its error in words: a one-line
 * text that shows a letter or digit, as a declared name field must (core/engine/text.ts showsLetterOrDigit).
 */
export function nameText(
  value: unknown,
  notText = 'Must be text',
): { text: string; error?: undefined } | { text?: undefined; error: string } {
  const checked = oneLineText(value, notText);
  if (checked.error || !checked.text || showsLetterOrDigit(checked.text)) return checked;
  return { error: toFieldErrors({ x: { message: 'engine.validation.visibleName' } }).x };
}

/** A multi-line text (a message, a template's body): line breaks and tabs are kept, nothing else hidden. */
export function multiLineText(
  value: unknown,
  notText = 'Must be text',
): { text: string; error?: undefined } | { text?: undefined; error: string } {
  return checkedText(value, 'multiline', notText);
}

function checkedText(value: unknown, kind: TextKind, notText: string) {
  if (typeof value !== 'string') return { error: notText };
  const error = textError(value, kind);
  return error ? { error } : { text: normaliseText(value) };
}

/** An ISO date-time whose every part exists (no 30 February, no 24:00): the same check as a datetime field. */
export const isStrictInstant = (v: unknown): v is string => typeof v === 'string' && parseStrictInstant(v) !== null;
