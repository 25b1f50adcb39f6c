// The headless Chromium the browser tests drive, found or installed by `npm test` itself (issue 30 point 1), so the
// README's two commands are all a fresh Debian machine needs. `planChromium` decides (a pure function, unit-tested);
// `findOrInstallChromium` carries the plan out. tests/e2e/product.ts uses `planChromium` too, for a browser test
// started without `npm test`.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Debian's headless shell: the browser the tests are made for (docs/decisions.md: a quarter less CPU). */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** Debian's full browser, which runs the same tests headless when the shell is absent and cannot be installed. */
export const FULL_CHROMIUM = '/usr/bin/chromium';
/** The one command that installs the headless shell on Debian (what the plan runs as root, and names otherwise). */
export const INSTALL_COMMAND = 'apt-get update && apt-get install -y chromium-headless-shell';

/**
 * What to do for a browser:
 *  - { use: path }: run the tests with it;
 *  - { install: [[cmd, ...args], ...] }: run these, then decide again (`installFailed` set when they failed);
 *  - { missing: words }: no browser, and nothing this process may do about it; `words` name the command that fixes it.
 * `mayInstall: false` (a browser test started on its own, not by `npm test`) skips the install.
 * The order: the path the caller set (CHROMIUM_HEADLESS_SHELL_PATH), and nothing else when it is set; Debian's headless
 * shell; installing it when root with apt-get (once); Debian's full chromium (CHROMIUM_PATH or /usr/bin/chromium).
 *
 * @param {{ env: Record<string, string | undefined>, runnable: (path: string) => boolean, isRoot: boolean,
 *   hasAptGet: boolean, installFailed?: boolean, mayInstall?: boolean }} machine
 * @returns {{ use: string } | { install: string[][] } | { missing: string }}
 */
export function planChromium({ env, runnable, isRoot, hasAptGet, installFailed = false, mayInstall = true }) {
  const chosen = env.CHROMIUM_HEADLESS_SHELL_PATH;
  if (chosen) {
    if (runnable(chosen)) return { use: chosen };
    return {
      missing: `CHROMIUM_HEADLESS_SHELL_PATH is ${chosen}, which is not a program that can run: correct it, or unset it to use Debian's chromium-headless-shell.`,
    };
  }
  if (runnable(HEADLESS_SHELL)) return { use: HEADLESS_SHELL };
  if (mayInstall && isRoot && hasAptGet && !installFailed)
    return {
      install: [
        ['apt-get', 'update'],
        ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium-headless-shell'],
      ],
    };
  const full = env.CHROMIUM_PATH || FULL_CHROMIUM;
  if (runnable(full)) return { use: full };
  const how = isRoot ? INSTALL_COMMAND : `sudo sh -c '${INSTALL_COMMAND}'`;
  return {
    missing:
      `The browser tests need Debian's headless Chromium, which is not installed${installFailed ? ' (installing it failed: see above)' : ''}. ` +
      `Install it with:\n  ${how}\n(or set CHROMIUM_HEADLESS_SHELL_PATH to another Chromium).`,
  };
}

/** Whether `path` is a file this process may run. */
export function runnable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The plan for this machine as it is now (`options`: installFailed, mayInstall as for planChromium). */
export function chromiumPlanHere(env = process.env, options = {}) {
  return planChromium({
    env,
    runnable,
    isRoot: process.getuid?.() === 0,
    hasAptGet: runnable('/usr/bin/apt-get'),
    ...options,
  });
}

/**
 * Finds the browser, installing Debian's headless shell first when the plan says so (its output goes to `log`).
 * Answers { path } or { missing: words }.
 */
export function findOrInstallChromium(env = process.env, log = (line) => console.log(line)) {
  let plan = chromiumPlanHere(env);
  if ('install' in plan) {
    log(`chromium-headless-shell is not installed: installing Debian's (${INSTALL_COMMAND})`);
    const failed = plan.install.some(([cmd, ...args]) => {
      const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      return r.status !== 0;
    });
    plan = chromiumPlanHere(env, { installFailed: failed || !runnable(HEADLESS_SHELL) });
  }
  return 'use' in plan ? { path: plan.use } : plan;
}
