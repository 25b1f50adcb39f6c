import type { ResourceBehaviour } from '../engine/context.js';
import { textOf } from '../../core/engine/types.js';
import type { Region } from '../../core/domain/pricing/types.js';
import { holidaySet } from '../services/holidays.js';

export const holidayOverridesBehaviour: ResourceBehaviour = {
  async beforeSave(_ctx, { stored, record }) {
    if (stored) return;
    // Validated: the region is one of the declared choices, the date a 'yyyy-MM-dd'.
    const [region, date] = [record.region as Region, textOf(record.date)];
    const isHoliday = holidaySet(region, date, date, []).has(date);
    if (record.kind === 'add' && isHoliday)
      return { date: { message: 'This day is already a bank holiday in this region.' } };
    if (record.kind === 'remove' && !isHoliday)
      return { date: { message: 'This day is not a bank holiday in this region.' } };
  },
};
