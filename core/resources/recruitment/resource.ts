import { textOf, type Action, type ResourceDeclaration } from '../../engine/types';
import { recruitmentSettings } from './settings';
import { BUILT_IN_STAGES, CUSTOM_STAGE_IDS, OPEN_STAGE_IDS } from '../../domain/recruitment/stages';

// Admins keep everything; a consultant works the vacancies and the pipeline but deletes nothing (README's roles).
const adminAll: Action[] = ['list', 'show', 'create', 'edit', 'delete', 'export'];
const consultantWork: Action[] = ['list', 'show', 'create', 'edit', 'export'];

export const JOB_STATUS = [
  { id: 'draft', name: 'Draft' },
  { id: 'open', name: 'Open' },
  { id: 'closed', name: 'Closed' },
];

/**
 * A vacancy the agency recruits for (issue 35, Recruitment → Jobs): named `vacancies`, as /api/jobs/{id} and the
 * jobs table are the background jobs' (server/jobs). Its status moves only by the open, close and
 * reopen actions: a draft is written and checked first, an open job is advertised, a closed one no longer is.
 */
export const vacancies: ResourceDeclaration = {
  name: 'vacancies',
  table: 'vacancies',
  label: { one: 'Job', many: 'Jobs' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'created_at', order: 'DESC' },
  search: ['title', 'location', 'description'],
  delete: 'soft',
  access: { admin: adminAll, consultant: consultantWork },
  routes: {
    list: '/recruitment/jobs',
    create: '/recruitment/jobs/create',
    show: '/recruitment/jobs/:id/show',
    edit: '/recruitment/jobs/:id',
  },
  tabs: [
    { id: 'all', label: 'All', filter: {} },
    { id: 'draft', label: 'Draft', filter: { status: 'draft' } },
    { id: 'open', label: 'Open', filter: { status: 'open' } },
    { id: 'closed', label: 'Closed', filter: { status: 'closed' } },
  ],
  // A range reads low to high; either end may be left out.
  rules: (r): Record<string, string> =>
    typeof r.pay_min === 'number' && typeof r.pay_max === 'number' && r.pay_max < r.pay_min
      ? { pay_max: 'The most it pays must be at least the least it pays' }
      : {},
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'open', from: ['draft'], to: 'open' },
      { action: 'close', from: ['open'], to: 'closed' },
      { action: 'reopen', from: ['closed'], to: 'open' },
    ],
  },
  actions: [
    { name: 'open', label: 'Open', icon: 'check', roles: ['admin', 'consultant'], success: 'Job opened' },
    {
      name: 'close',
      label: 'Close',
      icon: 'block',
      roles: ['admin', 'consultant'],
      confirm: 'Close %{name}? It takes no more applications.',
      success: 'Job closed',
    },
    { name: 'reopen', label: 'Reopen', icon: 'restart_alt', roles: ['admin', 'consultant'], success: 'Job reopened' },
  ],
  fields: [
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 150, sortable: true },
    {
      source: 'job_role_id',
      type: 'reference',
      reference: 'job_roles',
      label: 'Job role',
      filter: true,
      sortable: true,
    },
    { source: 'location', type: 'text', label: 'Location', required: true, maxLength: 150, sortable: true },
    { source: 'pay_min', type: 'money', label: 'Pay from (per hour)', min: 0, max: 1000, sortable: true },
    { source: 'pay_max', type: 'money', label: 'Pay up to (per hour)', min: 0, max: 1000 },
    {
      source: 'hours',
      type: 'text',
      label: 'Hours',
      maxLength: 150,
      helperText: 'For example: 37.5 hours a week, days and nights.',
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'description',
      type: 'longtext',
      label: 'Description',
      maxLength: 10000,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'closing_date',
      type: 'date',
      label: 'Closing date',
      date: { min: '-2y', max: '+2y' },
      filter: true,
      sortable: true,
    },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      choices: JOB_STATUS,
      defaultValue: 'draft',
      required: true,
      filter: true,
      sortable: true,
      views: ['list', 'show'],
    },
    { source: 'created_at', type: 'datetime', label: 'Created', readOnly: true, sortable: true, views: ['show'] },
  ],
};

/**
 * The stage's states: the product's six, then the slots of an agency's own stages (core/domain/recruitment/stages.ts),
 * named here by slot; the screens show the agency's names and order (its recruitment settings).
 */
export const APPLICATION_STAGES = [
  ...BUILT_IN_STAGES.map((s) => ({ id: s.id, name: s.label })),
  ...CUSTOM_STAGE_IDS.map((id, i) => ({ id, name: `Own stage ${i + 1}` })),
];
/** A product stage's step may also be taken from any of the agency's own stages, wherever it put them. */
const orOwn = (...from: string[]) => [...from, ...CUSTOM_STAGE_IDS];

