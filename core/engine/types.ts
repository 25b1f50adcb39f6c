/**
 * A resource declaration: everything the product knows about one entity, as plain data.
 * The server imports the same objects (no React here), so API, database checks and screens cannot disagree.
 */
export type FieldType =
  | 'text'
  | 'longtext'
  | 'email'
  | 'phone'
  | 'number'
  | 'money'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'choice'
  | 'reference'
  | 'references'
  /** Several of `choices` (a notification's channels), stored as a text array: each must be one of them. */
  | 'choices'
  | 'image'
  | 'file'
  | 'address'
  | 'json';

export type View = 'list' | 'show' | 'edit' | 'create';
export type Action = 'list' | 'show' | 'create' | 'edit' | 'delete' | 'export';
export const CRUD_ACTIONS: readonly string[] = ['list', 'show', 'create', 'edit', 'delete', 'export'];
/**
 * What a user may do, within their panel: the agency's admin and consultant, the client's manager and viewer
 * (users.role). 'staff' is the role of a staff member's own sign-in (the phone page); 'link' the holder of a
 * capability link (one record, one action, no account: server/engine/capability.ts). Both are granted only what a
 * declaration names. 'custom' is an agency user holding one of the agency's own roles (core/resources/roles): no
 * declaration names it; what it may do is the role's stored privileges (Principal.privileges), within admin's.
 */
export type Role = 'admin' | 'consultant' | 'manager' | 'viewer' | 'staff' | 'link' | 'custom';
/**
 * The guarded field groups an agency's own role is granted one by one (issue 35): what staff are paid (pay rates,
 * pay amounts, on-costs), what clients are charged and what the agency keeps (charge rates, margins), and staff
 * members' bank details.
 */
export const FIELD_GROUPS = ['pay_rates', 'margins', 'bank_details'] as const;
export type FieldGroup = (typeof FIELD_GROUPS)[number];
/**
 * Which panel (and sign-in) a user belongs to: 'agency' is the agency's back office (any agency role, not only
 * the admin role), 'client' the client portal, 'staff' the staff member's phone page, 'link' a capability link's
 * holder. See docs/glossary.md.
 */
export type LoginType = 'agency' | 'client' | 'staff' | 'link';
/** The login types with a panel and a sign-in of their own: every one but a capability link's holder. */
export type PanelLoginType = Exclude<LoginType, 'link'>;
/**
 * The spec's name of a login type where it is stored or sent (localStorage `loginType`, users.kind, the sign-in
 * answers' `login_type`, audit_log.login_type): the agency's panel is 'admin' there ("need loginType admin").
 */
export type StoredLoginType = 'admin' | 'client' | 'staff' | 'link';
export const storedLoginType = <T extends LoginType>(t: T) =>
  (t === 'agency' ? 'admin' : t) as T extends 'agency' ? 'admin' : Exclude<T, 'agency'>;
/** A stored login type read back; null for anything else. */
export const loginTypeOfStored = (stored: string | null | undefined): LoginType | null =>
  stored === 'admin' ? 'agency' : stored === 'client' || stored === 'staff' || stored === 'link' ? stored : null;
/** Which panel each role signs in to: agency roles (admin, consultant), client roles (manager, viewer), staff. */
export const ROLE_LOGIN: Record<Role, LoginType> = {
  admin: 'agency',
  consultant: 'agency',
  manager: 'client',
  viewer: 'client',
  staff: 'staff',
  link: 'link',
  custom: 'agency',
};
/** Who is asking: the same shape on both sides (the server adds ids). */
export interface Principal {
  loginType: LoginType;
  role: string;
  /**
   * For role 'custom': the privileges its agency role grants, read with the session on every request
   * (core/resources/roles/privileges.ts names them). Ignored for every built-in role.
   */
  privileges?: readonly string[];
}

export interface Choice {
  id: string;
  /** English label; translated through `resources.<name>.choices.<source>.<id>` when present. */
  name: string;
}

/** Limits of a date or date-time field, as the date picker and the server both enforce them. */
export interface DateLimits {
  /** 'today', an ISO date, or an offset from today such as '-16y' / '+1y' / '-30d'. */
  min?: string;
  max?: string;
  /** Days of the week that cannot be chosen, 0 = Sunday … 6 = Saturday. */
  disabledWeekdays?: number[];
  /** The coarsest view the picker stops at: 'year' picks a year, 'month' a month, 'day' a date. */
  minView?: 'year' | 'month' | 'day';
  clearable?: boolean;
  /** A new record's form starts on today's date (the user's today, as the 'today' limits read it). */
  defaultToday?: boolean;
}

