// Types of scripts/process-group.mjs (a plain ES module script, run by Node without a build) for the unit tests.
import type { SpawnOptions } from 'node:child_process';
export function runInGroup(cmd: string, args: string[], options?: SpawnOptions): Promise<number>;