export const RIGHT_TO_WORK = [
  { id: 'yes', name: 'Yes, without a visa (British or Irish citizen, settled status)' },
  { id: 'share_code', name: 'Yes, with a visa or share code' },
  { id: 'no', name: 'No' },
];

/** Every stage move may carry a note, kept with the application and in its history (the action's input). */
const noteInput = [{ source: 'note', type: 'longtext' as const, label: 'Note', maxLength: 2000, personal: true }];
const notePatch = (_: unknown, input: Record<string, unknown>) => ({ stage_note: textOf(input.note) || null });
const move = (name: string, label: string, icon: string, success: string) => ({
  name,
  label,
  icon,
  roles: ['admin' as const, 'consultant' as const],
  input: noteInput,
  patch: notePatch,
  success,
});

/**
 * An interview's time, and with whom and where when the agency says (for the applicant's e-mail and the diary note),
 * asked by the interview and reschedule actions.
 */
const interviewInput = [
  {
    source: 'interview_at',
    type: 'datetime' as const,
    label: 'Interview date and time',
    required: true,
    date: { min: '-1y', max: '+1y' },
  },
  { source: 'interview_with', type: 'text' as const, label: 'Interviewed by', maxLength: 150 },
  { source: 'interview_where', type: 'text' as const, label: 'Where', maxLength: 200 },
  ...noteInput,
];
const interviewPatch = (_: unknown, input: Record<string, unknown>) => ({
  ...notePatch(_, input),
  interview_at: input.interview_at,
  interview_with: textOf(input.interview_with).trim() || null,
  interview_where: textOf(input.interview_where).trim() || null,
});

/**
 * An applicant for a job (issue 35, Recruitment → Staff). The stage moves only by the pipeline's actions, each with
 * an optional note; hiring makes the applicant a pending staff member (server/behaviours/jobApplications.ts), once:
 * hired and rejected are final.
 */