/**
 * A record as the engine and the declarations' functions hold it: its fields by name, each value not yet narrowed
 * (a row read back, a request's body, a record about to be stored). Code reads a value after checking its type
 * (`typeof r.status === 'string'`, `Number(r.line_count)`), or through the resource's record type where it knows
 * the resource (core/resources/records.ts), never as `any` (docs/decisions.md, Issue 31.7).
 */
export type RecordValues = Record<string, unknown>;
/** A value read as text: a string as it is; anything else (absent, null, another type) as ''. */
export const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A value read as a list of ids (a references field or input): each as a number; anything but a list as none. */
export const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

export interface FieldDeclaration {
  source: string;
  type: FieldType;
  label: string;
  required?: boolean;
  /** Text length limits. */
  minLength?: number;
  maxLength?: number;
  /**
   * Number and money range (money in major units, e.g. pounds). On a `references` field, `max` is how many it may
   * hold (MAX_REFERENCES, 1,000, unless given: a record the server writes may list more, as an export batch does).
   */
  min?: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  pattern?: { regex: string; message: string };
  /** Unique within the agency (case-insensitive for text). */
  unique?: boolean;
  choices?: Choice[];
  /** For reference and references: the target resource name. */
  reference?: string;
  date?: DateLimits;
  /** Where the field appears; default every view. */
  views?: View[];
  /** A list column offered by the column chooser but hidden until chosen (keeps the list within a laptop's width). */
  listHidden?: boolean;
  sortable?: boolean;
  /** Offered as a list filter (exact match; date and number get from/to). */
  filter?: boolean;
  /** Filled by the server; shown, never written by the caller. */
  readOnly?: boolean;
  defaultValue?: unknown;
  helperText?: string;
  /** Write policy: only these roles may set or change it; anyone else's attempt answers 422 naming the field. */
  writableBy?: Role[];
  /** Set when the record is created, never changed afterwards. */
  createOnly?: boolean;
  /** Changed only by the declaration's actions (a state), never by a create or an update. */
  actionOnly?: boolean;
  /**
   * With a lifecycle: the states in which an update may change this field (a shift's notes while it is still to
   * be worked); in any other state a change is refused with 422 naming the field, in words.
   */
  editableIn?: string[];
  /**
   * For a reference: the record it points at must belong to this record's `field`, through the target's column
   * `via` (a site within the shift's client: `{ field: 'client_id', via: 'client_id' }`). Refused with 422 on this
   * field: `message`, or "Choose one of the client’s sites."
   */
  within?: { field: string; via: string; message?: string };
  /**
   * For a reference: only target records whose stored columns hold these values may be chosen (a business unit's
   * manager is an agency user: `{ kind: 'admin' }`, each also a list filter of the target). The form offers only
   * those; the server refuses any other with 422 on this field: `message`.
   */
  referenceWhere?: { values: Record<string, string>; message: string };
  /**
   * Read policy: only these roles receive it (pay rates and margins are never sent to client users). Without it
   * every agency and client role does; a staff member (a link holder) receives a field only when its readableBy
   * names 'staff' ('link').
   */
  readableBy?: Role[];
  /**
   * Personal data of the person the record is about (an applicant's name, contact details, CV, answers): when the
   * record is erased (a hard delete), its values in the audit trail's entries are replaced with "erased"
   * (server/engine/erasure.ts). On an action's input field, the value the entries' input recorded.
   */
  personal?: boolean;
  /**
   * The guarded field groups it belongs to (issue 35): a field an agency's own role reads only when the role is
   * granted every group named ('pay_rates', 'margins', 'bank_details'; core/resources/roles/privileges.ts labels
   * them), whatever its readableBy says of the built-in roles. A price line carries pay and charge: both groups.
   */
  groups?: FieldGroup[];
  /** Not stored: the server computes it (see the resource's server behaviour); shown and filtered, never written. */
  computed?: boolean;
  /**
   * For reference(s): what deleting the referenced record does. 'refuse' answers 409 while references exist,
   * 'remove' removes the reference in the same transaction, 'keep' leaves it (a soft-deleted target stays
   * readable for history). Default: refuse for hard-deleted targets, keep for soft-deleted ones.
   */
  onDelete?: 'refuse' | 'remove' | 'keep';
  /**
   * For file and image fields: what may be uploaded (images: PNG/JPEG/WebP up to 1 MB; documents: PDF or image up
   * to 10 MB), and the computed field holding the stored file's name (server/files/store.ts fileNameSql), which
   * its link shows.
   */
  file?: { kind: 'image' | 'document'; nameField?: string };
  /**
   * For an action's input: a secret (a new password). Validated like any input and given to the action's effect,
   * but never kept: the audit entry's input leaves it out.
   */
  secret?: boolean;
  /**
   * For a references input of an action: the choices are the records of `reference` whose `parent` is the record
   * the action runs on (a timesheet's own lines), narrowed by `filter` (list filters), and typing filters them.
   */
  options?: { parent: string; filter?: Record<string, string> };
}

