import { candidatesBehaviour } from '../behaviours/candidates.js';
import type { ServerArea } from './area.js';

export const staffArea: ServerArea = {
  behaviours: { candidates: candidatesBehaviour },
};
