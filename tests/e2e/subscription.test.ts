import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { layoutProblems, PHONE } from './layout';
import {
  api,
  consultantReadsSettings,
  navigateInApp,
  openHome,
  seriousViolations,
  settleScreen,
  signInAdmin,
  trackRequests,
} from './engineHelpers';

// Issue 35, subscription (/appsetting/SubscriptionSetting): the plan's meters, the payment driver's words, a change of
// plan chosen and confirmed, axe clean; a consultant reads it. The test puts the demo agency back on Unlimited (its
// default plan, which it is on when it has chosen none).
const e2e = useBrowser();
const ROUTE = '/appsetting/SubscriptionSetting';

describe('subscription', () => {
  it('an admin sees the usage as meters and changes the plan, told nothing is charged', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const before = (await api(page, 'GET', '/api/subscription')).body.data;
    expect(before.plan.id).toBe('unlimited');
    try {
      await navigateInApp(page, ROUTE);
      await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
      await settleScreen(page, inflight);
      await page.getByRole('heading', { name: /^Unlimited plan/ }).waitFor();
      const staff = page.getByRole('group', { name: 'Active staff' });
      await staff.getByText(`${before.usage.active_staff} (no limit)`).waitFor();
      await page.getByText(/nothing is charged/).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('combobox', { name: 'New plan' }).click();
      await page.getByRole('option', { name: /^Growth/ }).click();
      await page.getByRole('button', { name: 'Change plan' }).click();
      await page.getByText('Plan changed to Growth').waitFor();
      await page.getByRole('heading', { name: /^Growth plan/ }).waitFor();
      await staff.getByText(`${before.usage.active_staff} of 250`).waitFor();
      expect((await api(page, 'GET', '/api/subscription')).body.data.plan.id).toBe('growth');
      expect(await seriousViolations(page)).toEqual([]);
      // A window narrowed to a phone's width (a tablet turned, a window dragged) keeps the page readable: the menu,
      // a drawer over the page on a phone, does not open over it by itself.
      await page.setViewportSize(PHONE);
      await page.getByRole('heading', { name: /^Growth plan/ }).waitFor();
      await page.getByRole('navigation', { name: 'Settings sections' }).waitFor();
      // On a phone: the meters and the plan picker within 390 px, nothing scrolling sideways.
      await page.goto(new URL(ROUTE, page.url()).toString());
      await page.getByRole('heading', { name: /^Growth plan/ }).waitFor();
      expect(await layoutProblems(page, ROUTE, PHONE.width)).toEqual([]);
    } finally {
      await api(page, 'POST', '/api/subscription/plan', { plan: 'unlimited' });
    }
  });

  it('a consultant reads the page and cannot change the plan', async () => {
    const { page } = e2e;
    await consultantReadsSettings(page, ROUTE, 'Subscription', page.getByRole('combobox', { name: 'New plan' }));
    expect(await page.getByRole('button', { name: 'Change plan' }).count()).toBe(0);
  });
});