/**
 * A state change of a record (approve, verify, cancel). The declaration says who may run it, from which states
 * (the guard, a plain function answering why not), what it asks for (input, validated like fields) and what it
 * sets (patch); the server may add an effect that needs the database (server/behaviours/<name>.ts).
 * Served as POST /api/{resource}/{id}/actions/{name} and, when bulk, POST /api/{resource}/actions/{name}.
 */
export interface ActionDeclaration {
  name: string;
  label: string;
  /** Roles that may run it (their login type follows from the role). */
  roles: Role[];
  /** Offered in the list's bulk menu as well; a bulk run is all or nothing. */
  bulk?: boolean;
  /**
   * Runs on the collection, not on records (generating the week's timesheets): served as
   * POST /api/{resource}/actions/{name} with its input as the body, answered by the behaviour's `collection[name]`
   * in one transaction. It is no transition of the lifecycle and is never bulk.
   */
  collection?: boolean;
  /** Asked before running; %{name} is the record's name (or %{smart_count} records in bulk). */
  confirm?: string;
  /**
   * A sentence added to the confirmation of one record, chosen from it: a message key (or text) whose %{field}s are
   * the record's fields ("The signing link is e-mailed to %{signing_recipient}."), or null for none.
   */
  confirmDetail?: (record: RecordValues) => string | null;
  /**
   * A capability link to this action stays usable after it ran while this holds of the record as it then reads (a
   * timesheet signed in part still awaits its other lines); otherwise, and by default, the link is used up. What the
   * link is bound to follows the holder's own change.
   */
  linkReusableWhile?: (record: RecordValues) => boolean;
  /**
   * What of the record, as a link's holder reads it, a content-bound link to this action is bound to (by default all
   * of it): a change outside it (a line signed elsewhere) leaves the link working, a change within (an amended time)
   * makes it refuse.
   */
  linkBoundTo?: (record: RecordValues) => unknown;
  /** Why this record cannot take the action now (a message or message key), or null when it can. */
  guard?: (record: RecordValues) => string | null;
  /**
   * Computed fields the guard reads (the server's own SQL): the server reads them with the locked rows for the guard,
   * which otherwise sees the stored columns only.
   */
  guardReads?: string[];
  /** What the action asks for; validated like fields, on both sides. */
  input?: FieldDeclaration[];
  /**
   * The input is asked for only when needed: the action runs without it first, and only when the server refuses
   * naming an input (422) does the dialog open, with the server's reason (an override reason, say).
   */
  inputWhenNeeded?: boolean;
  /** The dialog's inputs start from the record's fields of the same name (an amendment of its current times). */
  prefill?: boolean;
  /** The fields it sets, from the record and the input. */
  patch?: (record: RecordValues, input: RecordValues) => RecordValues;
  /** Said when it worked: "Staff member approved |||| %{smart_count} staff approved". */
  success: string;
  /** A material icon name for its button (the screens map it). */
  icon?: string;
  /** Draws attention (red) for destructive actions. */
  danger?: boolean;
  /**
   * The action is the declared delete (DELETE /api/{name}/{id}): its button and bulk entry, asking the reason a
   * delete with `reason` needs. It runs the engine's delete, never a patch.
   */
  deletes?: boolean;
}

/**
 * How a record is deleted, when a plain 'soft' or 'hard' is not enough: a soft delete that needs a reason (kept in
 * the audit entry, and in the field `reason` names), the field that keeps who deleted it, and whether deleted rows
 * stay readable (listed on a tab of their own, opened from the history) instead of hidden everywhere.
 */
export interface DeleteDeclaration {
  mode: 'soft' | 'hard';
  reason?: boolean | string;
  by?: string;
  listed?: boolean;
}

