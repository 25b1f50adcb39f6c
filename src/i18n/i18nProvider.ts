import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { resourceMessages } from '../../core/resources/messages';
import { en } from './en';
import { messages as rateMessages } from '../resources/rates/messages';
import { messages as shiftMessages } from '../resources/shifts/messages';
import { messages as communicationMessages } from '../resources/communication/messages';
import { messages as notesMessages } from '../resources/notes/messages';
import { messages as timesheetMessages } from '../resources/timesheets/messages';
import { messages as clientInvoiceMessages } from '../resources/invoices/clientMessages';

type Messages = Record<string, unknown>;

const isObject = (v: unknown): v is Messages => !!v && typeof v === 'object' && !Array.isArray(v);

/** Deep merge: later catalogues add to and override earlier ones, key by key. */
export function mergeMessages(...catalogues: Messages[]): Messages {
  const out: Messages = {};
  for (const catalogue of catalogues) {
    for (const [key, value] of Object.entries(catalogue)) {
      out[key] = isObject(value) && isObject(out[key]) ? mergeMessages(out[key] as Messages, value) : value;
    }
  }
  return out;
}

export const messages = mergeMessages(
  englishMessages as Messages,
  en,
  resourceMessages,
  rateMessages,
  shiftMessages,
  communicationMessages,
  notesMessages,
  timesheetMessages,
  clientInvoiceMessages,
);

export const i18nProvider = polyglotI18nProvider(() => messages as any, 'en', [{ locale: 'en', name: 'English' }], {
  allowMissing: true,
});
