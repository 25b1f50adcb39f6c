import type { ResourceBehaviour } from '../engine/context.js';
import { endSessionsOfClient } from '../auth/sessions.js';
import type { Queryable } from '../db/index.js';
import { refuseOverLimit } from '../subscription/usage.js';

/** The agency's defaults for new clients, as the clients declaration names them (CLIENT_AGENCY_DEFAULTS). */
export async function agencyClientDefaults(db: Queryable, merchantId: number): Promise<Record<string, unknown>> {
  const [row] = await db.query<Record<string, unknown>>(
    `select (select default_payment_terms_days from invoice_settings where merchant_id = m.id) as payment_terms_days,
            s.invoice_mode, s.split_by_po, s.split_by_site, s.po_required, s.timesheet_per, s.signing_methods,
            s.shift_request_approval, s.merchant_id is not null as kept
       from merchants m left join client_settings s on s.merchant_id = m.id where m.id = $1`,
    [merchantId],
  );
  if (!row) return {};
  const { kept, ...values } = row;
  // Nothing kept: only what is there (the payment terms of the invoice settings); the declaration's defaults do.
  return Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== null || (kept && k === 'invoice_mode')));
}

/**
 * A client that is made inactive or deleted loses its panel at once: its users' sessions end in the same
 * transaction (and every process forgets them), and sign-in refuses them while the client is not active.
 */
export const clientsBehaviour: ResourceBehaviour = {
  /**
   * A new client's starting values (issue 35): the agency's client settings, and its payment terms from the invoice
   * settings where they live (default_payment_terms_days). No row: the declared defaults.
   */
  async defaults(ctx) {
    return agencyClientDefaults(ctx.db, ctx.principal.merchantId);
  },
  async afterSave(ctx, { stored, row }) {
    // Created or made active beyond the plan's active clients: refused whoever writes (issue 35).
    await refuseOverLimit(ctx, 'clients', stored, row);
    if (stored && stored.status === 'active' && row.status !== 'active')
      await endSessionsOfClient(ctx.db, ctx.cluster!, ctx.principal.merchantId, Number(row.id));
  },
  async afterDelete(ctx, row) {
    await endSessionsOfClient(ctx.db, ctx.cluster!, ctx.principal.merchantId, Number(row.id));
  },
};
