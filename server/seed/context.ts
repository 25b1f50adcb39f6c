import type { Compiled } from '../engine/compile.js';

/**
 * What each area's demo data is seeded with: the demo agency, its admin, its clients, a seeded random source and the
 * engine (the areas' compiled declarations) for what the seed writes through it.
 */
export interface SeedContext {
  engine: Map<string, Compiled>;
  merchantId: number;
  adminId: number;
  adminName: string;
  clientIds: number[];
  /** A seeded random number in [0, 1): the demo is the same on every run. */
  random: () => number;
  /** Time zone of the agency (dates of the demo are relative to its today). */
  timeZone: string;
  /**
   * The demo's year of history (server/seed/history.ts), when it is seeded: its first day and the day after its last
   * (the first of the demo's own weeks). Null when left out (the API tests' demos).
   */
  history: { from: string; until: string } | null;
}
