// Types of scripts/chromium.mjs (a plain ES module script, run by Node without a build) for the TypeScript that
// imports it (tests/e2e/product.ts and the unit tests).
export type ChromiumPlan = { use: string } | { install: string[][] } | { missing: string };
export const HEADLESS_SHELL: string;
export const FULL_CHROMIUM: string;
export const INSTALL_COMMAND: string;
export function planChromium(machine: {
  env: Record<string, string | undefined>;
  runnable: (path: string) => boolean;
  isRoot: boolean;
  hasAptGet: boolean;
  installFailed?: boolean;
  mayInstall?: boolean;
}): ChromiumPlan;
export function runnable(path: string): boolean;
export function chromiumPlanHere(
  env?: Record<string, string | undefined>,
  options?: { installFailed?: boolean; mayInstall?: boolean },
): ChromiumPlan;
export function findOrInstallChromium(
  env?: Record<string, string | undefined>,
  log?: (line: string) => void,
): { path: string } | { missing: string };
