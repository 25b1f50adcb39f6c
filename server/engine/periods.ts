// Effective-dated rows (ResourceDeclaration.effectiveDated): periods of one key never overlap, and the rows around a
// changed one follow it, each through the engine's own write (validation, version, audit with the reason).
import type { Row } from '../db/index.js';
import type { Problems } from '../../core/engine/validate.js';
import { ident, Params, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { getRecord } from './query.js';
import { badInput } from '../http.js';
import { toFieldErrors } from './messages.js';
import type { store } from './write.js';

/** The write path's store, given by it (periods.ts runs inside it: importing it back would make a cycle). */
type Store = typeof store;
const refuse = (problems: Problems) => {
  if (Object.keys(problems).length) throw badInput(toFieldErrors(problems));
};
import { textOf, type RecordValues } from '../../core/engine/types.js';

const problem = (message: string) => ({ message });
/** A row of a key as the period checks read it: its dates, 'yyyy-MM-dd', `to` null while open-ended. */
type PeriodRow = { id: number; from: string; to: string | null };
const sameKey = (c: Compiled, a: RecordValues, b: RecordValues) =>
  c.decl.effectiveDated!.key.every((k) => String(a[k] ?? '') === String(b[k] ?? ''));

/**
 * The live rows of the record's key other than `exceptId`, in date order, locked: rows of one key are written one at a
 * time.
 */
async function rowsOfKey(
  ctx: EngineContext,
  c: Compiled,
  record: RecordValues,
  exceptId: number,
  extra = '',
  extraValue?: unknown,
) {
  const d = c.decl.effectiveDated!;
  const p = new Params();
  const key = d.key.map((k) => `${ident(k)} is not distinct from ${p.bind(record[k] ?? null)}`).join(' and ');
  const more = extra ? ` and ${ident(d.to)} = ${p.bind(extraValue)}` : '';
  const live = c.soft ? ' and deleted_at is null' : '';
  return ctx.db.query<PeriodRow>(
    `select id, ${ident(d.from)} as "from", ${ident(d.to)} as "to" from ${c.table} where merchant_id = ${p.bind(ctx.principal.merchantId)}${live} and ${key} and id <> ${p.bind(exceptId)}${more} order by ${ident(d.from)} for update`,
    p.values,
  );
}

/** The row a row took over from: same key, ending the day it starts. */
async function predecessorOf(ctx: EngineContext, c: Compiled, row: Row): Promise<PeriodRow | null> {
  const [before] = await rowsOfKey(ctx, c, row, row.id, 'to', row[c.decl.effectiveDated!.from]);
  return before ?? null;
}

/**
 * Ends a row on another day (or leaves it open-ended): a newer row took over from it, or the row after it was
 * deleted or moved. An engine write of its own, with its version and its audit entry giving the reason.
 */
async function setEnd(store: Store, ctx: EngineContext, c: Compiled, id: number, to: string | null, reason: string) {
  const row = await getRecord(ctx, c, id, { lock: true, all: true });
  if ((row[c.decl.effectiveDated!.to] ?? null) === to) return;
  await store(ctx, c, row, { [c.decl.effectiveDated!.to]: to }, { input: { reason }, followsPeriod: true });
}

/**
 * Before a write of an effective-dated record: refuses an overlap with another row of its key (naming the field
 * and the row), closes the row in force when a new open-ended row starts, and makes the row before a moved one
 * follow its new start (or, when it moved to another key, cover the period again).
 */
export async function checkPeriod(
  ctx: EngineContext,
  c: Compiled,
  record: RecordValues,
  stored: Row | undefined,
  store: Store,
): Promise<void> {
  const d = c.decl.effectiveDated!;
  const noun = d.noun ?? c.decl.label.one.toLowerCase();
  const keyWords = d.key.map((k) => c.byField.get(k)?.label.toLowerCase() ?? k);
  const ofKey = `for this ${keyWords.length > 1 ? `${keyWords.slice(0, -1).join(', ')} and ${keyWords[keyWords.length - 1]}` : keyWords[0]}`;
  // The record is validated: its dates are 'yyyy-MM-dd', the end empty (null) while open-ended.
  const from = textOf(record[d.from]);
  const to = textOf(record[d.to]) || null;
  const before = stored ? await predecessorOf(ctx, c, stored) : null;
  const kept = before && sameKey(c, stored!, record);
  const moved = before && (!kept || from !== stored![d.from]);
  if (moved && kept && from <= before.from) {
    refuse({
      [d.from]: problem(
        `The ${noun} before this one starts on ${before.from}: start this one after that date, or delete that ${noun} first.`,
      ),
    });
  }
  // The row before a moved one follows its new start (set below), so it is no overlap.
  const others = (await rowsOfKey(ctx, c, record, stored?.id ?? 0)).filter(
    (o) => !(moved && kept && o.id === before.id),
  );
  const closes: PeriodRow[] = [];
  let problems: Problems | undefined;
  for (const other of others) {
    const overlaps = (to === null || other.from < to) && (other.to === null || from < other.to);
    if (!overlaps) continue;
    if (other.from === from)
      problems = { [d.from]: problem(`A ${noun} ${ofKey} already starts on ${from}. Edit that ${noun} instead.`) };
    // A new open-ended row takes over from the one in force when it starts; one with an end date would leave a gap
    // after it, so it is refused like any other overlap.
    else if (other.from < from && to === null && !stored) {
      closes.push(other);
      continue;
    } else if (other.from > from)
      problems = {
        [d.to]: problem(`Another ${noun} ${ofKey} starts on ${other.from}: end this one on or before that date.`),
      };
    else
      problems = {
        [d.from]: problem(
          `This period overlaps the ${noun} in force from ${other.from}${other.to ? ` until ${other.to}` : ''}.`,
        ),
      };
    break;
  }
  if (problems) refuse(problems);
  for (const row of closes) await setEnd(store, ctx, c, row.id, from, `A newer ${noun} starts on ${from}.`);
  if (moved)
    await setEnd(
      store,
      ctx,
      c,
      before.id,
      kept ? from : (stored![d.to] ?? null),
      kept
        ? `The ${noun} after it now starts on ${from}.`
        : `The ${noun} after it (from ${stored![d.from]}) was moved.`,
    );
}

/** After a delete: the row before the deleted one covers its period again. */
export async function reopenPredecessor(ctx: EngineContext, c: Compiled, row: Row, store: Store): Promise<void> {
  const d = c.decl.effectiveDated!;
  const before = await predecessorOf(ctx, c, row);
  if (before)
    await setEnd(
      store,
      ctx,
      c,
      before.id,
      row[d.to] ?? null,
      `The ${d.noun ?? c.decl.label.one.toLowerCase()} after it (from ${row[d.from]}) was deleted.`,
    );
}
