import englishMessages from 'ra-language-english';
import { engineMessages, interpolate } from '../../core/engine/messages.js';
import { resourceMessages } from '../../core/resources/messages.js';
import { getPath, type Problems } from '../../core/engine/validate.js';

const lookup = (key: string): string | undefined => {
  const fromTree = (tree: object) => getPath(tree as Record<string, unknown>, key);
  // The app's catalogue too (guard reasons, domain rules: app.staff.guard.*, app.preferences.*), so the API answers
  // words.
  const text = fromTree(engineMessages) ?? fromTree(resourceMessages) ?? fromTree(englishMessages);
  return typeof text === 'string' ? text : undefined;
};

/** The same message keys the forms show, in English words, for the API's 422 answers. */
export function toFieldErrors(problems: Problems): Record<string, string> {
  return Object.fromEntries(
    Object.entries(problems).map(([field, p]) => [field, interpolate(lookup(p.message) ?? p.message, p.args)]),
  );
}