export const jobApplications: ResourceDeclaration = {
  name: 'job_applications',
  unitScope: { none: 'applicants belong to no client yet; their interview notes name none' },
  table: 'job_applications',
  label: { one: 'Application', many: 'Applications' },
  recordRepresentation: '%{first_name} %{last_name}',
  defaultSort: { field: 'created_at', order: 'DESC' },
  search: ['first_name', 'last_name', 'email', 'phone'],
  // Personal data: a deleted application is erased, with its CV (server/behaviours/jobApplications.ts), not hidden.
  delete: 'hard',
  access: { admin: adminAll, consultant: consultantWork },
  routes: {
    list: '/recruitment/staffs',
    create: '/recruitment/staffs/create',
    show: '/recruitment/staffs/:id/show',
    edit: '/recruitment/staffs/:id',
  },
  tabs: [
    { id: 'all', label: 'All', filter: {} },
    ...APPLICATION_STAGES.map((s) => ({
      id: s.id,
      label: s.name,
      filter: { stage: s.id },
      // A stage's tab has no stage column (every row is at that stage), so that the table fits a laptop beside the
      // menu; the interview tab is read for its dates: the interview's in place of the application's.
      columns:
        s.id === 'interview' ? { shown: ['interview_at'], hidden: ['stage', 'created_at'] } : { hidden: ['stage'] },
    })),
  ],
  // The staff detail fields the agency asks on its application form: answered here, carried to the staff member a
  // hire makes (the same definitions). Personal, as every value of an applicant's record (server/engine/erasure.ts).
  customFields: 'staff_detail_fields',
  customFieldsAsked: 'on_application',
  // The applicant agrees to their data being kept and used for the application (UK GDPR: the lawful basis asked).
  rules: (r): Record<string, string> =>
    r.consent === true ? {} : { consent: 'The applicant must consent to their data being processed' },
  lifecycle: {
    field: 'stage',
    transitions: [
      { action: 'screen', from: orOwn('applied'), to: 'screening' },
      { action: 'interview', from: orOwn('screening'), to: 'interview' },
      // A new date for the interview: the stage stays.
      { action: 'reschedule', from: ['interview'] },
      { action: 'offer', from: orOwn('interview'), to: 'offer' },
      { action: 'hire', from: orOwn('offer'), to: 'hired' },
      { action: 'reject', from: [...OPEN_STAGE_IDS], to: 'rejected' },
      // To one of the agency's own stages, which the effect checks against its list (server/behaviours).
      { action: 'move', from: [...OPEN_STAGE_IDS], to: [...CUSTOM_STAGE_IDS] },
    ],
    final: ['hired', 'rejected'],
  },
  actions: [
    move('screen', 'Screen', 'task_alt', 'Moved to screening'),
    {
      ...move('interview', 'Interview', 'schedule', 'Interview booked: it is in the diary'),
      input: interviewInput,
      patch: interviewPatch,
    },
    {
      ...move('reschedule', 'Reschedule interview', 'edit_calendar', 'Interview moved: the diary has the new time'),
      input: interviewInput,
      patch: interviewPatch,
      prefill: true,
    },
    move('offer', 'Offer', 'send', 'Offer made'),
    {
      ...move('hire', 'Hire', 'person_add', 'Hired: a pending staff member was added'),
      confirm: 'Hire %{name}? They are added to your staff as pending, ready for compliance checks.',
      guard: (r) => (r.candidate_id ? 'This applicant has already been hired as a staff member.' : null),
    },
    { ...move('reject', 'Reject', 'block', 'Application rejected'), danger: true },
    {
      ...move('move', 'Move to a stage of your own', 'open_with', 'Moved'),
      input: [
        {
          source: 'to_stage',
          type: 'choice' as const,
          label: 'Stage',
          required: true,
          // The slots; the screens offer the agency's own stages by their names.
          choices: CUSTOM_STAGE_IDS.map((id, i) => ({ id, name: `Own stage ${i + 1}` })),
        },
        ...noteInput,
      ],
    },
  ],
  fields: [
    {
      source: 'job_id',
      type: 'reference',
      reference: 'vacancies',
      label: 'Job',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
    },
    // Personal: an erased application leaves the audit trail with these values "erased" (server/engine/erasure.ts).
    {
      source: 'first_name',
      type: 'text',
      label: 'First name',
      required: true,
      maxLength: 80,
      sortable: true,
      personal: true,
    },
    {
      source: 'last_name',
      type: 'text',
      label: 'Last name',
      required: true,
      maxLength: 80,
      sortable: true,
      personal: true,
    },
    { source: 'email', type: 'email', label: 'E-mail', required: true, sortable: true, personal: true },
    // In the column chooser on the pipeline's list, so that its table fits a laptop beside the menu.
    { source: 'phone', type: 'phone', label: 'Phone', listHidden: true, personal: true },
    {
      source: 'right_to_work',
      type: 'choice',
      label: 'Right to work in the UK',
      required: true,
      choices: RIGHT_TO_WORK,
      filter: true,
      views: ['show', 'edit', 'create'],
      personal: true,
    },
    // The CV the applicant sent with the public form (or an agency user attached on create), a file of the file
    // store: kept as sent, so not on the edit form.
    {
      source: 'cv',
      type: 'file',
      label: 'CV (PDF or image)',
      file: { kind: 'document', nameField: 'cv_name' },
      views: ['show', 'create'],
      personal: true,
    },
    // The stored CV's own name: the file link's text.
    {
      source: 'cv_name',
      type: 'text',
      label: 'CV file name',
      computed: true,
      readOnly: true,
      views: [],
      personal: true,
    },
    {
      source: 'consent',
      type: 'boolean',
      label: 'Consents to their data being processed',
      required: true,
      defaultValue: false,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'stage',
      type: 'choice',
      label: 'Stage',
      choices: APPLICATION_STAGES,
      defaultValue: 'applied',
      required: true,
      filter: true,
      sortable: true,
      views: ['list', 'show'],
    },
    { source: 'stage_note', type: 'longtext', label: 'Last note', readOnly: true, views: ['show'], personal: true },
    // The interview, set by the interview and reschedule actions (kept after the application moves on, as history).
    {
      source: 'interview_at',
      type: 'datetime',
      label: 'Interview',
      readOnly: true,
      sortable: true,
      listHidden: true,
      views: ['list', 'show'],
    },
    { source: 'interview_with', type: 'text', label: 'Interviewed by', readOnly: true, views: ['show'] },
    { source: 'interview_where', type: 'text', label: 'Interview place', readOnly: true, views: ['show'] },
    // The diary note showing the interview on its day (server/behaviours/jobApplications.ts keeps it).
    {
      source: 'interview_note_id',
      type: 'reference',
      reference: 'diary_notes',
      label: 'Diary note',
      readOnly: true,
      views: ['show'],
    },
    // The staff member hiring made (set by the hire, never by an edit).
    {
      source: 'candidate_id',
      type: 'reference',
      reference: 'candidates',
      label: 'Staff member',
      readOnly: true,
      views: ['show'],
    },
    {
      source: 'created_at',
      type: 'datetime',
      label: 'Applied',
      readOnly: true,
      sortable: true,
      views: ['list', 'show'],
    },
  ],
};

export const recruitmentResources: ResourceDeclaration[] = [vacancies, jobApplications, recruitmentSettings];
