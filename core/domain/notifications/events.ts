import { CUSTOM_STAGE_IDS } from '../recruitment/stages';

/**
 * The catalogue of events people can be told about: for each, its default e-mail template, and by default
 * which channels carry it and who receives it. The agency changes the last three on the notification
 * settings page (stored in notification_settings and notification_templates); the defaults apply until then.
 * Later issues add their events here (timesheets, invoices).
 */

export const CHANNELS = ['email', 'sms', 'push', 'alert'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Who receives an event's messages, among the people the event concerns (its audience). An applicant is the person
 * of a job application (recruitment's stage e-mails): no user and no staff member yet.
 */
export const RECIPIENTS = ['agency_admins', 'consultants', 'client_users', 'staff', 'applicant'] as const;
export type Recipient = (typeof RECIPIENTS)[number];
/** The recipients the staffing events may name: none of them concerns an applicant. */
const STAFFING_RECIPIENTS: Recipient[] = ['agency_admins', 'consultants', 'client_users', 'staff'];

export interface EventDefinition {
  key: string;
  label: string;
  description: string;
  /**
   * The values its template may use, besides the ones every template has (COMMON_PLACEHOLDERS). The default
   * templates of events raised elsewhere use the common ones only, so they read well whatever data a caller passes.
   */
  placeholders: string[];
  subject: string;
  body: string;
  channels: Channel[];
  recipients: Recipient[];
  /** The recipients the settings page offers for it (by default the staffing ones, never the applicant). */
  recipientChoices?: Recipient[];
}

/** The recipients an event may name on the settings page. */
export const recipientChoicesOf = (e: EventDefinition): Recipient[] => e.recipientChoices ?? STAFFING_RECIPIENTS;

/**
 * The pipeline's stages that e-mail the applicant when an application is moved to them (issue 35): four of the
 * product's, and each of the agency's own (a slot, `custom_1`…).
 */
export type StageEmailStage = 'screening' | 'interview' | 'offer' | 'rejected' | `custom_${number}`;
/** The event of a stage's e-mail to the applicant: 'application.screening', 'application.custom_1'… */
/** The confirmation e-mailed to an applicant by the public form (server/careers/routes.ts). */
export const APPLICATION_RECEIVED = 'application_received';
/** Every stage's e-mail event starts so. */
export const STAGE_EMAIL_PREFIX = 'application.';
export const stageEmailEvent = (stage: StageEmailStage) => `${STAGE_EMAIL_PREFIX}${stage}`;
/** The agency's own stage (its slot) an event e-mails about, or null: 'application.custom_2' → 'custom_2'. */
export const ownStageOfEvent = (key: string): string | null => {
  const slot = key.startsWith(STAGE_EMAIL_PREFIX) ? key.slice(STAGE_EMAIL_PREFIX.length) : '';
  return CUSTOM_STAGE_IDS.includes(slot) ? slot : null;
};

const APPLICANT_PLACEHOLDERS = ['applicant_name', 'first_name', 'job_title', 'note'];
const INTERVIEW_PLACEHOLDERS = ['interview_date', 'interview_time', 'interviewer', 'interview_place'];
/** A stage's e-mail goes to the applicant alone, by e-mail; an agency turns it off on the settings page. */
const toApplicant = {
  channels: ['email'] as Channel[],
  recipients: ['applicant'] as Recipient[],
  recipientChoices: ['applicant'] as Recipient[],
};

/** Every template may use these: the agency's name, and the notification's own title, text and link. */
export const COMMON_PLACEHOLDERS = ['agency_name', 'title', 'body', 'link'];

/** The template of an event raised elsewhere: the caller's own title and text, greeted and signed. */
const RELAYED = { subject: '%{title}', body: 'Hello,\n\n%{body}\n\n%{agency_name}' };

export const EVENTS: EventDefinition[] = [
  {
    key: 'document.due',
    label: 'Document due for renewal',
    description: 'A staff document expires in 60, 30 or 7 days (checked daily in the agency’s time zone).',
    placeholders: ['staff_name', 'document', 'expiry_date', 'days_left'],
    subject: '%{document} of %{staff_name} expires in %{days_left} days',
    body: 'Hello,\n\nThe %{document} of %{staff_name} expires on %{expiry_date}, in %{days_left} days. Please ask for a renewed copy.\n\n%{agency_name}',
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'consultants'],
  },
  {
    key: 'document.expired',
    label: 'Document expired',
    description: 'A staff document has passed its expiry date.',
    placeholders: ['staff_name', 'document', 'expiry_date'],
    subject: '%{document} of %{staff_name} has expired',
    body: 'Hello,\n\nThe %{document} of %{staff_name} expired on %{expiry_date}. They cannot be booked where it is required until it is renewed.\n\n%{agency_name}',
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'consultants'],
  },
  {
    key: 'staff.registered',
    label: 'Staff member registered',
    description: 'A new staff member was added and awaits approval.',
    placeholders: ['staff_name', 'email'],
    subject: 'New staff member: %{staff_name}',
    body: 'Hello,\n\n%{staff_name} (%{email}) has registered and awaits approval.\n\n%{agency_name}',
    channels: ['email', 'alert'],
    recipients: ['agency_admins'],
  },
  {
    key: 'shift.requested',
    label: 'Shift requested',
    description: 'A shift was requested (by a client, or for one).',
    placeholders: ['client_name', 'site_name', 'shift_date', 'start_time', 'end_time', 'job_role'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'consultants', 'client_users'],
  },
  {
    key: 'shift.filled',
    label: 'Shift filled',
    description: 'A staff member was booked on a shift.',
    placeholders: ['client_name', 'site_name', 'shift_date', 'start_time', 'end_time', 'staff_name'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'client_users', 'staff'],
  },
  {
    key: 'shift.moved',
    label: 'Shift moved',
    description: 'A shift was moved to other times (dragged on the schedule); the staff member booked keeps it.',
    placeholders: ['client_name', 'site_name', 'shift_date', 'start_time', 'end_time', 'staff_name', 'previous_when'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'client_users', 'staff'],
  },
  {
    key: 'timesheet.submitted',
    label: 'Timesheet submitted',
    description: 'A timesheet was sent to the client for signature (the approver also gets a signing link).',
    placeholders: ['client_name', 'number', 'period'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['client_users'],
  },
  {
    key: 'timesheet.signed',
    label: 'Timesheet signed',
    description: 'A client signed timesheet lines (in their panel, by the link, or on the staff member’s phone).',
    placeholders: ['client_name', 'number', 'signer_name'],
    ...RELAYED,
    channels: ['alert'],
    recipients: ['agency_admins', 'consultants'],
  },
  {
    key: 'timesheet.phone_signed',
    label: 'Hours signed on a staff phone',
    description:
      'One of the client’s approvers signed a staff member’s hours on the staff member’s phone, with their own PIN.',
    placeholders: ['number', 'signer_name', 'staff_name'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['client_users'],
  },
  {
    key: 'timesheet.disputed',
    label: 'Timesheet disputed',
    description: 'A client disputed timesheet lines, with a reason.',
    placeholders: ['client_name', 'number', 'reason'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'consultants'],
  },
  {
    key: 'timesheet.reminder',
    label: 'Timesheet awaiting signature',
    description: 'A submitted timesheet is still unsigned after the client’s reminder days.',
    placeholders: ['client_name', 'number', 'period'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['client_users'],
  },
  {
    key: 'shift.cancelled',
    label: 'Shift cancelled',
    description: 'A shift was cancelled.',
    placeholders: ['client_name', 'site_name', 'shift_date', 'start_time', 'end_time', 'reason'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'client_users', 'staff'],
  },
  {
    // Off by default: the chat's own unread badge (top bar and sidebar) tells of new messages; a bell entry for
    // every message would bury the other notifications. An agency may switch a channel on.
    key: 'message.received',
    label: 'Message received',
    description:
      'A staff member sent a chat message. The chat’s unread badge shows it; switch a channel on to be told elsewhere too.',
    placeholders: ['staff_name', 'message'],
    ...RELAYED,
    channels: [],
    recipients: ['agency_admins', 'consultants'],
  },
  {
    key: 'note.reminder',
    label: 'Diary note reminder',
    description: 'The reminder of a diary note is due.',
    placeholders: ['note_title', 'note_date', 'note_time'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['agency_admins', 'consultants'],
  },
  {
    key: 'support.request',
    label: 'Support request',
    description: 'An agency user asked the agency’s administrators for help, or a request was answered.',
    placeholders: ['subject', 'requester_name'],
    ...RELAYED,
    channels: ['email', 'alert'],
    recipients: ['agency_admins'],
  },
  {
    key: 'invoice.issued',
    label: 'Invoice issued',
    description: 'An invoice was issued to a client (its users read it in their panel; sending it e-mails the PDF).',
    placeholders: ['invoice_number', 'client_name', 'due_date', 'amount'],
    subject: 'Invoice %{invoice_number} from %{agency_name}',
    body: 'Hello,\n\nInvoice %{invoice_number} for %{client_name} (%{amount}) was issued, due on %{due_date}. You can read it in your client panel.\n\n%{agency_name}',
    channels: ['email', 'alert'],
    recipients: ['client_users'],
  },
  {
    key: 'invoice.payment_due',
    label: 'Invoice payment reminder',
    description:
      'An invoice is about to fall due or is overdue (while payment reminders are on; see Activate payment): its client’s users hear of it besides its billing address.',
    placeholders: ['invoice_number', 'client_name', 'due_date', 'amount'],
    // Before the due date or after it: the reminder's own words say which (server/services/invoiceReminders.ts).
    ...RELAYED,
    channels: ['email'],
    recipients: ['client_users'],
  },
  {
    key: 'application.screening',
    label: 'Applicant moved to screening',
    description: 'An application was moved to screening: the applicant hears that it is being looked at.',
    placeholders: APPLICANT_PLACEHOLDERS,
    subject: 'Your application for %{job_title}',
    body: 'Dear %{first_name},\n\nThank you for applying for %{job_title}. We are now looking at your application and will be in touch about the next step.\n\n%{agency_name}',
    ...toApplicant,
  },
  {
    key: 'application.interview',
    label: 'Applicant invited to interview',
    description:
      'An applicant was invited to an interview, or their interview was moved: they get its date, time and place.',
    placeholders: [...APPLICANT_PLACEHOLDERS, ...INTERVIEW_PLACEHOLDERS],
    subject: 'Interview for %{job_title} on %{interview_date}',
    body: 'Dear %{first_name},\n\nWe would like to meet you about %{job_title}. Your interview is on %{interview_date} at %{interview_time}.\n\nWhere: %{interview_place}\nWith: %{interviewer}\n\nIf you cannot come at this time, please reply to this e-mail and we will find another.\n\n%{agency_name}',
    ...toApplicant,
  },
  {
    key: 'application.offer',
    label: 'Applicant offered the job',
    description: 'An applicant was offered the job they applied for.',
    placeholders: APPLICANT_PLACEHOLDERS,
    subject: 'An offer for %{job_title}',
    body: 'Dear %{first_name},\n\nWe are pleased to offer you %{job_title}. We will contact you shortly about the details and the checks we need before you start.\n\n%{agency_name}',
    ...toApplicant,
  },
  {
    key: 'application.rejected',
    label: 'Application unsuccessful',
    description: 'An application was rejected: the applicant is told kindly.',
    placeholders: APPLICANT_PLACEHOLDERS,
    subject: 'Your application for %{job_title}',
    body: 'Dear %{first_name},\n\nThank you for your interest in %{job_title}. After careful consideration we will not be taking your application further on this occasion.\n\nWe wish you every success, and you are welcome to apply for our other jobs.\n\n%{agency_name}',
    ...toApplicant,
  },
  // The agency's own stages, each its own template, naming the stage as the agency names it. Off until the agency
  // switches one on: a stage of its own may be its internal step (a reference check) the applicant need not hear of.
  ...CUSTOM_STAGE_IDS.map((slot, i) => ({
    key: `application.${slot}`,
    label: `Applicant moved to your own stage ${i + 1}`,
    description: `An applicant was moved to your pipeline's own stage ${i + 1} (named in Recruitment → Settings; %{stage} is its name). Sent once its e-mail is switched on.`,
    placeholders: [...APPLICANT_PLACEHOLDERS, 'stage'],
    subject: 'Your application for %{job_title}',
    body: 'Dear %{first_name},\n\nYour application for %{job_title} has moved on to the next step: %{stage}. We will be in touch.\n\n%{agency_name}',
    ...toApplicant,
    channels: [] as Channel[],
  })),
];

export const EVENT_BY_KEY = new Map(EVENTS.map((e) => [e.key, e]));

/**
 * An event outside the catalogue (a later issue's, not listed yet) still reaches people: in-app to its
 * audience, with a template made of its title and text.
 */
export function eventDefinition(key: string): EventDefinition {
  return (
    EVENT_BY_KEY.get(key) ?? {
      key,
      label: key,
      description: '',
      placeholders: [],
      subject: '%{title}',
      body: '%{body}\n\n%{agency_name}',
      channels: ['alert'],
      recipients: ['agency_admins', 'consultants', 'client_users', 'staff'],
    }
  );
}

/** %{name} replaced by the value of `name` (empty when it has none). */
export function fillPlaceholders(template: string, values: Record<string, unknown>): string {
  return template.replace(/%\{(\w+)\}/g, (_, k: string) => {
    const v = values[k];
    return v === undefined || v === null ? '' : String(v);
  });
}

/** Placeholders a template uses that its event does not know: the settings page refuses them. */
export function unknownPlaceholders(template: string, event: EventDefinition): string[] {
  const known = new Set([...COMMON_PLACEHOLDERS, ...event.placeholders]);
  return [...new Set([...template.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).filter((k) => !known.has(k)))];
}
