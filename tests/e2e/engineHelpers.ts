import axe from 'axe-core';
import type { Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { homeOf, KEYS, type LoginResponse } from '../../src/providers/session';
import { loginTypeOfStored, type StoredLoginType } from '../../core/engine/types';
import { addDaysToDate, startOfWeekMonday } from '../../core/domain/time/agencyTime';

/**
 * Helpers for the browser tests of the resource engine's generated screens (engine.test.ts): signing in,
 * driving react-admin's inputs the way a user does, and reading the API with the page's own token.
 */

export const path = (page: Page) => new URL(page.url()).pathname;

/** Waits until the address bar shows `expected` (a path or a pattern). */
export async function waitForPath(page: Page, expected: string | RegExp, timeout = 15_000) {
  await page.waitForURL((u) => (typeof expected === 'string' ? u.pathname === expected : expected.test(u.pathname)), {
    timeout,
  });
}

/** Signs in through the Login page as a person does (the panel, e-mail, password, Enter's button). */
export async function signIn(page: Page, panel: 'Agency' | 'Client', email: string, password: string) {
  await page.goto('/');
  await page.getByRole('radio', { name: panel }).check();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Starts a test signed in without the Login page: a fresh session from the sign-in endpoint the Login page calls,
 * stored under the keys the Login page stores it (src/providers/session.ts), with the page left on the product's
 * smallest document (the app not opened yet). The test then opens the screen it is about, or the panel's home with
 * `openHome`, as a signed-in user reopens it: loading the home screen only to leave it cost a second or two of the
 * browser's work per test. For the many tests that are about what comes after signing in; the Login page itself is
 * driven by the tests that are about it (foundation, account, speed). Each call is a session of its own, so a test
 * that signs out ends only its own.
 */
async function startSignedIn(page: Page, loginType: StoredLoginType, email: string, password: string) {
  const res = await page.request.post(`/api/${loginType}_login`, { data: { email, password } });
  if (!res.ok()) throw new Error(`${loginType}_login for ${email} answered ${res.status()}: ${await res.text()}`);
  const r = (await res.json()) as LoginResponse;
  // Any document of the product's origin can hold its localStorage; the health answer is the smallest.
  await page.goto('/api/health');
  await page.evaluate(
    ([keys, session]) => {
      localStorage.setItem(keys.token, session.token);
      localStorage.setItem(keys.tokenExpiration, session.token_expiration);
      localStorage.setItem(keys.loginType, session.login_type);
      localStorage.setItem(keys.merchantId, String(session.merchant_id));
    },
    [KEYS, r] as const,
  );
}

/** Opens the signed-in panel's home screen (after signInAdmin or signInClient) and waits for its header. */
export async function openHome(page: Page) {
  const home = homeOf(loginTypeOfStored(await page.evaluate((key) => localStorage.getItem(key), KEYS.loginType)));
  await page.goto(home);
  await waitForPath(page, home);
  await page.locator('header').first().waitFor();
}

export async function signInAdmin(page: Page, email = 'admin@demo.test') {
  await startSignedIn(page, 'admin', email, 'demo-admin');
}

export async function signInClient(page: Page, email = 'client@demo.test') {
  await startSignedIn(page, 'client', email, 'demo-client');
}

/** A short random suffix that keeps this run's records apart from the demo's and other tests'. */
export const uid = () => Math.random().toString(36).slice(2, 8);

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
}

/** Calls the API from the page with the token it holds in localStorage. */
export function api<T = any>(page: Page, method: string, url: string, json?: unknown): Promise<ApiAnswer<T>> {
  return page.evaluate(
    async ([m, u, j]) => {
      const headers: Record<string, string> = { authorization: `Bearer ${localStorage.getItem('token')}` };
      if (j !== undefined) headers['content-type'] = 'application/json';
      const r = await fetch(u, { method: m, headers, body: j === undefined ? undefined : JSON.stringify(j) });
      const text = await r.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: r.status, body: body as any };
    },
    [method, url, json] as const,
  );
}

/** The id at the end of the current address (/client/view/12 → 12). */
export const idInPath = (page: Page) => Number(path(page).split('/').filter(Boolean).pop());

/** The id in the current address, for addresses like /appsetting/staff-detail-field/12/show. */
export const numberInPath = (page: Page) => Number(/\/(\d+)(?:\/|$)/.exec(path(page))![1]);

/** Chooses `option` in a react-admin SelectInput (an MUI select) labelled `label`. */
export async function selectChoice(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}

