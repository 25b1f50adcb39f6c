import type { FastifyInstance } from 'fastify';
import { route } from './route.js';
import { canRead } from '../../core/resources/access.js';
import { HttpError } from '../http.js';
import { IdParams } from '../../core/contracts/common.js';
import { BankDetailsAnswer, OwnBankDetailsAnswer } from '../../core/contracts/payroll.js';
import { formatSortCode } from '../../core/domain/payroll/bankDetails.js';
import { openBankDetails, recordBankDetailsRead } from '../services/bankDetails.js';

/**
 * A staff member's bank details in full (issue 33): only for whoever may set them (set_bank_details: agency
 * admins), within their agency (another's staff member: 404), each view an entry of the staff member's audit trail
 * in the same transaction as the read. Every other reader has only the masked line (bank_details_masked), or nothing.
 */
export async function bankDetailsRoutes(app: FastifyInstance) {
  // The staff member's own, masked (their phone page's payslips): only the last digits, which the staff member knows,
  // so nothing here is worth recording as a view. Another's are never reachable: the row is the signed-in one's.
  route(app, {
    method: 'GET',
    url: '/api/staff_bank_details',
    roles: ['staff'],
    schema: {
      tags: ['Staff'],
      summary:
        "The signed-in staff member's own bank details, masked (the last 2 digits of the sort code and 4 of the account)",
      description: 'Staff only. `masked` is null when the agency holds no bank details for them. Never in full.',
      response: { 200: OwnBankDetailsAnswer },
    },
    handler: async ({ ctx, reply }) => {
      const id = ctx.principal.candidateId;
      if (!id) throw new HttpError(403, 'Only a staff member has bank details of their own here.');
      const [row] = await ctx.db.query<{ masked: string | null }>(
        'select bank_details_masked as masked from candidates where merchant_id = $1 and id = $2 and deleted_at is null',
        [ctx.principal.merchantId, id],
      );
      reply.header('cache-control', 'no-store');
      return { data: { masked: row?.masked ?? null } };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/candidates/:id/bank_details',
    may: { candidates: ['show', 'set_bank_details'] },
    // And who reads the masked line: a custom role only with the bank details group (issue 35), whatever it may set.
    allows: (p) => {
      const masked = app.engine.get('candidates')!.byField.get('bank_details_masked')!;
      return canRead(p, masked.readableBy, masked.groups);
    },
    record: 'candidates',
    schema: {
      tags: ['Staff'],
      summary: "A staff member's bank details in full (each view is recorded in their history)",
      description:
        'Agency admins only. 404 when the staff member has none. Every answer writes an entry "view_bank_details" in ' +
        "the staff member's audit trail (who, when).",
      params: IdParams,
      response: { 200: BankDetailsAnswer },
    },
    handler: async ({ reply, record, transaction }) =>
      transaction(async (tx) => {
        const id = Number(record.id);
        const [row] = await tx.db.query<{ sealed: string | null }>(
          'select bank_details_sealed as sealed from candidates where merchant_id = $1 and id = $2',
          [tx.principal.merchantId, id],
        );
        if (!row?.sealed) throw new HttpError(404, `${record.first_name} ${record.last_name} has no bank details yet.`);
        const d = openBankDetails(tx.principal.merchantId, id, row.sealed);
        await recordBankDetailsRead(tx, [id], 'Shown in full on the profile');
        reply.header('cache-control', 'no-store');
        return {
          data: {
            sort_code: formatSortCode(d.sortCode),
            account_number: d.accountNumber,
            account_name: d.accountName,
            roll_number: d.rollNumber,
          },
        };
      }),
  });
}
