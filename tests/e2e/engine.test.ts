import { describe, expect, it } from 'vitest';
import { format, parse } from 'date-fns';
import { useBrowser } from './harness';
import {
  api,
  chooseReference,
  controlOf,
  dateField,
  deleteFromShow,
  idInPath,
  numberInPath,
  path,
  rowsWith,
  searchList,
  selectChoice,
  signInAdmin,
  typeDate,
  uid,
  waitForPath,
} from './engineHelpers';

// Browser tests of the resource engine's generated screens (list, show, create, edit) on the clients, sites,
// staff and staff detail fields declarations. The e2e project shares one product and database, so every
// record made here carries a random suffix and is removed by the test that made it.

const e2e = useBrowser();

describe('clients', () => {
  const name = `E2E Client ${uid()}`;
  let id = 0;

  it('creates a client through /client/create after the form refused an empty name and a bad billing e-mail', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/client/create');
    const form = page.locator('form');
    // Page-rooted, so that controlOf (a `has` filter) finds their form controls.
    const nameInput = page.getByRole('textbox', { name: 'Name', exact: true });
    const billing = page.getByRole('textbox', { name: 'Billing e-mail', exact: true });

    // Client-side validation: nothing reaches the API while the form is wrong.
    const posts: string[] = [];
    page.on(
      'request',
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/clients' && posts.push(r.url()),
    );
    await billing.fill('not-an-address');
    await page.getByRole('button', { name: 'Save' }).click();
    await controlOf(page, nameInput).getByText('Required', { exact: true }).waitFor();
    await controlOf(page, billing).getByText('Invalid email address', { exact: true }).waitFor();
    expect(path(page)).toBe('/client/create');

    await nameInput.fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await controlOf(page, billing).getByText('Invalid email address', { exact: true }).waitFor();
    await expect.poll(() => controlOf(page, nameInput).getByText('Required').count()).toBe(0);
    expect(path(page)).toBe('/client/create');
    expect(posts).toEqual([]);

    await billing.fill('accounts@e2e-client.test');
    // The client's own address, not its billing address (issue 32), which has the same inputs.
    const address = form.getByRole('group', { name: 'Address', exact: true });
    await address.getByLabel('Address line 1').fill('1 Test Street');
    await address.getByLabel('Postcode').fill('LS1 4AB');
    await selectChoice(page, 'Status', 'Active');
    await page.getByRole('button', { name: 'Save' }).click();

    // The show view of the new record.
    await waitForPath(page, /^\/client\/view\/\d+$/);
    id = idInPath(page);
    const main = page.locator('#main-content');
    await main.getByText(name, { exact: true }).waitFor();
    await main.getByRole('link', { name: 'accounts@e2e-client.test' }).waitFor();
    // The address is in the profile's summary and its details: the summary's line names the default country.
    await main.getByText('1 Test Street, LS1 4AB, United Kingdom', { exact: true }).waitFor();
    await main.getByText('Active', { exact: true }).waitFor();

    const saved = await api(page, 'GET', `/api/clients/${id}`);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      name,
      billing_email: 'accounts@e2e-client.test',
      status: 'active',
      address: { line1: '1 Test Street', postcode: 'LS1 4AB' },
    });
  });

  it('edits the phone, then finds the client with the search box and, once inactive, in the Inactive tab', async () => {
    const { page } = e2e;
    expect(id).toBeGreaterThan(0);
    await signInAdmin(page);
    await page.goto(`/client/view/${id}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await waitForPath(page, `/client/edit/${id}`);
    const phone = page.getByRole('textbox', { name: 'Phone', exact: true });
    await expect(phone.inputValue()).resolves.toBe('');
    await phone.fill('0113 496 0000');
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, `/client/view/${id}`);
    // Exact: the history panel below also names the new value ("Phone: — → 0113 496 0000") once it loads.
    await page.locator('#main-content').getByText('0113 496 0000', { exact: true }).waitFor();
    expect((await api(page, 'GET', `/api/clients/${id}`)).body.data.phone).toBe('0113 496 0000');

    // The list's search box finds it (and only it) by part of its name.
    await page.goto('/client/client-list');
    await searchList(page, 'clients', name.slice(4));
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(1);
    await rowsWith(page, name).getByText('0113 496 0000').waitFor();

    // Not in the Inactive tab while active...
    await page.goto('/client/client-list/Inactive-Client');
    await page.getByRole('tab', { name: 'Inactive', selected: true }).waitFor();
    await searchList(page, 'clients', name);
    await expect.poll(() => rowsWith(page, name).count()).toBe(0);

    // ...and there once set inactive.
    await page.goto(`/client/edit/${id}`);
    await selectChoice(page, 'Status', 'Inactive');
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, `/client/view/${id}`);
    await page.locator('#main-content').getByText('Inactive', { exact: true }).waitFor();
    await page.goto('/client/client-list/Inactive-Client');
    await searchList(page, 'clients', name);
    await rowsWith(page, name).getByText('Inactive').waitFor();
    // A row opens the show view.
    await rowsWith(page, name).getByText(name).click();
    await waitForPath(page, `/client/view/${id}`);
  });

  it('deletes the client from its show page after confirming, and the list no longer has it', async () => {
    const { page } = e2e;
    expect(id).toBeGreaterThan(0);
    await signInAdmin(page);
    await page.goto(`/client/view/${id}`);
    await page.locator('#main-content').getByText(name, { exact: true }).waitFor();
    await deleteFromShow(page);
    await waitForPath(page, '/client/client-list');
    await searchList(page, 'clients', name);
    await page.getByText('No Clients found using the current filters.').waitFor();
    await expect(rowsWith(page, name).count()).resolves.toBe(0);
    expect((await api(page, 'GET', `/api/clients/${id}`)).status).toBe(404);
  });
});

describe('sites', () => {
  it('creates a site for a client chosen by typing part of its name, filters the list by that client, edits and deletes it', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const suffix = uid();
    const clientName = `E2E Site Owner ${suffix}`;
    const client = await api(page, 'POST', '/api/clients', {
      name: clientName,
      billing_email: 'owner@e2e-site.test',
      status: 'active',
    });
    expect(client.status).toBe(201);
    const clientId = client.body.data.id;
    const siteName = `E2E Site ${suffix}`;
    try {
      await page.goto('/site/create');
      const form = page.locator('form');
      await form.getByLabel('Site name').fill(siteName);
      await chooseReference(form, page, 'Client', `Owner ${suffix}`, clientName);
      await form.getByLabel('Address line 1').fill('2 Site Road');
      await form.getByLabel('Postcode').fill('LS2 7AA');
      await form.getByLabel('Business unit').fill('North');
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, /^\/site\/site-profile\/\d+$/);
      const siteId = idInPath(page);
      const main = page.locator('#main-content');
      await main.getByText(siteName, { exact: true }).waitFor();
      await main.getByRole('link', { name: clientName }).waitFor();
      expect((await api(page, 'GET', `/api/sites/${siteId}`)).body.data).toMatchObject({
        name: siteName,
        client_id: clientId,
        business_unit: 'North',
      });

      // The site list filtered by the client (Add filter → Client) shows just this site.
      await page.goto('/site/siteLists');
      await page.locator('table tbody tr').first().waitFor();
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Client' }).click();
      await chooseReference(page, page, 'Client', `Owner ${suffix}`, clientName);
      await page.waitForURL((u) => JSON.parse(u.searchParams.get('filter') ?? '{}').client_id === clientId);
      await expect.poll(() => page.locator('table tbody tr').count()).toBe(1);
      await rowsWith(page, siteName).waitFor();

      // Edit from the show view (reached by clicking the row).
      await rowsWith(page, siteName).getByText(siteName).click();
      await waitForPath(page, `/site/site-profile/${siteId}`);
      await page.getByRole('link', { name: 'Edit' }).click();
      await waitForPath(page, `/site/edit/${siteId}`);
      await page.getByLabel('Site contact').fill('Dana Site');
      await page.getByLabel('Business unit').fill('South');
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, `/site/site-profile/${siteId}`);
      // In the record's fields (the history panel below names the change too).
      const fields = main.locator('.engine-show-fields');
      await fields.getByText('Dana Site', { exact: true }).waitFor();
      await fields.getByText('South', { exact: true }).waitFor();
      expect((await api(page, 'GET', `/api/sites/${siteId}`)).body.data).toMatchObject({
        contact_name: 'Dana Site',
        business_unit: 'South',
      });

      await deleteFromShow(page);
      await waitForPath(page, '/site/siteLists');
      await searchList(page, 'sites', siteName);
      await expect.poll(() => rowsWith(page, siteName).count()).toBe(0);
      expect((await api(page, 'GET', `/api/sites/${siteId}`)).status).toBe(404);
    } finally {
      await api(page, 'DELETE', `/api/clients/${clientId}`);
    }
  });
});

describe('staff (candidates)', () => {
  const first = 'Efe';
  const last = `Tester-${uid()}`;
  const email = `${last.toLowerCase()}@e2e-staff.test`;
  let id = 0;

  it('creates a staff member: date of birth typed (an impossible date refused), job role by autocomplete, "Available from" picked by mouse on a Monday-first calendar', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const roles = await api(page, 'GET', '/api/job_roles?per_page=1&sort=name&order=asc');
    const role: string = roles.body.data[0].name;

    await page.goto('/staffs/create');
    const form = page.locator('form');
    await form.getByLabel('First name').fill(first);
    await form.getByLabel('Last name').fill(last);
    await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await chooseReference(form, page, 'Job role', role.slice(0, 4), role);

    // A typed date that does not exist is refused with the engine's message, and nothing is saved.
    const posts: string[] = [];
    page.on(
      'request',
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/candidates' && posts.push(r.url()),
    );
    await typeDate(page, 'Date of birth', '2000-02-31');
    await page.getByRole('button', { name: 'Save' }).click();
    await controlOf(page, dateField(page, 'Date of birth')).getByText('Enter a date as yyyy-MM-dd').waitFor();
    expect(path(page)).toBe('/staffs/create');
    expect(posts).toEqual([]);

    // A real one, typed as yyyy-MM-dd, replaces it.
    await typeDate(page, 'Date of birth', '1990-05-17');
    await expect(page.locator('input[name="date_of_birth"]').inputValue()).resolves.toBe('1990-05-17');
    await expect
      .poll(() => controlOf(page, dateField(page, 'Date of birth')).getByText('Enter a date as yyyy-MM-dd').count())
      .toBe(0);

    // The date of birth's calendar is closed first (Escape), so the only calendar on the page is the next field's: on a
    // busy machine the one left by a click can still be fading out when the next one is drawn.
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // "Available from" by mouse: focusing the field opens the calendar, weeks start on Monday.
    await dateField(page, 'Available from').getByRole('spinbutton', { name: 'Day' }).click();
    const calendar = page.getByRole('dialog');
    const grid = calendar.getByRole('grid');
    await grid.waitFor();
    const weekdays = await grid.getByRole('columnheader').allTextContents();
    expect(weekdays).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    const header = calendar.locator('.MuiPickersCalendarHeader-label');
    const before = await header.textContent();
    await calendar.getByRole('button', { name: 'Next month' }).click();
    await expect.poll(() => header.textContent(), { timeout: 10_000 }).not.toBe(before);
    const shown = parse((await header.textContent())!, 'LLLL yyyy', new Date());
    const chosen = new Date(shown.getFullYear(), shown.getMonth(), 15);
    // While the months slide, the grid holds the days of both.
    const day15 = calendar
      .getByRole('grid', { name: format(shown, 'LLLL yyyy') })
      .getByRole('gridcell', { name: '15', exact: true });
    await expect.poll(() => day15.count(), { timeout: 10_000 }).toBe(1);
    await day15.click();
    const expected = format(chosen, 'yyyy-MM-dd');
    await expect.poll(() => page.locator('input[name="start_date"]').inputValue()).toBe(expected);
    await expect
      .poll(() => dateField(page, 'Available from').getByRole('spinbutton', { name: 'Day' }).textContent())
      .toBe('15');
    // Choosing the day (the last view) closes the calendar, and it stays closed.
    await calendar.waitFor({ state: 'hidden' });
    // Two frames painted after it closed: a calendar reopened by the focus coming back to the field would be drawn.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await calendar.count()).toBe(0);

    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, /^\/staffs\/\d+\/overview$/);
    id = numberInPath(page);
    expect(posts).toHaveLength(1);
    const main = page.locator('#main-content');
    await main.getByText(first, { exact: true }).waitFor();
    await main.getByText('17 May 1990', { exact: true }).waitFor();
    await main.getByText(format(chosen, 'd MMM yyyy'), { exact: true }).waitFor();
    await main.getByRole('link', { name: role }).waitFor();
    const saved = (await api(page, 'GET', `/api/candidates/${id}`)).body.data;
    expect(saved).toMatchObject({
      first_name: first,
      last_name: last,
      email,
      date_of_birth: '1990-05-17',
      start_date: expected,
      status: 'pending',
      activated: false,
    });
  });

  it('approves and activates the staff member from the profile, finds them in the Active tab, then deletes them', async () => {
    const { page } = e2e;
    expect(id).toBeGreaterThan(0);
    await signInAdmin(page);
    await page.goto(`/staffs/${id}`);
    await waitForPath(page, `/staffs/${id}/overview`);
    const main = page.locator('#main-content');
    await main.getByText(last).first().waitFor();
    // Not yet approved: Activate is offered disabled, saying why.
    // exact: the profile header offers Deactivate beside it.
    const activate = main.getByRole('button', { name: 'Activate', exact: true });
    expect(await activate.isDisabled()).toBe(true);
    expect(await activate.getAttribute('aria-describedby')).toBeTruthy();
    await main.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved', { exact: true }).first().waitFor();
    // A new staff member holds no documents: an admin activates them only with a reason, kept in the history;
    // the reason is asked for once the server says it is needed, with why.
    await activate.click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText(/is not compliant\. Missing:/)
      .first()
      .waitFor();
    await dialog.getByLabel(/Reason to activate/).fill('Documents promised for Monday; agreed with the manager');
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await expect.poll(() => main.getByRole('button', { name: 'Deactivate' }).isEnabled()).toBe(true);
    expect((await api(page, 'GET', `/api/candidates/${id}`)).body.data).toMatchObject({
      status: 'approved',
      activated: true,
    });

    await page.goto('/staffs/activeStaff');
    await page.getByRole('tab', { name: 'Active', selected: true }).waitFor();
    await searchList(page, 'candidates', last);
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(1);
    await rowsWith(page, last).waitFor();

    await rowsWith(page, last).getByText(last, { exact: true }).click();
    await waitForPath(page, `/staffs/${id}/overview`);
    await deleteFromShow(page);
    await waitForPath(page, /^\/(staff\/staff-list|staffs\/allStaffs)$/);
    await searchList(page, 'candidates', last);
    await expect.poll(() => rowsWith(page, last).count()).toBe(0);
    expect((await api(page, 'GET', `/api/candidates/${id}`)).status).toBe(404);
  });
});

describe('custom staff fields', () => {
  it('a required staff detail field made in settings appears on the staff form, is required there, and its value shows on the staff member', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const suffix = uid();
    const label = `Shoe size ${suffix}`;
    const key = `shoe_size_${suffix}`;
    let fieldId = 0;
    let staffId = 0;
    try {
      await page.goto('/appsetting/staff-detail-field/create');
      const form = page.locator('form');
      await form.getByRole('textbox', { name: 'Label', exact: true }).fill(label);
      await form.getByRole('textbox', { name: 'Key', exact: true }).fill(key);
      await selectChoice(page, 'Type', 'Text');
      await form.getByRole('switch', { name: 'Required' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, /^\/appsetting\/staff-detail-field\/\d+\/show$/);
      fieldId = numberInPath(page);
      expect((await api(page, 'GET', `/api/staff_detail_fields/${fieldId}`)).body.data).toMatchObject({
        label,
        key,
        field_type: 'text',
        required: true,
      });

      await page.goto('/staffs/create');
      const staffForm = page.locator('form');
      await staffForm.getByRole('heading', { name: 'Additional details' }).waitFor();
      const shoe = page.getByRole('textbox', { name: label, exact: true });
      await shoe.waitFor();
      const last = `Shoes-${suffix}`;
      await staffForm.getByLabel('First name').fill('Cus');
      await staffForm.getByLabel('Last name').fill(last);
      await staffForm
        .getByRole('textbox', { name: 'E-mail', exact: true })
        .fill(`${last.toLowerCase()}@e2e-staff.test`);
      await page.getByRole('button', { name: 'Save' }).click();
      await controlOf(page, shoe).getByText('Required', { exact: true }).waitFor();
      expect(path(page)).toBe('/staffs/create');

      await shoe.fill('UK 9');
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, /^\/staffs\/\d+\/overview$/);
      staffId = numberInPath(page);
      const main = page.locator('#main-content');
      await main.getByText(label, { exact: true }).waitFor();
      await main.getByText('UK 9', { exact: true }).waitFor();
      expect((await api(page, 'GET', `/api/candidates/${staffId}`)).body.data.custom_fields).toMatchObject({
        [key]: 'UK 9',
      });

      // The definition goes away through its own screen.
      await page.goto(`/appsetting/staff-detail-field/${fieldId}/show`);
      await page.locator('#main-content').getByText(label, { exact: true }).first().waitFor();
      await deleteFromShow(page);
      await waitForPath(page, '/appsetting/staff-detail-field');
      expect((await api(page, 'GET', `/api/staff_detail_fields/${fieldId}`)).status).toBe(404);
      fieldId = 0;
    } finally {
      // A required field left behind would break every later staff form of this file.
      if (fieldId) await api(page, 'DELETE', `/api/staff_detail_fields/${fieldId}`);
      if (staffId) await api(page, 'DELETE', `/api/candidates/${staffId}`);
    }
  });
});
