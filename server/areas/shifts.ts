import { shiftBehaviours } from '../behaviours/shifts.js';
import { shiftsRoutes } from '../routes/shifts.js';
import { staffShiftRoutes } from '../routes/staffShifts.js';
import { seedShifts } from '../seed/shifts.js';
import type { ServerArea } from './area.js';
import { compactReportSummaries } from '../engine/reportSummaries.js';
import { shiftResources } from '../../core/resources/shifts/resource.js';

export const shiftsArea: ServerArea = {
  name: 'shifts',
  declarations: shiftResources,
  behaviours: shiftBehaviours,
  routes: [shiftsRoutes, staffShiftRoutes],
  // The shift reports' summary: its triggers append a delta per write; this folds them, a key to a row.
  jobs: [{ name: 'shift-days', everyMs: 60_000, run: compactReportSummaries }],
  seed: seedShifts,
};
