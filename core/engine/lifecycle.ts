import type {
  ActionDeclaration,
  DeleteDeclaration,
  FieldDeclaration,
  LifecycleDeclaration,
  RecordValues,
  ResourceDeclaration,
} from './types';
import { CRUD_ACTIONS } from './types';

/*
 * A resource's declared lifecycle (ResourceDeclaration.lifecycle), read the same way by the server (which refuses)
 * and the screens (which disable a button and say why): one state machine instead of a guard per action that
 * re-tests the status.
 */

/** Names an action may not take: they are the CRUD permissions of `access` (and react-admin's aliases of them). */
export const RESERVED_ACTION_NAMES: readonly string[] = [...CRUD_ACTIONS, 'clone', 'read'];

const one = (decl: ResourceDeclaration) => decl.label.one.toLowerCase();
const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** A state's name in words, from the lifecycle field's choices ('assigned' → 'assigned', 'in_review' → 'in review'). */
export function stateName(decl: ResourceDeclaration, state: unknown): string {
  const field = decl.fields.find((f) => f.source === decl.lifecycle?.field);
  const name = field?.choices?.find((c) => c.id === state)?.name ?? String(state || 'unset').replace(/_/g, ' ');
  return name.toLowerCase();
}

const orList = (words: string[]) =>
  words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/** The field only transitions change: the lifecycle's, and any declared actionOnly. */
export const isActionOnly = (decl: ResourceDeclaration, f: FieldDeclaration) =>
  !!f.actionOnly || decl.lifecycle?.field === f.source;

/** The transition an action is, if the lifecycle declares it. */
export const transitionOf = (lc: LifecycleDeclaration | undefined, action: string) =>
  lc?.transitions.find((t) => t.action === action);

/** The record's state: its lifecycle field's value ('' when it has none yet, which no declared state is). */
export const stateOf = (lc: LifecycleDeclaration, record: RecordValues): string => {
  const state = record[lc.field];
  return typeof state === 'string' ? state : '';
};

/** Whether the record's state is final: it is locked, and only transitions declared from that state still run. */
export const isLocked = (decl: ResourceDeclaration, record: RecordValues) =>
  !!decl.lifecycle?.final?.includes(stateOf(decl.lifecycle, record));

/**
 * Why a locked record refuses an edit, a delete or an undeclared action, in words, or null when it is not locked:
 * "This timesheet is signed and locked: it can no longer be changed. Only Credit can still be run."
 */
export function lockedReason(decl: ResourceDeclaration, record: RecordValues): string | null {
  const lc = decl.lifecycle;
  if (!lc || !isLocked(decl, record)) return null;
  const state = stateOf(lc, record);
  const still = lc.transitions
    .filter((t) => t.from.includes(state))
    .map((t) => decl.actions?.find((a) => a.name === t.action)?.label ?? t.action);
  // A state named "locked" already says it (a timesheet invoiced or paid): never "locked and locked".
  const name = stateName(decl, state);
  const is = name === 'locked' ? 'locked' : `${name} and locked`;
  return `This ${one(decl)} is ${is}: it can no longer be changed.${still.length ? ` Only ${orList(still)} can still be run.` : ''}`;
}

/** The declaration's delete in its long form. */
export const deletionOf = (decl: ResourceDeclaration): DeleteDeclaration =>
  typeof decl.delete === 'string' ? { mode: decl.delete } : decl.delete;

/**
 * Why the record cannot be deleted now, in words, or null: already deleted (a listed soft delete), numbered, locked,
 * or in a state the lifecycle's deletableIn leaves out.
 */
/**
 * Whether the declaration's numbers are a document's (a timesheet's, an invoice's): a gapless series, so a numbered
 * record is never deleted and the database holds each number once. A code the agency may type over (`whenEmpty`, a
 * client's CL001) is a convenience, not a series that must have no gaps: it is unique like any unique field.
 */
