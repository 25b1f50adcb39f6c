import { translateIn } from '../../i18n/light';
import { messages } from './messages';

/**
 * The timesheet texts (app.timesheets.*) for the screens outside react-admin (the signing-link page, the staff
 * page's signing): the same catalogue the full app's polyglot merges, read with polyglot's rules.
 */
export const say = (key: string, options: Record<string, unknown> = {}) =>
  translateIn(messages, `app.timesheets.${key}`, options);
