import type { RecordValues } from '../../core/engine/types.js';
import type { Problems } from '../../core/engine/validate.js';
import type { ResourceBehaviour } from '../engine/context.js';

const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

function checkBreakRules(value: unknown): string | null {
  if (!Array.isArray(value)) return 'Give the breaks as a list of shift lengths and minutes.';
  if (value.length > 10) return 'Give at most 10 break rules.';
  for (const r of value) {
    if (!r || typeof r !== 'object') return 'Give each break as a shift length in hours and the minutes of break.';
    const { min_hours, break_minutes } = r as RecordValues;
    const hours = Number(min_hours);
    const minutes = Number(break_minutes);
    if (!Number.isFinite(hours) || hours <= 0 || hours > 24)
      return 'A break applies from a shift length of more than 0 and at most 24 hours.';
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 240)
      return 'A break is a whole number of minutes from 0 to 240.';
    if (minutes >= hours * 60) return 'A break must be shorter than the shift it applies to.';
  }
  return null;
}

export const clientRulesBehaviour: ResourceBehaviour = {
  computed: {
    applies_to: () =>
      `coalesce((select c.name from clients c where c.merchant_id = client_rules.merchant_id and c.id = client_rules.client_id), '')`,
  },
  async beforeSave(_ctx, { record }): Promise<Problems | void> {
    const breaks = checkBreakRules(record.break_rules);
    if (breaks) return { break_rules: { message: breaks } };
    for (const f of ['night_start', 'night_end', 'weekend_start_time', 'weekend_end_time'])
      if (!HHMM.test(String(record[f] ?? ''))) return { [f]: { message: 'Give a time as HH:mm, for example 20:00.' } };
    if (record.night_start === record.night_end)
      return { night_end: { message: 'The night must end at another time than it starts.' } };
    if (record.weekend_start_day === record.weekend_end_day && record.weekend_start_time === record.weekend_end_time)
      return { weekend_end_time: { message: 'The weekend must end at another time than it starts.' } };
    // checkBreakRules made sure it is a list of objects.
    record.break_rules = (record.break_rules as RecordValues[])
      .map((r) => ({ min_hours: Number(r.min_hours), break_minutes: Number(r.break_minutes) }))
      .sort((a, b) => a.min_hours - b.min_hours);
  },
};
