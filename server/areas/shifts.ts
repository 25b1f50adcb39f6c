import { shiftBehaviours } from '../behaviours/shifts.js';
import { shiftsRoutes } from '../routes/shifts.js';
import { staffShiftRoutes } from '../routes/staffShifts.js';
import { seedShifts } from '../seed/shifts.js';
import type { ServerArea } from './area.js';
import { shiftResources } from '../../core/resources/shifts/resource.js';

export const shiftsArea: ServerArea = {
  name: 'shifts',
  declarations: shiftResources,
  behaviours: shiftBehaviours,
  routes: [shiftsRoutes, staffShiftRoutes],
  seed: seedShifts,
};
