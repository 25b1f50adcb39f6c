import { it } from 'vitest';
import { signInAdmin } from './engineHelpers';
import { useBrowser } from './harness';
const e2e = useBrowser();
it('probe', async () => {
  const { page } = e2e;
  await signInAdmin(page);
  for (const url of ['/staffs/1/document', '/client/client/1']) {
    await page.goto(url);
    await page.locator('#main-content table tbody tr').first().waitFor();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/pwprobe/desk${url.replace(/\//g, '_')}.png` });
  }
}, 60_000);
