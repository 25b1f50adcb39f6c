import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { provideHolidayLibrary } from '../../core/domain/pricing/holidays.js';

// The bank holidays, for the server: core's rules (core/domain/pricing/holidays.ts), with date-holidays loaded when
// the first one is asked for rather than at start (about 100 ms of CPU). Every server module asking about bank
// holidays imports them from here, so the library is always provided first.
provideHolidayLibrary(() => createRequire(import.meta.url)('date-holidays') as typeof Holidays);

export {
  bankHolidays,
  bankHolidaysWithOverrides,
  holidaySet,
  type BankHoliday,
  type HolidayOverride,
} from '../../core/domain/pricing/holidays.js';
