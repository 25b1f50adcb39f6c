import type { ResourceBehaviour } from '../engine/context.js';
import { holidaySet } from '../../core/domain/pricing/holidays.js';

export const holidayOverridesBehaviour: ResourceBehaviour = {
  async beforeSave(ctx, { stored, record }) {
    const [dup] = await ctx.db.query('select kind from holiday_overrides where merchant_id = $1 and region = $2 and date = $3 and id <> $4', [ctx.principal.merchantId, record.region, record.date, stored?.id ?? 0]);
    if (dup) return { date: { message: dup.kind === 'add' ? 'This day is already added for this region.' : 'This day is already removed for this region.' } };
    if (stored) return;
    const isHoliday = holidaySet(record.region, record.date, record.date, []).has(record.date);
    if (record.kind === 'add' && isHoliday) return { date: { message: 'This day is already a bank holiday in this region.' } };
    if (record.kind === 'remove' && !isHoliday) return { date: { message: 'This day is not a bank holiday in this region.' } };
  },
};