/**
 * One declared state change: the action that makes it, the states it runs from, and the state it leaves the
 * record in (set by the engine), or the states the action's effect may choose between (a move that books
 * someone); without `to` the action keeps the state (a change allowed only in some states).
 */
export interface TransitionDeclaration {
  action: string;
  from: string[];
  to?: string | string[];
}

/**
 * The states of a record and how it moves between them. The states are the choices of `field`, which only
 * transitions change (a PUT of it answers 422 naming it); an action runs only from its transition's `from`
 * (409 saying the current state). A record in a `final` state is locked: a PUT, a DELETE or any action that is
 * not a transition declared from that state answers 409 in words.
 */
export interface LifecycleDeclaration {
  field: string;
  transitions: TransitionDeclaration[];
  final?: string[];
  /** The states in which a record may be deleted (DELETE answers 409 in words in any other); default every state. */
  deletableIn?: string[];
}

/**
 * When and from which series a record takes its number (ResourceDeclaration.numbering). A document's number (all but
 * `whenEmpty` codes) is held once per agency by the database (a unique index the engine emits), and a record that has
 * its number is never deleted, by anyone: the series stays gapless.
 */
export interface NumberingDeclaration {
  field: string;
  /** The series' name (its row in number_series, which keeps its next number); `seriesOf` may choose another. */
  series: string;
  prefix?: string;
  pad?: number;
  /**
   * When the number is taken: 'create' (the default), or the action of a transition (`'issue'`): drafts have none,
   * and the number comes from the series inside that transition's transaction, so one rolled back takes none.
   */
  at?: string;
  /**
   * The field stays editable and a number is given only to a record created without a value (a client's code: the
   * agency may type its own, or take the next, CL001); a number a typed value already holds is passed over.
   */
  whenEmpty?: boolean;
  /**
   * The series from the record, for documents numbered in several (invoices and credit notes in their own, a
   * series per year): its name and prefix. Each series has its own next number, which only moves forward.
   */
  seriesOf?: (record: RecordValues) => { series: string; prefix?: string };
}

/**
 * A document of one record (a timesheet, an invoice): a template of the server's (server/documents/templates), served
 * at GET /api/{resource}/{id}/pdf?template=… to whoever may show the record, drawn with only the fields the reader may
 * read.
 */
export interface DocumentDeclaration {
  /** The template's name (the server's list of record templates): also the `template` the route is asked for. */
  template: string;
  /** What the reader calls it ('Timesheet', 'Invoice, layout 1'). */
  label: string;
  /**
   * The transition that issues the record (`'lock'`, `'issue'`): the document is rendered in that transition's
   * transaction, once for each distinct reading of it (the agency's, the client's), kept in the file store with its
   * SHA-256, and served as kept from then on, whatever changes later (the agency's logo, a name). Without it the
   * document is drawn from the record as it is now, each time it is asked for. `'create'`: issued as it is made (a
   * credit note, never a draft): kept at the end of the action that creates it, once its lines exist, or at its
   * create when no action runs.
   */
  keptFrom?: string;
  /**
   * The staff member the record belongs to (`staffScope`) is served a copy kept with the others, as they read it
   * (their fields, and its children: every one of them theirs, as a payslip's lines are), rather than one drawn when
   * asked: what is e-mailed to them and what they download are the document as issued.
   */
  keptForStaff?: boolean;
}

export interface UniqueTogether {
  fields: string[];
  field?: string;
  message: string | ((record: RecordValues, existing: RecordValues) => string);
}

/** A resource whose records belong to a parent record (the documents of a staff member). */
export interface ParentDeclaration {
  resource: string;
  /** The reference field holding the parent's id. */
  field: string;
  /** Deleting the parent: refuse (409) while children exist, or hide them with it. */
  onDelete: 'refuse' | 'hide';
  /** The parent screen's tab that shows the children (the staff profile's 'document'). */
  tab?: string;
  /** The children are the lines of a document (a timesheet's): locked with it, summed into it, its state derived. */
  lines?: LinesDeclaration;
}

/**
 * A parent field kept by the engine as an aggregate of its lines: the sum of a line field (`{ sum: 'pay' }`), or the
 * number of lines (`{ count: 'all' }`), or of those whose fields hold one of the values named
 * (`{ count: { status: ['signed', 'verified'] } }`); a sum may be of those lines only (`{ sum: 'net', where: {
 * vat_treatment: ['exempt'] } }`: an invoice's exempt and standard-rated lines totalled apart).
 */
