// Types of scripts/check-layers.mjs (run by Node without a build, by `npm run typecheck`) for the unit tests.
/** Each import across the layers, as `file imports 'specifier'`. */
export function layerProblems(): string[];
/** The import cycles among the modules under `dir` (server/ by default), each as its files. */
export function serverCycles(dir?: string): string[][];