/** Types part of a record's name in a reference autocomplete and chooses the suggestion `option`. */
export async function chooseReference(scope: Page | Locator, page: Page, label: string, typed: string, option: string) {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  const listbox = page.getByRole('listbox');
  // The search for the whole of what was typed, answered: until then the list shows the choices of before (or of part
  // of the word), and on a busy machine the answer redrew the list under the click (seen in the coordinator's week:
  // the click chose nothing). A search answered from the screen's cache sends nothing; the wait then ends at 15 s.
  const searched = page
    .waitForResponse((r) => new URL(r.url()).searchParams.get('q') === typed, { timeout: 15_000 })
    .catch(() => undefined);
  await box.click();
  await box.pressSequentially(typed, { delay: 30 });
  await searched;
  await listbox.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => box.inputValue()).toBe(option);
  // Chosen. On a busy machine the (debounced) search for what was typed can answer after the choice and open the list
  // again (seen in the restrictions and shift template tests): a user closes it with Escape, which keeps the choice.
  if (await listbox.isVisible()) await box.press('Escape');
  await listbox.waitFor({ state: 'hidden' });
  expect(await box.inputValue()).toBe(option);
}

/** The date picker field labelled `label` (MUI's sectioned field: Year - Month - Day spin buttons). */
export const dateField = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });

/**
 * Types a date in a date picker field, key by key, the way a user does: one click into the field opens its
 * calendar and leaves the caret in the year, so the user types straight away (yyyy-MM-dd: the field moves on
 * to the next part by itself; the dashes are its own separators). A time picker's field (HH:mm) is typed the
 * same way, from the hours. `field` is the field's label, or its group (the field inside a dialog, say).
 */
export async function typeDate(page: Page, field: string | Locator, text: string) {
  const group = typeof field === 'string' ? dateField(page, field) : field;
  const parts = group.getByRole('spinbutton');
  await parts.first().click();
  // The last one: another field's picker, left by this click, may still be on its way out.
  await page.getByRole('dialog').last().waitFor();
  // Part by part, each once the field has moved the caret to it, as a user watching the field types.
  const typed = text.split(/[-: ]/);
  const count = await parts.count();
  if (typed.length !== count)
    throw new Error(`"${text}" has ${typed.length} parts; the ${String(field)} field has ${count}`);
  for (const [i, digits] of typed.entries()) {
    await expect.poll(() => parts.nth(i).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(digits, { delay: 20 });
  }
}

/** Types a time (HH:mm) in a time picker field: see typeDate. */
export const typeTime = typeDate;

/**
 * The form control (input, label and helper text with its error) around `input`. `input` must be rooted at
 * the page (page.getByLabel…), as a `has` filter is resolved inside each candidate control.
 */
export const controlOf = (page: Page, input: Locator) => page.locator('.MuiFormControl-root', { has: input }).last();

/** Fills react-admin's list search box (debounced) and waits for the list to ask the API for it. */
export async function searchList(page: Page, resource: string, text: string) {
  const asked = page.waitForResponse((r) => {
    const u = new URL(r.url());
    return u.pathname === `/api/${resource}` && (u.searchParams.get('q') ?? '') === text;
  });
  await page.getByRole('textbox', { name: 'Search' }).fill(text);
  await asked;
}

/** The body rows of the list's table whose text includes `text`. */
export const rowsWith = (page: Page, text: string) => page.locator('table tbody tr', { hasText: text });

/** Clicks Delete on a show view and confirms in react-admin's dialog. */
export async function deleteFromShow(page: Page) {
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * Counts the page's requests in flight, live streams left out (the chat's stays open while its screen shows).
 * Call before the page loads what a later settleScreen should wait for.
 */
export function trackRequests(page: Page): () => number {
  const open = new Set<Request>();
  page.on('request', (r) => r.headers().accept !== 'text/event-stream' && open.add(r));
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
  return () => open.size;
}

/** Whether the page shows the app (rather than the product's smallest document, or nothing yet). */
export const appIsOpen = (page: Page) => page.evaluate(() => !!document.getElementById('root')?.childElementCount);

/**
 * Moves inside the single-page app as a link does (no reload): a sweep over many screens stays quick. The app must
 * be open already (openHome after signing in); otherwise every screen of a sweep would wait out settleScreen.
 */
export async function navigateInApp(page: Page, route: string) {
  if (!(await appIsOpen(page)))
    throw new Error(`navigateInApp(${route}): the app is not open on this page (openHome first)`);
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, route);
  // Until the screen of the address (or of the one it redirects to) is on the page: the move renders in a transition,
  // with the previous screen up meanwhile, and at load 10 a sweep judged a settings screen's table by the next
  // screen's name. The staff page has no such mark, and is not waited for.
  await page.waitForFunction(() => {
    const rendered = document.documentElement.dataset.renderedPath;
    return rendered === undefined || rendered === window.location.pathname;
  });
}

/**
 * Waits until the screen has loaded: no request in flight, no progress indicator or list placeholder, and the
 * content holding text, for a quiet 150 ms (at most 15 s: a screen that never settles is then judged as it stands).
 * react-admin's loading table (grey placeholder rows) is a moment's stand-in: on a busy machine a check could judge it
 * instead of the list.
 */
