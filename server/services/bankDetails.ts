// A staff member's bank details (issue 33, output): sealed on their row by the set_bank_details action, opened only
// for whoever may run it (an agency admin), each opening recorded in the audit trail; and read for a pay run's bank
// payments file. docs/decisions.md, "Issue 33 — bank details and a pay run's files".
import type { Queryable, Row } from '../db/index.js';
import type { EngineContext } from '../engine/context.js';
import { badInput } from '../http.js';
import { writeAudit } from '../engine/audit.js';
import { recordKey, sealedKeyId, sealer } from '../secrets/sealing.js';
import { enqueueJob, type JobKind } from '../jobs/queue.js';
import { systemPrincipal } from '../engine/handle.js';
import { maskedBankDetails, readBankDetails, type BankDetails } from '../../core/domain/payroll/bankDetails.js';
import type { RecordValues } from '../../core/engine/types.js';

/** What a sealed value is bound to: this agency's staff member (a value copied to another row does not open). */
const contextOf = (merchantId: number, candidateId: number) => `candidates:${merchantId}:${candidateId}`;

/** The action's patch: the details sealed and what the profile shows of them. */
export function sealBankDetails(ctx: EngineContext, record: Row, input: RecordValues) {
  const read = readBankDetails(input);
  if ('errors' in read) throw badInput(read.errors);
  return {
    bank_details_sealed: sealer().seal(
      JSON.stringify(read.value),
      contextOf(ctx.principal.merchantId, Number(record.id)),
    ),
    bank_details_masked: maskedBankDetails(read.value),
  };
}

/**
 * The reseal action's patch: the staff member's details, as stored, opened with whichever known key sealed them and
 * sealed under the process's key; nothing when they are under it already. Read from the row here: the record the
 * engine hands an action holds only what its reader may read, and nobody reads the sealed column.
 */
export async function resealBankDetails(ctx: EngineContext, record: Row) {
  const m = ctx.principal.merchantId;
  const [row] = await ctx.db.query<{ sealed: string | null }>(
    'select bank_details_sealed as sealed from candidates where merchant_id = $1 and id = $2',
    [m, record.id],
  );
  const s = sealer();
  if (!row?.sealed || sealedKeyId(row.sealed) === s.keyId) return {};
  const context = contextOf(m, Number(record.id));
  return { bank_details_sealed: s.seal(s.open(row.sealed, context), context) };
}

/** Sealed details opened (no audit: the caller records why it read them). */
export function openBankDetails(merchantId: number, candidateId: number, sealed: string): BankDetails {
  return JSON.parse(sealer().open(sealed, contextOf(merchantId, candidateId))) as BankDetails;
}

/** The audit entry of a view of a staff member's bank details in full: who, when, why. */
export const BANK_DETAILS_VIEWED = 'view_bank_details';

export async function recordBankDetailsRead(ctx: EngineContext, candidateIds: number[], why: string) {
  for (const id of candidateIds)
    await writeAudit(ctx.db, ctx.principal, {
      resource: 'candidates',
      recordId: id,
      event: 'action',
      action: BANK_DETAILS_VIEWED,
      input: { reason: why },
      at: ctx.now,
    });
}

/** The bank details of these staff members of the caller's agency that have them, opened, by staff member. */
export async function bankDetailsOf(ctx: EngineContext, candidateIds: number[]) {
  const m = ctx.principal.merchantId;
  const rows = candidateIds.length
    ? await ctx.db.query<{ id: number; sealed: string }>(
        `select id, bank_details_sealed as sealed from candidates
          where merchant_id = $1 and id = any($2::int[]) and bank_details_sealed is not null`,
        [m, candidateIds],
      )
    : [];
  return new Map(rows.map((r) => [Number(r.id), openBankDetails(m, Number(r.id), r.sealed)]));
}

/** Staff members resealed per step of a rotation's job: one engine action (one UPDATE, one audit statement) each. */
export const RESEAL_BATCH = 200;
const resealBatch = () => Number(process.env.RESEAL_BATCH) || RESEAL_BATCH;

/** A live staff member's details sealed under a key other than `keyId` ($1), of an agency ($2) or of any (null). */
const UNDER_ANOTHER_KEY = `bank_details_sealed is not null and deleted_at is null
  and split_part(bank_details_sealed, '.', 2) <> $1 and ($2::int is null or merchant_id = $2)`;

/**
 * A rotation of the bank details key (docs/decisions.md, "Issue 33 — rotating the bank details key"): one job per
 * agency, queued by `npm run bank-key:rotate`, run by the server's workers (every one started with the new key in
 * BANK_DETAILS_KEY and the old in BANK_DETAILS_OLD_KEYS). Each step seals a batch of the agency's staff members'
 * details again under the new key, through the engine's reseal_bank_details action as the system (an entry in each
 * one's history, naming no detail), its progress stored with it; a killed step is rolled back whole and done again.
 * The last step of the last agency, once no live staff member's details are under another key, records the new key
 * in sealing_key: from then on a process without it refuses to start.
 */
export const resealBankDetailsJob: JobKind<Record<string, never>, { done: number }> = {
  kind: 'reseal-bank-details',
  async step(tx, job, engine) {
    const s = sealer();
    const ctx = await engine.context(tx, systemPrincipal(job.merchant_id), new Date());
    const batch = await tx.query<{ id: number }>(
      `select id from candidates where ${UNDER_ANOTHER_KEY} order by id limit $3`,
      [s.keyId, job.merchant_id, resealBatch()],
    );
    if (batch.length)
      await ctx.engine.act(
        'candidates',
        batch.map((r) => Number(r.id)),
        'reseal_bank_details',
        {},
        { reason: 'Bank details key rotated' },
      );
    const done = (job.state?.done ?? 0) + batch.length;
    const [{ left }] = await tx.query<{ left: number }>(
      `select count(*)::int as left from candidates where ${UNDER_ANOTHER_KEY}`,
      [s.keyId, job.merchant_id],
    );
    if (left > 0) return { state: { done }, done, total: done + left };
    const [{ anywhere }] = await tx.query<{ anywhere: number }>(
      `select count(*)::int as anywhere from candidates where ${UNDER_ANOTHER_KEY}`,
      [s.keyId, null],
    );
    if (anywhere === 0) await recordKey(tx, s);
    return { state: { done }, done, total: done, finished: true, result: { resealed: done, keyRecorded: !anywhere } };
  },
};

/**
 * Queues a rotation's job for each agency with a staff member's details under another key than the process's, and
 * answers how many staff members each has to reseal. With none anywhere, the database names the key at once.
 */
export async function queueRotation(db: Queryable) {
  const s = sealer();
  const agencies = await db.query<{ merchant_id: number; n: number }>(
    `select merchant_id, count(*)::int as n from candidates where ${UNDER_ANOTHER_KEY}
      group by merchant_id order by merchant_id`,
    [s.keyId, null],
  );
  if (!agencies.length) {
    await recordKey(db, s);
    return [];
  }
  const jobs: { merchantId: number; jobId: number; staff: number }[] = [];
  for (const a of agencies)
    jobs.push({
      merchantId: Number(a.merchant_id),
      staff: Number(a.n),
      jobId: await enqueueJob(db, {
        merchantId: Number(a.merchant_id),
        kind: resealBankDetailsJob,
        total: Number(a.n),
      }),
    });
  return jobs;
}
