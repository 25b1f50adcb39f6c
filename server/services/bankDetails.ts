// A staff member's bank details (issue 33, output): sealed on their row by the set_bank_details action, opened only
// for whoever may run it (an agency admin), each opening recorded in the audit trail; and read for a pay run's bank
// payments file. docs/decisions.md, "Issue 33 — bank details and a pay run's files".
import type { Row } from '../db/index.js';
import type { EngineContext } from '../engine/context.js';
import { badInput } from '../http.js';
import { writeAudit } from '../engine/audit.js';
import { sealer } from '../secrets/sealing.js';
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
