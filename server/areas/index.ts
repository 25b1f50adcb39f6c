import type { ResourceBehaviour } from '../engine/context.js';
import type { Job, ServerArea } from './area.js';
import { clientsArea } from './clients.js';
import { communicationArea } from './communication.js';
import { complianceArea } from './compliance.js';
import { notesArea } from './notes.js';
import { ratesArea } from './rates.js';
import { shiftsArea } from './shifts.js';
import { staffArea } from './staff.js';
import { usersArea } from './users.js';
import { timesheetsArea } from './timesheets.js';

/**
 * Every area of the server, listed once: the app registers their behaviours and routes, the notifications worker
 * runs their jobs, the demo seed runs their seeds, all in this order (rates before the shifts they price,
 * messages and notes about both).
 */
export const areas: ServerArea[] = [
  clientsArea,
  staffArea,
  complianceArea,
  ratesArea,
  shiftsArea,
  communicationArea,
  notesArea,
  usersArea,
  // After shifts: timesheets are made of worked ones.
  timesheetsArea,
];

/** What each resource does on the server beyond its declaration, by resource name. */
export const behaviours: Record<string, ResourceBehaviour> = Object.assign({}, ...areas.map((a) => a.behaviours ?? {}));

export const jobs: Job[] = areas.flatMap((a) => a.jobs ?? []);