export type Rollup =
  { sum: string; where?: Record<string, readonly string[]> } | { count: 'all' | Record<string, readonly string[]> };

/**
 * A document's lines (ParentDeclaration.lines). Every writer (a request, a hook, a service, a job, createMany, a
 * delete) is refused in words when the parent's state locks the line; the rollups and the derived state are kept in
 * the transaction of every write of a line and of the parent itself, each change versioned and audited.
 */
export interface LinesDeclaration {
  /** The parent's states in which lines are created, edited, deleted and take their actions. */
  editableIn: readonly string[];
  /** A line action that runs in other parent states than editableIn (a line signed while the document is sent). */
  actionsIn?: Record<string, readonly string[]>;
  /** Parent fields (stored, readOnly) kept as aggregates of the lines' fields. */
  rollups?: Record<string, Rollup>;
  /**
   * The parent's state derived from its lines, declared once: a pure function (core/domain) of the parent as it is
   * about to be stored and of its lines (only the fields `reads` names), answering the parent fields to change (its
   * lifecycle field, and the stamps that go with the state, e.g. signed_at) or nothing. `now` is the write's instant
   * as an ISO string. The audit entry names the function. A method, so that the domain function may read the
   * parent and its lines in its own types (`{ status: string }`), which the `reads` fields give it.
   */
  derive?: {
    rule(parent: RecordValues, lines: RecordValues[], now: string): RecordValues | undefined;
    reads: readonly string[];
  };
}

export interface ListTab {
  /** The tab's route segment, e.g. 'activeClient'. */
  id: string;
  label: string;
  /** The label is a name the agency gave (its data, e.g. a pipeline stage's), shown as it is, never translated. */
  labelIsData?: boolean;
  /** The filter the tab applies; sent as plain filters so the API serves it. */
  filter: Record<string, unknown>;
  /** The spec route that opens this tab, e.g. '/client/client-list/activeClient'. */
  path?: string;
  /**
   * The tab's own columns where they differ from the list's: fields left to the column chooser on this tab
   * (`hidden`) and fields shown here although the list hides them (`shown`). A tab that lists other rows needs other
   * columns to fit a laptop (signed timesheets show who signed, not their pay).
   */
  columns?: { hidden?: string[]; shown?: string[] };
}

