import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';

export async function seedTimesheets(_db: Queryable, _ctx: SeedContext) {}