export const keepsNumbers = (decl: ResourceDeclaration): boolean => !!decl.numbering && !decl.numbering.whenEmpty;

export function deleteRefusal(
  decl: ResourceDeclaration,
  record: RecordValues,
  options: { pastLock?: boolean } = {},
): string | null {
  if (record.deleted_at) return `This ${one(decl)} has been deleted.`;
  // A number given is kept: deleting its record would leave a gap in a series that must have none.
  const numbered = keepsNumbers(decl) && record[decl.numbering!.field];
  if (numbered)
    return `This ${one(decl)} is numbered ${numbered}: a numbered ${one(decl)} is never deleted, so that its series has no gaps.`;
  // The server's own erasure (retention) may go past a final state's lock and the states it may be deleted in, never
  // past a numbered series.
  const locked = options.pastLock ? null : lockedReason(decl, record);
  if (locked) return locked;
  const lc = decl.lifecycle;
  if (!options.pastLock && lc?.deletableIn && !lc.deletableIn.includes(stateOf(lc, record))) {
    return `This ${one(decl)} is ${stateName(decl, record[lc.field])}: only ${article(orList(lc.deletableIn.map((s) => stateName(decl, s))))} ${one(decl)} can be deleted.`;
  }
  return null;
}

/**
 * Why the action cannot run on this record now, or null when it can: a deleted record takes none; a transition
 * runs only from its declared states (the answer says the current one); a locked record takes only the
 * transitions declared from its state; then the action's own guard (a rule beyond the state).
 */
export function actionRefusal(
  decl: ResourceDeclaration,
  action: ActionDeclaration,
  record: RecordValues,
): string | null {
  // Only resources that list deleted rows (a deleted shift on its tab) ever show one; it takes no action.
  if (action.deletes) return deleteRefusal(decl, record) ?? action.guard?.(record) ?? null;
  if (record.deleted_at) return `This ${one(decl)} has been deleted.`;
  const lc = decl.lifecycle;
  const t = transitionOf(lc, action.name);
  if (lc && t && !t.from.includes(stateOf(lc, record))) {
    const from = orList(t.from.map((s) => stateName(decl, s)));
    return `This ${one(decl)} is ${stateName(decl, record[lc.field])}: ${action.label} is only for ${article(from)} ${one(decl)}.`;
  }
  if (!t) {
    const locked = lockedReason(decl, record);
    if (locked) return locked;
  }
  return action.guard?.(record) ?? null;
}

/**
 * Why a field cannot change in the record's current state (editableIn), in words, or null. Checked by the
 * server's write policy (422 naming the field); the form shows the field read-only with the same words.
 */
export function notEditableReason(
  decl: ResourceDeclaration,
  f: FieldDeclaration,
  record: RecordValues | undefined,
): string | null {
  const lc = decl.lifecycle;
  if (!lc || !f.editableIn || !record) return null;
  const state = stateOf(lc, record);
  if (f.editableIn.includes(state)) return null;
  return `Can be changed only while the ${one(decl)} is ${orList(f.editableIn.map((s) => stateName(decl, s)))} (it is ${stateName(decl, state)})`;
}

/** Why a new record may not be stored as it is: it would start in a final state, which only a transition reaches. */
export function createdLockedReason(decl: ResourceDeclaration, record: RecordValues): string | null {
  if (!isLocked(decl, record)) return null;
  const state = stateName(decl, record[decl.lifecycle!.field]);
  return `A new ${one(decl)} cannot start ${state}: it becomes ${state} only through its actions.`;
}

/**
 * Why a write that is no declared action may not make these changes to the stored record, for every writer (a
 * request, a hook, a service, a job): a locked record refuses any change (`locked`, 409), a field only actions change
 * and a field not editable in the record's state refuse it by field (422). `changed` are the fields whose value the
 * write would change. Declared actions are checked by actionRefusal instead; the screens read the same words.
 */
