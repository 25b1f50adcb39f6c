import type { RecordTemplate } from '../records.js';
import { timesheetRecord } from './timesheet.js';

/** The templates a resource's `documents` may name, by name. */
export const RECORD_TEMPLATES: Record<string, RecordTemplate> = {
  timesheet: timesheetRecord,
};
