import type { ResourceBehaviour } from '../engine/context.js';
import { holidaySet } from '../services/holidays.js';

export const holidayOverridesBehaviour: ResourceBehaviour = {
  async beforeSave(_ctx, { stored, record }) {
    if (stored) return;
    const isHoliday = holidaySet(record.region, record.date, record.date, []).has(record.date);
    if (record.kind === 'add' && isHoliday)
      return { date: { message: 'This day is already a bank holiday in this region.' } };
    if (record.kind === 'remove' && !isHoliday)
      return { date: { message: 'This day is not a bank holiday in this region.' } };
  },
};
