import { timesheetLinesBehaviour, timesheetsBehaviour } from '../behaviours/timesheets.js';
import { timesheetApproversBehaviour } from '../behaviours/timesheetApprovers.js';
import { timesheetsRoutes } from '../routes/timesheets.js';
import { remindUnsignedTimesheets } from '../services/timesheetReminders.js';
import { SIGNING_LINK, signingLink, timesheetGeneration } from '../services/timesheets.js';
import { seedTimesheets } from '../seed/timesheets.js';
import type { ServerArea } from './area.js';
import { timesheetResources } from '../../core/resources/timesheets/resource.js';

export const timesheetsArea: ServerArea = {
  name: 'timesheets',
  declarations: timesheetResources,
  behaviours: {
    timesheets: timesheetsBehaviour,
    timesheet_lines: timesheetLinesBehaviour,
    timesheet_approvers: timesheetApproversBehaviour,
  },
  routes: [timesheetsRoutes],
  // A large generation runs as a job, with its progress on the screen.
  jobKinds: [timesheetGeneration],
  links: { [SIGNING_LINK]: signingLink },
  // Unsigned timesheets are chased after each client's reminder days (checked hourly).
  jobs: [{ name: 'timesheet-reminders', everyMs: 60 * 60_000, run: remindUnsignedTimesheets }],
  // The past four weeks' timesheets in every state (after the shifts they are made of).
  seed: seedTimesheets,
};
