import { describe, expect, it } from 'vitest';
import {
  api,
  controlOf,
  navigateInApp,
  openHome,
  seriousViolations,
  signInAdmin,
  trackRequests,
  typeDate,
} from './engineHelpers';
import { agencyToday } from '../../core/domain/time/agencyTime';
import { report, sweep, type Finding } from './axe';
import { layoutProblems, PHONE } from './layout';
import { useBrowser } from './harness';

// Recruitment's screens (issue 35): the overview, the settings and every route of the vacancies and the
// applications, with the demo's records, have no serious or critical axe violation, and fit a 390 px phone; the
// settings are saved from their form and read back after a reload; the overview's counts open their lists. (The
// agency panel's sweep covers them too, dealt among its shards; this file checks them alone, quickly.)
describe('recruitment screens', () => {
  const e2e = useBrowser();
  it('jobs and applications: axe clean, lists within a phone', { timeout: 240_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const first = async (resource: string) =>
      (await api(page, 'GET', `/api/${resource}?page=1&per_page=1`)).body.data[0].id as number;
    const [vacancy, application] = [await first('vacancies'), await first('job_applications')];
    const lists = ['/recruitment', '/recruitment/settings', '/recruitment/jobs', '/recruitment/staffs'];
    const routes = [
      ...lists,
      '/recruitment/jobs/open',
      '/recruitment/jobs/create',
      `/recruitment/jobs/${vacancy}/show`,
      `/recruitment/jobs/${vacancy}`,
      '/recruitment/staffs/offer',
      // The board (measured on a phone by the stage test below, once its columns are filled) and the demo's own
      // stage, Reference check.
      '/recruitment/staffs/board',
      '/recruitment/staffs/custom_1',
      '/recruitment/staffs/create',
      `/recruitment/staffs/${application}/show`,
      `/recruitment/staffs/${application}`,
    ];
    const findings: Finding[] = [];
    const tooWide = await sweep(page, routes, findings, inflight, lists);
    expect(report(findings), 'serious or critical axe violations').toBe('');
    expect(tooWide).toEqual([]);
    // The pipeline's tabs are the agency's stages, by the names it gave them.
    await navigateInApp(page, '/recruitment/staffs');
    await page.getByRole('tab', { name: 'Reference check' }).waitFor();
    expect(await page.getByRole('tab', { name: /Own stage/ }).count()).toBe(0);
    await page.setViewportSize(PHONE);
    for (const route of lists) {
      await page.goto(new URL(route, page.url()).toString());
      await page.locator('#main-content').waitFor();
      expect(await layoutProblems(page, route, PHONE.width)).toEqual([]);
    }
  });

  it('the retention is saved from the settings form and shown after a reload', { timeout: 120_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await openHome(page);
    const before = (await api(page, 'GET', '/api/recruitment_settings')).body.data.retention_months as number;
    const wanted = before === 18 ? 24 : 18;
    try {
      await navigateInApp(page, '/recruitment/settings');
      await page.getByRole('heading', { name: 'Recruitment: Settings', level: 1 }).waitFor();
      const months = page.getByRole('spinbutton', { name: /Keep applications that were not hired for/ });
      await expect.poll(() => months.inputValue()).toBe(String(before));
      // Out of range: the product's own words next to the field, not the browser's bubble blocking the save.
      await months.fill('85');
      await page.getByRole('button', { name: 'Save' }).click();
      await controlOf(page, months).getByText('Must be 84 or less').waitFor();
      await months.fill(String(wanted));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Recruitment settings saved').waitFor();
      await page.reload();
      const again = page.getByRole('spinbutton', { name: /Keep applications that were not hired for/ });
      await expect.poll(() => again.inputValue()).toBe(String(wanted));
    } finally {
      const now = (await api(page, 'GET', '/api/recruitment_settings')).body.data;
      await api(page, 'PUT', '/api/recruitment_settings', { retention_months: before, version: now.version });
    }
  });

  it('the overview counts the applicants at a stage and opens that stage’s list', { timeout: 120_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await openHome(page);
    const offers = (await api(page, 'GET', '/api/job_applications?stage=offer&per_page=1')).body.total_count as number;
    await navigateInApp(page, '/recruitment');
    const card = page.getByRole('link', { name: new RegExp(`^${offers}\\s*Offer$`) });
    await card.waitFor();
    await card.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/recruitment/staffs/offer');
  });

  it('an interview booked from the pipeline on a phone is in today’s diary', { timeout: 180_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await openHome(page);
    // An applicant at screening, to one of the demo's open jobs.
    const job = (await api(page, 'GET', '/api/vacancies?status=open&per_page=1')).body.data[0];
    const last = `Interviewee${Date.now().toString(36)}`;
    const made = await api(page, 'POST', '/api/job_applications', {
      job_id: job.id,
      first_name: 'Ola',
      last_name: last,
      email: `ola.${last.toLowerCase()}@applicant.example`,
      right_to_work: 'yes',
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data.id as number;
    try {
      expect((await api(page, 'POST', `/api/job_applications/${id}/actions/screen`, {})).status).toBe(200);
      await page.setViewportSize(PHONE);
      // Opened afresh at phone width (a move within the app keeps the wide layout's menu state).
      await page.goto(new URL(`/recruitment/staffs/${id}/show`, page.url()).toString());
      await page.getByText('Screening', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Interview', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await typeDate(
        page,
        dialog.getByRole('group', { name: /^Interview date and time/ }),
        `${agencyToday('Europe/London')} 12:00`,
      );
      // The picker open on a phone: its calendar and times, and the page under them, fit the screen (on a laptop the
      // times stand beside the calendar, 433 px together, wider than this screen). Measured once it has grown in.
      const picker = page.locator('.MuiPickerPopper-paper');
      await picker.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
      expect(await layoutProblems(page, 'the interview dialog, its calendar open', PHONE.width)).toEqual([]);
      // The whole picker on the screen, and the typed hour in sight in its hours, ready to be changed there.
      const edges = async (l: typeof picker) => {
        const b = (await l.boundingBox())!;
        return { left: b.x, top: b.y, right: b.x + b.width, bottom: b.y + b.height };
      };
      const shown = await edges(picker);
      expect(shown.left, 'the picker starts on the screen').toBeGreaterThanOrEqual(0);
      expect(shown.top, 'the picker starts on the screen').toBeGreaterThanOrEqual(0);
      expect(shown.right, 'the picker’s right edge').toBeLessThanOrEqual(PHONE.width);
      expect(shown.bottom, 'the picker’s bottom edge').toBeLessThanOrEqual(PHONE.height);
      const hour = await edges(picker.getByRole('option', { name: '12 hours' }));
      expect(hour.top, 'the typed hour in sight').toBeGreaterThanOrEqual(shown.top);
      expect(hour.bottom, 'the typed hour in sight').toBeLessThanOrEqual(shown.bottom);
      // The picker's calendar closes (Escape keeps the typed time) and has faded out before the dialog is measured.
      await page.keyboard.press('Escape');
      await page.locator('.MuiPickerPopper-root').waitFor({ state: 'detached' });
      await dialog.getByLabel('Interviewed by').fill('Sam Lee');
      await dialog.getByLabel('Where').fill('The Leeds office');
      // The dialog on a phone: nothing wider than the screen, and no serious accessibility fault.
      expect(await layoutProblems(page, 'the interview dialog', PHONE.width)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog
        .getByRole('button', { name: /^(Interview|Confirm)$/ })
        .last()
        .click();
      await page.getByText('Interview booked: it is in the diary').waitFor();

      // The diary's Today tab lists it, as the consultant sees it on the day.
      await navigateInApp(page, '/dairy_notes/today');
      await page.getByText(`Interview: Ola ${last} for ${job.title}`).first().waitFor();
      expect(await layoutProblems(page, '/dairy_notes/today', PHONE.width)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      // Erasing the application erases its diary note too.
      await api(page, 'DELETE', `/api/job_applications/${id}`);
    }
  });

  it(
    'a stage added in the settings; an applicant moved to it on the board, with a note',
    { timeout: 240_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      await openHome(page);
      const before = (await api(page, 'GET', '/api/recruitment_settings')).body.data;
      const job = (await api(page, 'GET', '/api/vacancies?status=open&per_page=1')).body.data[0];
      const last = `Trialist${Date.now().toString(36)}`;
      const made = await api(page, 'POST', '/api/job_applications', {
        job_id: job.id,
        first_name: 'Noor',
        last_name: last,
        email: `noor.${last.toLowerCase()}@applicant.example`,
        right_to_work: 'yes',
        consent: true,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.data.id as number;
      try {
        await navigateInApp(page, '/recruitment/settings');
        await page.getByRole('heading', { name: 'Pipeline stages', level: 2 }).waitFor();
        const stages = page.getByRole('list', { name: 'Pipeline stages' });
        await stages.getByRole('textbox', { name: /^Stage 1$/ }).waitFor();
        const count = await stages.getByRole('listitem').count();
        await page.getByRole('button', { name: 'Add a stage' }).click();
        // The new stage stands just before Hired, its name to give.
        const added = stages.getByRole('textbox', { name: `Stage ${count - 1} (yours)` });
        expect(await added.inputValue()).toBe('');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Each stage needs a name').waitFor();
        await added.fill('Trial shift');
        // Hired cannot be removed: its button is disabled; the new one moves up past Reference check.
        expect(await page.getByRole('button', { name: 'Remove Hired' }).isDisabled()).toBe(true);
        await page.getByRole('button', { name: 'Move Trial shift up' }).click();
        await expect
          .poll(() => stages.getByRole('textbox', { name: `Stage ${count - 2} (yours)` }).inputValue())
          .toBe('Trial shift');
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Recruitment settings saved').waitFor();

        // The board shows it in the agency's order; the applicant is moved there from their card's menu.
        await navigateInApp(page, '/recruitment/staffs/board');
        const headings = page.getByRole('region', { name: 'Pipeline stages' }).getByRole('heading', { level: 2 });
        await page.getByRole('heading', { name: /^Trial shift \(0\)$/ }).waitFor();
        const order = (await headings.allTextContents()).map((h) => h.replace(/ \(\d+\)$/, ''));
        expect(order.indexOf('Trial shift')).toBe(order.indexOf('Offer') + 1);
        expect(order.slice(-2)).toEqual(['Hired', 'Rejected']);
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByRole('button', { name: `Actions for Noor ${last}` }).click();
        await page.getByRole('menuitem', { name: 'Move to a stage of your own' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('combobox', { name: /^Stage/ }).click();
        await page.getByRole('option', { name: 'Trial shift' }).click();
        await dialog.getByLabel('Note').fill('Trial on the Friday late shift');
        expect(await seriousViolations(page)).toEqual([]);
        await dialog
          .getByRole('button', { name: /^(Move to a stage of your own|Confirm)$/ })
          .last()
          .click();
        await page.getByText('Moved', { exact: true }).waitFor();
        const column = page.getByRole('region', { name: /^Trial shift/ });
        await column.getByRole('link', { name: `Noor ${last}` }).waitFor();
        await column.getByText('Trial on the Friday late shift').waitFor();
        const stored = (await api(page, 'GET', `/api/job_applications/${id}`)).body.data;
        expect(stored.stage).toMatch(/^custom_/);
        // On a phone the columns stack: nothing wider than the screen, once the board has laid itself out again.
        await page.setViewportSize(PHONE);
        await expect.poll(() => layoutProblems(page, '/recruitment/staffs/board', PHONE.width)).toEqual([]);
      } finally {
        await api(page, 'DELETE', `/api/job_applications/${id}`);
        const now = (await api(page, 'GET', '/api/recruitment_settings')).body.data;
        await api(page, 'PUT', '/api/recruitment_settings', { stages: before.stages, version: now.version });
      }
    },
  );
});
