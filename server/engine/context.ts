import type { Queryable, Row } from '../db/index.js';
import type { Cluster } from '../cluster.js';
import type { Compiled } from './compile.js';
import type { LoginType, RecordValues, Role } from '../../core/engine/types.js';
import type { Records } from '../../core/resources/records.js';
import type { Problems } from '../../core/engine/validate.js';

/** Who is calling, as every engine call knows it. */
export interface EnginePrincipal {
  userId: number;
  name: string;
  loginType: LoginType;
  role: Role;
  /** For role 'custom': its agency role's privileges (core/resources/access.ts permits reads them). */
  privileges?: readonly string[];
  /** For role 'custom': the business units its agency role is limited to (empty or absent: every unit). */
  units?: readonly number[];
  merchantId: number;
  /** For client users: their client. */
  clientId: number | null;
  /** For staff members (signed in on their phone page): their own staff record, which staffScope matches. */
  candidateId?: number | null;
  /** For the holder of a capability link: the one record and action it is bound to (scopeWhere reads it). */
  link?: { id: number; resource: string; recordId: number; action: string; recipient: string };
}

/**
 * The record type of a resource named by its literal name ('shifts' → ShiftRecord, core/resources/records.ts), as
 * the engine's writes answer it; unchecked values (to narrow) for a name only known at run time.
 */
export type RecordOf<K extends string> = K extends keyof Records ? Records[K] : RecordValues;

/**
 * The engine's writes for code that runs inside another write (hooks, action effects, services, jobs): the same
 * path as a request's (validation, row scope and references, hooks, version, audit) in the caller's transaction
 * and as the caller's principal. They are the server's own changes, so the field write policy (create-only, roles)
 * does not apply, but the lifecycle's locks do (a locked record, action-only fields, editableIn); `reason` goes into
 * the audit entry's input. Each answers the record as the caller may read it: a field the caller may not read
 * (readableBy) is absent, whatever its type says.
 */
