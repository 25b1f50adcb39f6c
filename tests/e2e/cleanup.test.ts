import { describe, expect, inject, it } from 'vitest';
import { freePort, runningProducts, startProductAndBrowser, TEST_SERVER_ENV } from './product';

// A run of `npm test` stops every product it started, whatever fails (issue 30 point 9): a browser test file whose
// browser cannot start used to leave its product running (23 of them an hour after a run on a machine without the
// headless shell). scripts/test.mjs also ends each stage's process group (tests/unit/scripts/processGroup.test.ts).
describe('a browser test file that cannot start its browser', () => {
  it('stops the product it started beside it, and says which browser is missing', async () => {
    const before = new Set(runningProducts());
    const port = await freePort();
    await expect(
      startProductAndBrowser(
        { build: inject('e2eBuild'), template: inject('e2eDataTemplate'), env: TEST_SERVER_ENV, port },
        () => '/nowhere/chromium-headless-shell',
      ),
    ).rejects.toThrow('Chromium not found at /nowhere/chromium-headless-shell');
    expect(runningProducts().filter((p) => !before.has(p))).toEqual([]);
    // Nothing answers at its address any more.
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  });
});
