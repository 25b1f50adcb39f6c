// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runInGroup } from '../../../scripts/process-group.mjs';

// A stage of `npm test` that fails leaves nothing running (issue 30 point 9): before, a browser stage that could not
// start Chromium left the products it had started running an hour after the run.

/** Whether a process runs (a zombie, ended but not yet collected by its parent, does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('a stage runs in a process group of its own', () => {
  it('ends what the command started and left running when the command fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'process-group-'));
    const pidFile = join(dir, 'pid');
    try {
      // The command starts a long-lived process (as a stage starts a product), writes down its pid, and fails.
      const script = `
        const { spawn } = require('node:child_process');
        const left = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
        require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(left.pid));
        process.exit(3);
      `;
      expect(await runInGroup(process.execPath, ['-e', script], { stdio: 'ignore' })).toBe(3);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(pid).toBeGreaterThan(0);
      await vi.waitFor(() => expect(running(pid)).toBe(false), { timeout: 10_000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the exit code of a command that succeeds, and 1 for one that cannot start', async () => {
    expect(await runInGroup(process.execPath, ['-e', 'process.exit(0)'], { stdio: 'ignore' })).toBe(0);
    expect(await runInGroup('/nowhere/no-such-command', [], { stdio: 'ignore' })).toBe(1);
  });
});