export async function settleScreen(page: Page, inflight: () => number) {
  const deadline = Date.now() + 15_000;
  let quietSince = 0;
  while (Date.now() < deadline) {
    const busy =
      inflight() > 0 ||
      (await page.evaluate(() => {
        const main = document.querySelector('#main-content') ?? document.querySelector('main');
        const loading = [
          ...document.querySelectorAll<HTMLElement>('[role="progressbar"], .RaPlaceholder-root, .MuiSkeleton-root'),
        ].some((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
        return !main || (main.textContent ?? '').trim() === '' || loading;
      }));
    if (busy) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince >= 150) return;
    await page.waitForTimeout(30);
  }
}

/** Serious or critical axe violations (WCAG 2.1 A and AA) of the page once it has settled, each named by `route`. */
export async function axeProblems(page: Page, route: string, inflight: () => number): Promise<string[]> {
  await settleScreen(page, inflight);
  return (await seriousViolations(page)).map(
    (v) => `${route} — ${v.id}: ${v.nodes.map((n) => n.html.slice(0, 300)).join(' | ')}`,
  );
}

/**
 * axe-core's serious and critical WCAG 2.1 A/AA violations on the page once its transitions have ended (axe injected
 * once per page). A dialog fading in is measured at full opacity: halfway, its text fails contrast against the
 * backdrop, which on a loaded machine is where axe found the client's sign dialog. Endless animations (a spinner)
 * are left running.
 */
export async function seriousViolations(page: Page) {
  await page.evaluate(async () => {
    // Two frames first: a transition a commit has just asked for starts on the next frame.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const ending = document
      .getAnimations()
      .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = (await page.evaluate(() =>
    (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    }),
  )) as { violations: { id: string; impact: string; nodes: { html: string }[] }[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * A consultant opens one of the agency's settings screens (`route`, its h1 `heading`): told that only an admin changes
 * them, no Save button, `control` disabled, axe clean. Leaves the page on the screen.
 */
export async function consultantReadsSettings(page: Page, route: string, heading: string, control: Locator) {
  const inflight = trackRequests(page);
  await signInAdmin(page, 'consultant@demo.test');
  await openHome(page);
  await navigateInApp(page, route);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await settleScreen(page, inflight);
  await page.getByText('Only an admin can change these settings; you can read them.').waitFor();
  expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
  await expect(control.isDisabled()).resolves.toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
}

/** Types a date into a plain date picker (its calendar opens from its button only), part by part as a user does. */
export async function typePlainDate(page: Page, label: string, date: string) {
  const parts = dateField(page, label).getByRole('spinbutton');
  await parts.first().click();
  for (const [i, digits] of date.split('-').entries()) {
    await expect.poll(() => parts.nth(i).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(digits, { delay: 20 });
  }
}

/**
 * A run's week chosen on a generation screen (invoices, pay runs): the Wednesday of the week starting `monday` typed
 * in From, which says the week's Monday under the field and fills To with its Sunday. Answers that Sunday.
 */
export async function chooseRunWeek(page: Page, monday: string) {
  await typePlainDate(page, 'From', addDaysToDate(monday, 2));
  const sunday = addDaysToDate(monday, 6);
  await page.getByText(`From Monday ${monday}`).waitFor();
  const typed = (label: string) =>
    dateField(page, label)
      .getByRole('spinbutton')
      .allTextContents()
      .then((parts) => parts.join('-'));
  await expect.poll(() => typed('To')).toBe(sunday);
  return sunday;
}

/**
 * A draft weekly pay run of one staff member over a week of the demo's verified hours not yet paid (issue 33): its
 * run, payslips and the staff member it pays. Fails the test when the demo has no such week left.
 */
export async function payOneStaffWeek(page: Page, { withoutBankDetails = false } = {}) {
  const lines = (await api(page, 'GET', '/api/timesheet_lines?status=verified&per_page=100')).body.data as {
    candidate_id: number | null;
    work_date: string;
  }[];
  for (const l of lines.filter((x) => x.candidate_id)) {
    // The demo's payroll staff have bank details (server/seed/payRuns.ts): skipped when a test needs someone without.
    if (
      withoutBankDetails &&
      (await api(page, 'GET', `/api/candidates/${l.candidate_id}`)).body.data.bank_details_masked
    )
      continue;
    const monday = startOfWeekMonday(l.work_date);
    const res = await api(page, 'POST', '/api/pay_runs/actions/generate', {
      frequency: 'weekly',
      from: monday,
      to: addDaysToDate(monday, 6),
      candidate_ids: [l.candidate_id],
    });
    expect(res.status).toBe(200);
    const made = res.body.data as { run_id: number | null; payslips: number[] };
    if (made.run_id) return { run_id: made.run_id, payslips: made.payslips, candidate_id: Number(l.candidate_id) };
  }
  throw new Error('The demo has no week of verified hours left to pay.');
}
