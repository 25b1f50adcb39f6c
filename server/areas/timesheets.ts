import { timesheetLinesBehaviour, timesheetsBehaviour } from '../behaviours/timesheets.js';
import { timesheetApproversBehaviour } from '../behaviours/timesheetApprovers.js';
import { timesheetsRoutes } from '../routes/timesheets.js';
import { remindUnsignedTimesheets } from '../services/timesheetReminders.js';
import { seedTimesheets } from '../seed/timesheets.js';
import type { ServerArea } from './area.js';

export const timesheetsArea: ServerArea = {
  behaviours: {
    timesheets: timesheetsBehaviour,
    timesheet_lines: timesheetLinesBehaviour,
    timesheet_approvers: timesheetApproversBehaviour,
  },
  routes: [timesheetsRoutes],
  // Unsigned timesheets are chased after each client's reminder days (checked hourly).
  jobs: [{ name: 'timesheet-reminders', everyMs: 60 * 60_000, run: (db) => remindUnsignedTimesheets(db) }],
  // The past four weeks' timesheets in every state (after the shifts they are made of).
  seed: seedTimesheets,
};