export interface EngineHandle {
  create<K extends string>(
    resource: K,
    values: Record<string, unknown>,
    options?: { reason?: string },
  ): Promise<RecordOf<K>>;
  /**
   * Creates many records at once, all or nothing (a generation run, a bulk create): one validation pass, the hooks
   * in set form, one insert and one audit statement. A bad record refuses them all, naming it (`rows[3].site_id`).
   * Answers the records created, in the order given, as the caller may read them (stored fields, not computed).
   * `input` is kept in each record's audit entry (what the run was asked), beside `reason`.
   */
  createMany<K extends string>(
    resource: K,
    rows: Record<string, unknown>[],
    options?: { reason?: string; input?: Record<string, unknown> },
  ): Promise<RecordOf<K>[]>;
  /**
   * `action` names in the audit trail a change that is no declared action (a password changed by its owner): the
   * entry is an 'action' entry of that name instead of an 'update'.
   */
  update<K extends string>(
    resource: K,
    id: number,
    changes: Record<string, unknown>,
    options?: {
      reason?: string;
      action?: string;
      /**
       * The lifecycle's locks hold for the server's writes too: a locked record, a field only actions change or one
       * not editable in the record's state is refused. Code that must write past them (none does today) gives the
       * reason here, and the audit entry names it.
       */
      overrideLock?: string;
    },
  ): Promise<RecordOf<K>>;
  /**
   * Updates many records at once, each with its own changes, all or nothing (issue 31.4): the locks, validation and
   * scope checked for every record in one pass, the hooks in set form, one UPDATE and one audit statement. A refused
   * record refuses them all, naming it. Answers each record's stored fields as the caller may read them, in the order
   * given. Same options as update.
   */
  updateMany<K extends string>(
    resource: K,
    changes: ({ id: number } & Record<string, unknown>)[],
    options?: { reason?: string; action?: string; overrideLock?: string },
  ): Promise<RecordOf<K>[]>;
  /** Runs a declared action on one record, as its route would (its guard, transition, effect, hooks, audit). */
  act<K extends string>(
    resource: K,
    id: number,
    action: string,
    input?: Record<string, unknown>,
    options?: { reason?: string },
  ): Promise<RecordOf<K>>;
  /**
   * The same on many records, in set form (issue 31.4): every record's state and guard checked in one pass (one
   * refused refuses all, naming it), the effect in set form (actionsMany) or each record's, one UPDATE and one audit
   * statement. Answers each record's stored fields as the caller may read them, in id order.
   */
  act<K extends string>(
    resource: K,
    ids: number[],
    action: string,
    input?: Record<string, unknown>,
    options?: { reason?: string },
  ): Promise<RecordOf<K>[]>;
  remove<K extends string>(resource: K, id: number, options?: { reason?: string }): Promise<RecordOf<K>>;
  /**
   * Replaces the values of `fields` in a record's audit trail with "erased" (server/engine/erasure.ts), for a record
   * that names a person whose own record is being erased (an erased applicant's interview note in the diary): the
   * right to erasure's one path past the trail's append-only rule. The record itself is the caller's to clear first.
   * Answers how many entries were redacted.
   */
  eraseFromTrail(resource: string, id: number, fields: string[], options?: { reason?: string }): Promise<number>;
  /**
   * Deletes many records at once, all or nothing, with a single delete's checks in set form (server/engine/delete.ts,
   * deleteMany): scope, the records' and their documents' locks, blockers and referring rows, one DELETE and one row
   * of the audit trail for the set. Answers the records as they were, in id order.
   */
  deleteMany<K extends string>(
    resource: K,
    ids: number[],
    /**
     * `overrideLock`: the reason to delete records whose lifecycle locks them (final), kept in the audit entry: the
     * retention job erasing rejected applications. The other refusals hold.
     */
    options?: { reason?: string; overrideLock?: string },
  ): Promise<RecordOf<K>[]>;
  /** The same writes as the product itself (a periodic job): the audit trail says "system". */
  asSystem(): EngineHandle;
  /** A resource as the engine compiled it (its scope, its fields): for reads, and for createLink and mintLink. */
  compiled(resource: string): Compiled;
}

/** What a write, an action or a hook runs with: the transaction, the caller and the agency's calendar. */
export interface EngineContext {
  db: Queryable;
  principal: EnginePrincipal;
  /** Writes through the engine from inside this context (server/engine/handle.ts binds it). */
  engine: EngineHandle;
  /** The instant this request or job runs at: every rule that depends on "now" reads it, so tests can fix it. */
  now: Date;
  /** The agency's time zone and today's date there ('yyyy-MM-dd', at `now`): date limits and expiry use it. */
  timeZone: string;
  today: string;
  /** The address the request came from (a signature keeps it); absent for jobs. */
  ip?: string;
  /** The message bus to the other server processes (sessions ended, caches stale). */
  cluster?: Cluster;
  /** Tables this write changed besides its own (children hidden with a parent): their totals go stale at commit. */
  touched?: Set<string>;
  /** Documents whose own write is running (server/engine/lines.ts): their lines' writes leave them to it. */
  documents?: Set<string>;
  /**
   * Documents kept from creation (`keptFrom: 'create'`) of records an action created: kept at the action's end, when
   * the lines it writes after the record exist (runAction sets it; shared with contexts derived from this one).
   */
  keeping?: (() => Promise<void>)[];
}

export interface SaveEvent {
  /** The stored record before the write (undefined on create). */
  stored?: RecordValues;
  /** The fields the write changes (after the write policy). */
  changes: Record<string, unknown>;
  /**
   * The record as it will be stored (stored + changes), validated against the declaration: read its values after
   * narrowing them (`textOf`, `Number()`), or as the resource's record type where the field is required.
   */
  record: RecordValues;
  /** The action that causes the write, if any. */
  action?: string;
}

