/**
 * Issue 35, client settings: the rules shared by the agency's defaults for new clients, each client's own settings
 * and the e-mails a client's users get. Plain functions, tested in tests/unit/domain/client-settings.test.ts.
 */

/** How a client's timesheets may be signed: in the client panel, by the e-mailed link, on the staff member's phone. */
export const SIGNING_METHODS = ['panel', 'link', 'phone'] as const;
export type SigningMethod = (typeof SIGNING_METHODS)[number];
export const SIGNING_METHOD_CHOICES: { id: SigningMethod; name: string }[] = [
  { id: 'panel', name: 'In the client panel' },
  { id: 'link', name: 'By the e-mailed signing link' },
  { id: 'phone', name: 'On the staff member’s phone (an approver’s PIN)' },
];
const METHOD_WORDS: Record<SigningMethod, string> = {
  panel: 'in the client panel',
  link: 'by signing link',
  phone: 'on the staff member’s phone',
};

/** Whether a staff member's request for one of the client's shifts waits for the agency or books them at once. */
export const SHIFT_REQUEST_APPROVAL_CHOICES = [
  { id: 'agency', name: 'The agency accepts each request' },
  { id: 'automatic', name: 'Booked at once when every booking check passes' },
];

/**
 * The e-mails a client's users get, each an event of the notification catalogue (core/domain/notifications/events.ts):
 * the agency chooses which reach them by default, and each client user may be set otherwise.
 */
export const CLIENT_EMAIL_EVENTS = [
  { id: 'shift.filled', name: 'Shift filled' },
  { id: 'shift.cancelled', name: 'Shift cancelled' },
  { id: 'timesheet.submitted', name: 'Timesheet to sign' },
  { id: 'invoice.issued', name: 'Invoice issued' },
  { id: 'invoice.payment_due', name: 'Overdue reminder' },
] as const;
export type ClientEmailEvent = (typeof CLIENT_EMAIL_EVENTS)[number]['id'];
const CLIENT_EMAIL_KEYS = new Set<string>(CLIENT_EMAIL_EVENTS.map((e) => e.id));
export const isClientEmailEvent = (event: string): event is ClientEmailEvent => CLIENT_EMAIL_KEYS.has(event);

/** A client user's e-mail for an event: their own choice where one is kept, else the agency's default. */
export type EmailChoice = 'now' | 'digest' | 'off';
export function clientEmailChoice(event: string, own: EmailChoice | undefined, agencyDefaults: string[]): EmailChoice {
  if (own) return own;
  // Events the client settings do not cover keep the product's default: e-mailed at once.
  if (!isClientEmailEvent(event)) return 'now';
  return agencyDefaults.includes(event) ? 'now' : 'off';
}

/** The refusal in words of a signature made a way the client does not allow, or null when it is allowed. */
export function signingRefusal(allowed: readonly string[] | null | undefined, method: SigningMethod, client: string) {
  if (!allowed || allowed.includes(method)) return null;
  const ways = SIGNING_METHODS.filter((m) => allowed.includes(m)).map((m) => METHOD_WORDS[m]);
  return `${client} does not sign timesheets ${METHOD_WORDS[method]}${ways.length ? `: they sign ${ways.join(' or ')}` : ''}.`;
}

/** The settings' own checks beyond each field's: a client whose timesheets nobody could sign is refused. */
export function signingMethodsProblem(methods: unknown): string | null {
  return !Array.isArray(methods) || methods.length === 0
    ? 'Choose at least one way to sign timesheets: otherwise nobody could sign them.'
    : null;
}
