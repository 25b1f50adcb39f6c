import type { ResourceBehaviour } from '../engine/context.js';

// A day's availability is unique per staff member: declared (uniqueTogether), nothing left to do here.
export const availabilityBehaviour: ResourceBehaviour = {};