/** Live rows that refuse the delete of the record they refer to; the refusal lists them in words. */
export interface DeleteBlocker {
  /** Condition on this resource's columns (besides the reference) that makes a row block the delete. */
  where: string;
  /** The blocking rows in words, given their number: '2 future shifts are booked for them'. */
  describe(n: number): string;
  /** What to do first: 'Unassign or cancel them first.' */
  advice: string;
}

/**
 * A page of a list as the engine is about to read it (listRecords, an export's page): `where` is the list's whole
 * condition (row scope, filters, search, an export's keyset), over the declared table's column names; `filtered` names
 * the fields its filters and search compare (`id` for `ids`, `q` for a search), the row scope aside; the page is the
 * first `rows` rows in `sort` `order`, ties by id.
 */
export interface PageRead {
  where: string;
  filtered: ReadonlySet<string>;
  sort: string;
  order: 'asc' | 'desc';
  rows: number;
  /**
   * An export's page after the last row of the one before (keyset): the placeholders of that row's sort value and id,
   * which `where` compares as `sort ≤ key and (sort, id) < (key, id)` (≥ and > going up).
   */
  after?: { key: string; id: string };
}

/**
 * Where the engine's reads of a resource find its rows, when the declared table (a view) is not the quick way: each
 * answers SQL, or nothing to read the table. The engine still applies the read's own condition, order, paging, select
 * list and read policy over what a builder answers, so a builder only narrows: it must hold every row of the table
 * that the read would answer (the audit trail: server/behaviours/auditEntries.ts).
 */
export interface SourceBuilders {
  /** A relation (a parenthesised query with the table's columns) holding the first `rows` rows of the page's read. */
  page?(read: PageRead, bind: (value: unknown) => string): string | undefined;
  /** A scalar query answering how many rows match `where` (a list's count, declared totals aside). */
  count?(read: Omit<PageRead, 'sort' | 'order' | 'rows'>, bind: (value: unknown) => string): string | undefined;
  /** A relation holding the row of this id, if the table has it (a show by id). */
  record?(id: number, bind: (value: unknown) => string): string | undefined;
}

/**
 * What a resource does on the server beyond its declaration: lifecycle hooks that run inside the write's
 * transaction, the effects of its actions that need the database, and computed columns. Domain rules stay in
 * core/domain/<area>/ as plain functions; behaviours call them.
 */
