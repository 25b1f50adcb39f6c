import { instantToZoned } from '../../../core/domain/time/agencyTime';

/** An instant as the timesheet screens show it: yyyy-MM-dd HH:mm on the agency's clock. */
export function instantText(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const { date, time } = instantToZoned(new Date(iso), timeZone);
  return `${date} ${time}`;
}

/** HH:mm on the agency's clock. */
export const timeText = (iso: string | null | undefined, timeZone: string) =>
  iso ? instantToZoned(new Date(iso), timeZone).time : '—';

/** Hours as the sheets show them: at most two decimals. */
export const hoursText = (h: number | string | null | undefined) => String(Number(Number(h ?? 0).toFixed(2)));

/** The time zone the screens fall back on before the agency's is known: the product's agencies are in the UK. */
export const DEFAULT_ZONE = 'Europe/London';
