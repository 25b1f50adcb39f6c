// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { FULL_CHROMIUM, HEADLESS_SHELL, planChromium } from '../../../scripts/chromium.mjs';

// `npm test` finds or installs the browser the browser tests drive (issue 30 point 1): the README's two commands are
// all a fresh Debian machine needs, and what they cannot install is named with the command that installs it.
const machine = (present: string[], more: Partial<Parameters<typeof planChromium>[0]> = {}) =>
  planChromium({
    env: {},
    runnable: (path) => present.includes(path),
    isRoot: true,
    hasAptGet: true,
    ...more,
  });

describe('the browser tests find or install their Chromium', () => {
  it.each([
    ['the headless shell is installed', [HEADLESS_SHELL, FULL_CHROMIUM], {}, { use: HEADLESS_SHELL }],
    [
      'the path the caller set, before anything installed',
      ['/opt/chrome/headless_shell', HEADLESS_SHELL],
      { env: { CHROMIUM_HEADLESS_SHELL_PATH: '/opt/chrome/headless_shell' } },
      { use: '/opt/chrome/headless_shell' },
    ],
    [
      'the full chromium when the shell could not be installed',
      [FULL_CHROMIUM],
      { installFailed: true },
      { use: FULL_CHROMIUM },
    ],
    ['the full chromium when not root', [FULL_CHROMIUM], { isRoot: false }, { use: FULL_CHROMIUM }],
    ['the full chromium when there is no apt-get', [FULL_CHROMIUM], { hasAptGet: false }, { use: FULL_CHROMIUM }],
    [
      'the full chromium of CHROMIUM_PATH',
      ['/opt/chromium'],
      { isRoot: false, env: { CHROMIUM_PATH: '/opt/chromium' } },
      { use: '/opt/chromium' },
    ],
    [
      'the full chromium when a browser test runs on its own (it never installs)',
      [FULL_CHROMIUM],
      { mayInstall: false },
      { use: FULL_CHROMIUM },
    ],
  ] as const)('uses %s', (_what, present, more, plan) => {
    expect(machine([...present], more)).toEqual(plan);
  });

  it("installs Debian's chromium-headless-shell as root with apt-get, even beside the full chromium", () => {
    for (const present of [[], [FULL_CHROMIUM]])
      expect(machine(present)).toEqual({
        install: [
          ['apt-get', 'update'],
          ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium-headless-shell'],
        ],
      });
  });

  it('names the command that installs the shell when it can neither find nor install a browser', () => {
    const asUser = machine([], { isRoot: false });
    expect(asUser).toEqual({
      missing: expect.stringContaining("sudo sh -c 'apt-get update && apt-get install -y chromium-headless-shell'"),
    });
    const failed = machine([], { installFailed: true });
    expect(failed).toEqual({ missing: expect.stringContaining('installing it failed') });
    expect(failed).toEqual({
      missing: expect.stringContaining('\n  apt-get update && apt-get install -y chromium-headless-shell\n'),
    });
  });

  it('refuses a CHROMIUM_HEADLESS_SHELL_PATH that cannot run rather than quietly using another browser', () => {
    const plan = machine([HEADLESS_SHELL, FULL_CHROMIUM], { env: { CHROMIUM_HEADLESS_SHELL_PATH: '/nowhere/chrome' } });
    expect(plan).toEqual({ missing: expect.stringContaining('CHROMIUM_HEADLESS_SHELL_PATH is /nowhere/chrome') });
  });
});