export interface ResourceBehaviour {
  /**
   * The agency's own starting values of the declaration's `agencyDefaults` fields (a new client's invoice mode, its
   * payment terms): a create takes them where it gives none, over the declared defaults.
   */
  defaults?(ctx: EngineContext): Promise<Record<string, unknown>>;
  /** Before a create, update or action is stored; answers field problems to refuse it. */
  beforeSave?(ctx: EngineContext, e: SaveEvent): Promise<Problems | void>;
  /**
   * After it is stored, in the same transaction: side effects (recompute, notify). Answers true when it changed
   * the record itself, so the answer is read again.
   */
  afterSave?(ctx: EngineContext, e: SaveEvent & { row: RecordValues }): Promise<boolean | void>;
  afterDelete?(ctx: EngineContext, row: RecordValues): Promise<void>;
  /**
   * The set form of beforeSave for records created together (createMany): given every new record, answers the
   * problems of each (by position; undefined for a record without any), or throws to refuse them all. A behaviour
   * whose beforeSave reads the database for each record (pricing a shift) declares it, so that a create of thousands
   * stays a few statements; without it createMany calls beforeSave for each record in turn.
   */
  beforeSaveMany?(ctx: EngineContext, events: SaveEvent[]): Promise<(Problems | undefined)[] | void>;
  /**
   * The set form of afterSave for records created together (one notification for the run, not one per record);
   * without it createMany calls afterSave for each record in turn. Answers true when it changed the records.
   */
  afterSaveMany?(ctx: EngineContext, events: (SaveEvent & { row: RecordValues })[]): Promise<boolean | void>;
  /**
   * The set form of afterSave for records updated together (a set-based update or transition: a bulk action,
   * ctx.engine.act or updateMany with many ids), given every written record with its stored and new row: work done
   * once for the set (a parent collecting its lines' new states once, not once per line). Without it each record's
   * afterSave runs in turn. beforeSave always runs for each record (in memory: a hook that reads the database for an
   * update is written for one record, and a set-based write of many is a transition or the server's own change).
   */
  afterUpdateMany?(ctx: EngineContext, events: (SaveEvent & { row: RecordValues })[]): Promise<boolean | void>;
  /**
   * Puts in words a refusal only the database gives when the record is stored (a double booking the exclusion
   * constraint saw), or answers nothing to let the error through. The write runs under a savepoint when this is
   * declared, so the hook may still read (the staff member's name) before the transaction rolls back.
   */
  refusedByDatabase?(
    ctx: EngineContext,
    e: SaveEvent,
    error: { code?: string; detail?: string },
  ): Promise<Error | void>;
  /**
   * Rows of this resource that keep the record one of its reference fields points at from being deleted (a
   * staff member's future shifts), by field. Other rows referring to it follow the field's onDelete.
   */
  deleteBlockers?: Record<string, DeleteBlocker>;
  /**
   * Action effects that need the database. Given the locked record and the validated input, answers the
   * fields to set (merged over the declaration's patch) or throws an HttpError to refuse.
   */
  actions?: Record<
    string,
    (ctx: EngineContext, record: RecordValues, input: RecordValues) => Promise<Record<string, unknown> | void>
  >;
  /**
   * The set form of `actions` for an action run on many records at once (a bulk action, ctx.engine.act with many
   * ids): given the locked records (in id order) and the validated input, answers each record's fields to set, by
   * position, or throws to refuse them all (recordsRefused names the records). Declared where the effect reads the
   * database for each record, so that a run over thousands stays a few statements; without it each record's effect
   * runs in turn.
   */
  actionsMany?: Record<
    string,
    (ctx: EngineContext, records: Row[], input: RecordValues) => Promise<(Record<string, unknown> | void)[] | void>
  >;
  /**
   * The effects of collection actions (declared `collection: true`), by name: given the validated input, answer
   * what the route answers as `data`. They run in the request's transaction and write through ctx.engine.
   */
  collection?: Record<string, (ctx: EngineContext, input: RecordValues) => Promise<unknown>>;
  /**
   * Slow work on an action's validated input that must not hold a transaction open (hashing a new password: on
   * PGlite an open transaction holds the whole database). The engine runs it before the action's transaction
   * begins; what it answers is added to the input the effect receives and, like a secret input, never kept in
   * the audit trail. It gets the request's context outside any transaction (its reads and writes commit at once: a
   * wrong PIN's attempt is counted even though the action is then refused).
   */
  prepare?: Record<string, (input: RecordValues, ctx: EngineContext) => Promise<Record<string, unknown>>>;
  /**
   * SQL expressions of computed fields, given a function that binds a parameter and answers its placeholder.
   * They are selected like columns and filtered with `=`.
   */
  computed?: Record<string, (bind: (value: unknown) => string, ctx: { today: string }) => string>;
  /**
   * How a list filters on a computed field's value, when comparing its expression would defeat the indexes: the
   * condition on stored columns that is equivalent to `expression = value`.
   */
  computedFilters?: Record<string, (value: string, bind: (value: unknown) => string, ctx: { today: string }) => string>;
  /**
   * Rows of the agency this principal may still not see (a consultant sees only their own support requests): a
   * condition on the resource's columns added to its row scope (lists, records, actions, files), or null for no
   * further limit. Another resource's reference to it is checked against the same scope: a row the caller
   * cannot read cannot be referred to.
   */
  scope?(principal: EnginePrincipal, bind: (value: unknown) => string): string | null;
  /**
   * What the list, its count, an export and a show by id read instead of the declared table (SourceBuilders), where
   * reading the table itself would be slow: the audit trail's view expands every set of the agency.
   */
  source?: SourceBuilders;
}