export function writeRefusal(
  decl: ResourceDeclaration,
  stored: RecordValues,
  changed: FieldDeclaration[],
): { locked: string | null; fields: Record<string, string> } {
  const locked = changed.length ? lockedReason(decl, stored) : null;
  const fields: Record<string, string> = {};
  for (const f of changed) {
    const why = isActionOnly(decl, f) ? 'engine.policy.actionOnly' : notEditableReason(decl, f, stored);
    if (why) fields[f.source] = why;
  }
  return { locked, fields };
}

/**
 * Why a line of a document (a child declaring `parent.lines`) cannot be written now, because of its parent's state,
 * in words, or null: a create, edit or delete (no `action`) runs only while the parent is in `editableIn`, a line
 * action in its `actionsIn` states (else editableIn). The server refuses every writer with these words (409); the
 * screens hide Edit and Delete and disable the action with them.
 */
export function linesRefusal(
  child: ResourceDeclaration,
  parent: ResourceDeclaration,
  parentRecord: RecordValues,
  action?: string,
): string | null {
  const lines = child.parent?.lines;
  const lc = parent.lifecycle;
  if (!lines || !lc) return null;
  const state = stateOf(lc, parentRecord);
  const states = (action && lines.actionsIn?.[action]) || lines.editableIn;
  if (states.includes(state)) return null;
  const what = action
    ? `${child.actions?.find((a) => a.name === action)?.label ?? action} runs`
    : `its ${child.label.many.toLowerCase()} can be changed`;
  return `The ${one(parent)} is ${stateName(parent, state)}: ${what} only while it is ${orList(states.map((s) => stateName(parent, s)))}.`;
}

/**
 * The declaration's lifecycle is checked when the server compiles it (and by a unit test over every declaration):
 * a mistake fails at start-up, never on a request.
 */
export function lifecycleProblems(decl: ResourceDeclaration): string[] {
  const out: string[] = [];
  for (const a of decl.actions ?? []) {
    if (RESERVED_ACTION_NAMES.includes(a.name))
      out.push(
        `${decl.name}: an action may not be named '${a.name}', a CRUD permission of access (use another name, e.g. 'remove')`,
      );
    if (a.collection && (a.bulk || a.patch || decl.lifecycle?.transitions.some((t) => t.action === a.name)))
      out.push(`${decl.name}.${a.name}: a collection action takes no patch, is not bulk and is no transition`);
    if (a.deletes && (a.patch || decl.lifecycle?.transitions.some((t) => t.action === a.name)))
      out.push(`${decl.name}.${a.name}: an action that deletes takes no patch and is no transition`);
  }
  const lc = decl.lifecycle;
  if (!lc) {
    if (decl.fields.some((f) => f.editableIn)) out.push(`${decl.name}: editableIn needs a lifecycle`);
    return out;
  }
  const field = decl.fields.find((f) => f.source === lc.field);
  if (!field || field.type !== 'choice' || !field.choices)
    return [...out, `${decl.name}.lifecycle.field ${lc.field} must be a choice field`];
  const states = new Set(field.choices.map((c) => c.id));
  const known = (s: string, where: string) => {
    if (!states.has(s)) out.push(`${decl.name}.lifecycle: ${where} names unknown state '${s}'`);
  };
  for (const t of lc.transitions) {
    if (!decl.actions?.some((a) => a.name === t.action))
      out.push(`${decl.name}.lifecycle: transition ${t.action} is not a declared action`);
    if (t.from.length === 0) out.push(`${decl.name}.lifecycle: transition ${t.action} runs from no state`);
    t.from.forEach((s) => known(s, `${t.action}.from`));
    (Array.isArray(t.to) ? t.to : t.to === undefined ? [] : [t.to]).forEach((s) => known(s, `${t.action}.to`));
  }
  for (const s of lc.final ?? []) known(s, 'final');
  for (const s of lc.deletableIn ?? []) known(s, 'deletableIn');
  for (const f of decl.fields) for (const s of f.editableIn ?? []) known(s, `${f.source}.editableIn`);
  return out;
}
