// Runs a command in a process group of its own and, when it ends however it ends, ends whatever it left running in
// that group (issue 30 point 9): `npm test`'s stages start products, mail servers and workers, and a stage that fails
// (a browser that cannot start, a worker killed, a hook that throws) must not leave them running after the run.
import { spawn } from 'node:child_process';

const groups = new Set();

/** Ends every process of a group (ignoring a group already gone). */
function endGroup(pid, signal = 'SIGKILL') {
  try {
    process.kill(-pid, signal);
  } catch {
    // no process left in it
  }
}

/**
 * Runs `cmd args` with `options` as for child_process.spawn, in a new process group; answers its exit code (1 for a
 * signal) once it has exited, after ending every process still in its group.
 */
export function runInGroup(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...options, detached: true });
    groups.add(child.pid);
    child.on('error', () => {
      groups.delete(child.pid);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      endGroup(child.pid);
      groups.delete(child.pid);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

// A group is not in the terminal's foreground, so Ctrl-C reaches only this process: pass it on, then end the groups
// when this process ends (a stage's own handlers get a moment to clean up first).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const pid of groups) endGroup(pid, signal);
    setTimeout(() => process.exit(130), 2000).unref();
  });
}
process.on('exit', () => {
  for (const pid of groups) endGroup(pid);
});