export interface ResourceDeclaration {
  /** React-admin resource name, also the API path under /api. */
  name: string;
  table: string;
  label: { one: string; many: string };
  fields: FieldDeclaration[];
  /** How a record is named in references and titles, e.g. '%{first_name} %{last_name}'. */
  recordRepresentation: string;
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  /** Fields searched by the list's free-text `q` filter. */
  search?: string[];
  tabs?: ListTab[];
  /**
   * Money or number fields (stored or computed) summed over the whole filtered list: every page, under the same
   * filters, tab and the caller's scope, by the server in the statement that counts the list. The list answers them
   * as `totals` and shows them under its rows (an invoice list's net, VAT, total and balance); a field the caller may
   * not read is left out.
   */
  listTotals?: string[];
  /**
   * Fields the list screen reads besides its columns, its name and its state (listFieldsOf): what a custom cell
   * shows with its own (a cancelled shift's charge says whether the agency changed it).
   */
  listData?: string[];
  /** Other names the API accepts for a filter (the spec's status_value → status). */
  filterAliases?: Record<string, string>;
  access: Partial<Record<Role, Action[]>>;
  /** Soft delete keeps the row (shifts, invoices and history still point at it) and hides it everywhere. */
  delete: 'soft' | 'hard' | DeleteDeclaration;
  /** Agency-defined extra fields, stored in custom_fields and described by this resource's records. */
  customFields?: string;
  /**
   * Of those definitions, only the ones whose yes/no field of this name is set apply here: a job application asks the
   * staff detail fields the agency marks to be asked on its application form (`on_application`).
   */
  customFieldsAsked?: string;
  /** Rules across several fields, as a plain function of the record: field → message key. */
  rules?: (record: RecordValues) => Record<string, string>;
  /**
   * Fields whose values together are unique within the agency (live rows; an empty value matches an empty one).
   * A duplicate answers 422 on `field` (default: the last of `fields`) with `message`, in words, or a function of
   * the record and the row it collides with.
   */
  uniqueTogether?: UniqueTogether[];
  /**
   * A number from the agency's gapless series, given to each record in the transaction that numbers it:
   * `{ field: 'number', series: 'TS', prefix: 'TS-', pad: 5 }` numbers them TS-00001, TS-00002… The field is
   * readOnly (the server fills it); a write that fails or rolls back takes no number.
   */
  numbering?: NumberingDeclaration;
  /**
   * Rows in force over periods (rate cards): rows of one `key` never overlap (`from` inclusive, `to` the first day
   * no longer in force, empty while open-ended). A new open-ended row closes the one in force when it starts;
   * deleting the newest reopens its predecessor; moving a start moves the predecessor's end. Each such change is an
   * engine write of its own (version, audit entry with the reason). `noun` names a row in refusals ('card').
   */
  effectiveDated?: { key: string[]; from: string; to: string; noun?: string };
  /**
   * The record's documents, as PDFs (documents/routes.ts): the designs the agency chooses among (the spec's template1
   * and template2), the first the one given when none is asked for.
   */
  documents?: DocumentDeclaration[];
  /**
   * A field of the record naming the document it is given when none is asked for (an invoice's chosen layout); a
   * value that names none of `documents` falls back to the first.
   */
  documentChosenBy?: string;
  /** Record and bulk actions: the only way a state changes. */
  actions?: ActionDeclaration[];
  /** The state machine the actions move records through (core/engine/lifecycle.ts). */
  lifecycle?: LifecycleDeclaration;
  /**
   * The rows a client user may see: the field holding their client's id, directly ('client_id', or 'id' on
   * clients themselves) or through references ('site_id.client_id'). 'agency': every row of the agency, for the
   * agency's vocabulary a client must choose from (job roles); fields with pay still need readableBy.
   * Without it, client users see no rows.
   */
  clientScope?: string;
  /**
   * The rows an agency user of a custom role limited to business units may see (issue 35): the path to the client
   * whose unit decides, as clientScope's ('client_id', 'invoice_id.client_id'; 'id' on clients), or
   * `{ none: why }` for a resource every unit's user sees whole. Without it the resource's clientScope is the path
   * (none when 'agency'). A resource that refers to clients, or to rows limited by unit, must have one
   * (core/engine/unitScope.ts unitScopeGaps, checked at start-up). Rows whose path reaches no client (an agency-wide
   * rate card, an agency user) belong to every unit.
   */
  unitScope?: string | { none: string };
  /**
   * The rows a staff member (signed in on their phone page) may see: the field holding their own staff record's id
   * ('candidate_id'), or a path through references like clientScope; 'agency': every row of the agency (the
   * document categories a staff member uploads under). Staff reach the resource's routes only when it declares
   * this and `access.staff`; they receive only the fields whose readableBy names 'staff'. Without routes, the scope
   * still decides which rows a staff member's writes may refer to.
   */
  staffScope?: string;
  parent?: ParentDeclaration;
  /**
   * Files the audit entries of this resource's records under another record, as a child's are filed under its
   * parent (whose history then lists them), without a parent's delete rules: `field` holds that record's id (a
   * staff member's sign-in under the staff member).
   */
  filedUnder?: { resource: string; field: string };
  /** The engine's writes of this resource are kept in the audit trail unless this is false (the trail, the e-mails). */
  audited?: boolean;
  /**
   * false: written only through ctx.engine by the hand-written routes that own it (the notification settings, whose
   * URLs and answers are the spec's), never served as /api/{name} CRUD. Validation, scope, version and audit are
   * the engine's all the same.
   */
  served?: boolean;
  /**
   * Fields whose starting value on create is the agency's own default rather than the declared one (issue 35: a new
   * client takes the agency's client settings). The server behaviour's `defaults` answers them: a create that does
   * not give one takes the agency's, and the create form starts from them (GET /api/{name}/defaults).
   */
  agencyDefaults?: string[];
  /** The canonical screen routes of the spec; react-admin's own paths redirect or lead to the same screens. */
  routes?: { list?: string; show?: string; edit?: string; create?: string };
}

/** Page sizes of every list: the API refuses more than `maxPerPage`; the dataProvider gathers larger pages. */
export const LIST_LIMITS = { defaultPerPage: 25, maxPerPage: 100 } as const;
export const hasView = (f: FieldDeclaration, v: View) => !f.views || f.views.includes(v);

/** The fields a record's name is made of: '%{first_name} %{last_name}' → first_name, last_name. */
export const nameFieldsOf = (decl: ResourceDeclaration) =>
  [...decl.recordRepresentation.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]);
