// The agency's invoice settings beyond their declaration (core/resources/invoices/settings.ts).
import type { ResourceBehaviour } from '../engine/context.js';
import { formatDisplayDate } from '../../core/domain/time/agencyTime.js';

export const invoiceSettingsBehaviour: ResourceBehaviour = {
  /**
   * The concession's election is never backdated (docs/decisions.md, Issue 32.2): a new date before the agency's
   * today would reach back over work already invoiced with VAT. Checked only when the date changes, so an election
   * made earlier (its date now past) is kept as it is when other settings are saved.
   */
  async beforeSave(ctx, { stored, changes }) {
    if (!('nursing_concession_from' in changes)) return;
    const from = changes.nursing_concession_from;
    if (typeof from !== 'string' || from === '' || from === String(stored?.nursing_concession_from ?? '')) return;
    if (from < ctx.today)
      return {
        nursing_concession_from: {
          message: `The concession cannot be backdated: choose today (${formatDisplayDate(ctx.today)}) or a later day.`,
        },
      };
  },
};
