import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { at, demoIds, monday, timesheetKit, type DemoIds } from './timesheetKit';
import { addDaysToDate, agencyToday, formatDisplayDate } from '../../core/domain/time/agencyTime';
import { remindOverdueInvoices } from '../../server/services/invoiceReminders';
import { JobEngine } from '../../server/jobs/engineContext';
import { pdfTextOf } from '../pdfText';

// Issue 32's settings: the agency's invoice settings (/appsetting/invoicesetting) with its series moved forward only
// and used by issuing; the concession's inputs (the election, a role's concession, a site's care type) deciding each
// generated line's VAT; a client requiring PO numbers; overdue reminders on a clock the test sets.
let t: TestApp;
let admin: string;
let consultant: string;
let ids: DemoIds;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant] = await Promise.all(['admin', 'consultant'].map((w) => loginAs(t.app, w as 'admin')));
  ids = await demoIds(t);
  // The first file of a run builds the demo database: minutes on a loaded machine.
}, 600_000);
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const settings = async () => ok(await call(t.app, admin, 'GET', '/api/invoice_settings'));
const save = (body: Record<string, unknown>, token = admin) => call(t.app, token, 'PUT', '/api/invoice_settings', body);
const today = () => agencyToday('Europe/London');

/** A draft of client A with one standard line, issued: answers the invoice as read back. */
async function issued() {
  const inv = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId }), 201);
  await ok(
    await call(t.app, admin, 'POST', '/api/invoice_lines', {
      invoice_id: inv.id,
      work_date: '2030-01-07',
      description: 'Care assistant, 7 Jan',
      quantity: 8,
      unit_price: 2000,
    }),
    201,
  );
  await ok(await call(t.app, admin, 'POST', `/api/invoices/${inv.id}/actions/issue`, {}));
  return ok(await call(t.app, admin, 'GET', `/api/invoices/${inv.id}`));
}

describe('the invoice settings', () => {
  it('answer what is saved with the series as they are, and are read by consultants, changed by admins', async () => {
    const s = await ok(await call(t.app, consultant, 'GET', '/api/invoice_settings'));
    // The demo's agency elected the concession when the demo's story began; the rest are the defaults.
    expect(s).toMatchObject({
      nursing_concession_from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      default_payment_terms_days: 30,
      default_template: 'template1',
      reminder_days: '7, 14, 30',
      invoice_prefix: 'INV-',
      credit_note_prefix: 'CN-',
    });
    expect(s.invoice_next_number).toBeGreaterThanOrEqual(1);
    expect((await save({ footer: 'x' }, consultant)).statusCode).toBe(403);
  });

  it('refuse bad bank details, schedules and backdated elections in words next to each field, saving nothing', async () => {
    const before = (await settings()).version;
    const res = await save({
      bank_account_name: 'Demo Agency Ltd',
      bank_sort_code: '12-34-5',
      bank_account_number: '1234567',
      reminder_days: '14, 7',
      default_template: 'template3',
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors).toMatchObject({
      bank_sort_code: 'Enter a sort code such as 12-34-56',
      bank_account_number: 'Enter the 8-digit account number',
      reminder_days: 'List each day once, from the first reminder to the last (7, 14, 30).',
    });
    const backdated = await save({ nursing_concession_from: addDaysToDate(today(), -1) });
    expect(backdated.statusCode).toBe(422);
    expect(backdated.json().errors.nursing_concession_from).toMatch(
      /^The concession cannot be backdated: choose today \(/,
    );
    expect(errors.default_template).toBeTruthy();
    // The demo's agency gives all three: clearing two leaves a sort code alone.
    const half = await save({ bank_account_name: null, bank_account_number: null });
    expect(half.json().errors).toMatchObject({
      bank_account_name: 'Give the account name, sort code and account number together.',
      bank_account_number: 'Give the account name, sort code and account number together.',
    });
    expect((await settings()).version).toBe(before);
  });

  it('save an election from today, audited, and keep it when it has passed', async () => {
    const elected = (await settings()).nursing_concession_from;
    const saved = await ok(await save({ nursing_concession_from: today() }));
    expect(saved.nursing_concession_from).toBe(today());
    const [entry] = await t.db.query<{ changes: any }>(
      `select changes from audit_log where resource = 'invoice_settings' and record_id = $1 order by id desc limit 1`,
      [ids.merchantId],
    );
    expect(entry.changes.nursing_concession_from).toEqual({ from: elected, to: today() });
    // Made long ago (the date has passed since): other settings still save, the date unchanged.
    await fixtureWrite(t.db, 'update invoice_settings set nursing_concession_from = $2 where merchant_id = $1', [
      ids.merchantId,
      '2020-01-01',
    ]);
    const later = await ok(
      await save({ footer: 'Thank you for your business.', nursing_concession_from: '2020-01-01' }),
    );
    expect(later).toMatchObject({ nursing_concession_from: '2020-01-01', footer: 'Thank you for your business.' });
    const back = await save({ nursing_concession_from: '2019-06-01' });
    expect(back.statusCode).toBe(422);
    await ok(await save({ nursing_concession_from: null }));
  });

  it('move the next numbers forward only, in words, and issuing takes the prefix and number set', async () => {
    const s = await settings();
    const lower = await save({ invoice_next_number: s.invoice_next_number - 1 || 0 });
    expect(lower.statusCode).toBe(422);
    expect(lower.json().errors.invoice_next_number).toMatch(/can only move forward|whole number from 1/);
    if (s.invoice_next_number > 1)
      expect(lower.json().errors.invoice_next_number).toMatch(/^The next number can only move forward: INV-\d{5}/);
    const same = await save({ invoice_prefix: 'CN-' });
    expect(same.json().errors.invoice_prefix).toBe(
      'Another number series of the agency uses this prefix: choose one of its own.',
    );
    expect((await save({ credit_note_prefix: 'C N' })).json().errors.credit_note_prefix).toMatch(/^Use 1 to 10/);
    const next = s.invoice_next_number + 500;
    const saved = await ok(await save({ invoice_prefix: 'SI/', invoice_next_number: next }));
    expect(saved).toMatchObject({ invoice_prefix: 'SI/', invoice_next_number: next });
    const inv = await issued();
    expect(inv.number).toBe(`SI/${String(next).padStart(5, '0')}`);
    expect((await settings()).invoice_next_number).toBe(next + 1);
  });

  it('print the VAT number, bank details, terms and footer on the invoice it issues', async () => {
    await ok(
      await save({
        bank_account_name: 'Demo Agency Ltd',
        bank_sort_code: '12-34-56',
        bank_account_number: '12345678',
        footer: 'Registered in England 01234567.',
      }),
    );
    // The supplier's address and VAT number are the agency settings' (issue 35), printed by the same letterhead.
    const agency = await ok(
      await call(t.app, admin, 'PUT', '/api/agency_settings', {
        vat_number: 'GB123456789',
        address: { line1: '3 Quay Road', line2: 'Suite 4', city: 'Leeds', postcode: 'LS1 4AB' },
      }),
    );
    expect(agency.address).toEqual({
      line1: '3 Quay Road',
      line2: 'Suite 4',
      city: 'Leeds',
      postcode: 'LS1 4AB',
    });
    const inv = await issued();
    const words = async () =>
      pdfTextOf((await call(t.app, admin, 'GET', `/api/invoices/${inv.id}/pdf?template=template1`)).rawPayload).replace(
        /\s+/g,
        ' ',
      );
    const printed = await words();
    expect(printed).toContain('3 Quay Road, Suite 4, Leeds, LS1 4AB');
    expect(printed).toContain('VAT number GB123456789');
    expect(printed).toContain('sort code 12-34-56, account 12345678');
    expect(printed).toContain('Registered in England 01234567.');
    const days = Math.round((Date.parse(inv.due_date) - Date.parse(inv.issue_date)) / 86_400_000);
    expect(printed).toContain(`Payment terms: ${days} days from issue`);
    // The kept copy is what was issued: later settings never reach it.
    await ok(await save({ bank_account_number: '87654321', footer: 'Changed since' }));
    const after = await words();
    expect(after).toBe(printed);
    expect(after).not.toContain('87654321');
  });
});

describe('a generated line’s VAT treatment', () => {
  const kit = timesheetKit(() => ({ t, admin, ids }));
  let week = 40;
  /** A verified line of client A (its first site, the demo's role) on a Monday long past: answers its day. */
  async function verifiedDay() {
    const day = monday(++week);
    const shift = await kit.workedShift(at(day, '08:00'), at(day, '16:00'));
    const g = await ok(await kit.generate({ shift_ids: [shift] }));
    await ok(await kit.act(g.timesheets[0], 'verify', { reason: 'VAT test', all_lines: 1 }));
    return { day, shift };
  }
  /** The line the run would draft for that day's work. */
  async function previewed(day: string) {
    const p = await ok(
      await call(t.app, admin, 'POST', '/api/invoices/actions/generate', {
        mode: 'daily',
        from: day,
        to: day,
        client_ids: [ids.clientId],
        preview: true,
      }),
    );
    expect(p.invoices).toHaveLength(1);
    return p.invoices[0].lines[0] as { vat_treatment: string; vat_reason: string };
  }
  const elect = (from: string | null) =>
    fixtureWrite(
      t.db,
      `insert into invoice_settings (merchant_id, nursing_concession_from) values ($1, $2)
       on conflict (merchant_id) do update set nursing_concession_from = excluded.nursing_concession_from`,
      [ids.merchantId, from],
    );
  const role = async (vat_concession: string, name?: string) =>
    ok(await call(t.app, admin, 'PUT', `/api/job_roles/${ids.roleId}`, { vat_concession, ...(name ? { name } : {}) }));
  const site = async (care_type: string | null) =>
    ok(await call(t.app, admin, 'PUT', `/api/sites/${ids.siteId}`, { care_type }));

  it('follows the role, the site’s care type and the election by the day of the work, with the rule’s reason', async () => {
    const { day } = await verifiedDay();
    const [r] = await t.db.query<{ name: string }>('select name from job_roles where id = $1', [ids.roleId]);
    // Not elected: standard, whatever the role.
    await elect(null);
    await role('nurse');
    expect(await previewed(day)).toMatchObject({
      vat_treatment: 'standard',
      vat_reason: expect.stringMatching(/not elected/),
    });
    // Elected from the day after the work: still standard (never backdated).
    await elect(addDaysToDate(day, 1));
    expect((await previewed(day)).vat_reason).toMatch(/before the agency’s election/);
    // Elected from the day of the work: a registered nurse is exempt.
    await elect(day);
    expect(await previewed(day)).toMatchObject({
      vat_treatment: 'exempt',
      vat_reason: expect.stringMatching(/registered nurse/),
    });
    // An unsupervised auxiliary: exempt at a care home with nursing, standard at one without.
    await role('auxiliary');
    await site('care_home_nursing');
    expect((await previewed(day)).vat_treatment).toBe('exempt');
    await site('care_home');
    expect((await previewed(day)).vat_treatment).toBe('standard');
    // A dental nurse never qualifies, whatever the role says.
    await role('nurse', 'Dental nurse (VAT test)');
    expect((await previewed(day)).vat_reason).toMatch(/never qualify/);
    await role('none', r.name);
    await site(null);
  });

  it('is kept on the drafted line, and a draft’s line can be changed with its reason kept', async () => {
    const { day } = await verifiedDay();
    await elect(day);
    await role('supervised_auxiliary');
    const made = await ok(
      await call(t.app, admin, 'POST', '/api/invoices/actions/generate', {
        mode: 'daily',
        from: day,
        to: day,
        client_ids: [ids.clientId],
      }),
    );
    const [line] = await ok(await call(t.app, admin, 'GET', `/api/invoice_lines?invoice_id=${made.invoices[0]}`));
    expect(line).toMatchObject({ vat_treatment: 'exempt', vat_reason: expect.stringMatching(/directly supervised/) });
    const changed = await ok(
      await call(t.app, admin, 'PUT', `/api/invoice_lines/${line.id}`, {
        vat_treatment: 'standard',
        vat_reason: 'Not supervised on this shift',
      }),
    );
    expect(changed).toMatchObject({ vat_treatment: 'standard', vat_reason: 'Not supervised on this shift' });
    expect(changed.vat).toBeGreaterThan(0);
    await role('none');
    await elect(null);
  });
});

describe('a client requiring PO numbers', () => {
  const kit = timesheetKit(() => ({ t, admin, ids }));
  it('gets no invoice for work without one: the preview names it, the run leaves it', async () => {
    await ok(await call(t.app, admin, 'PUT', `/api/clients/${ids.clientId}`, { po_required: true }));
    const day = monday(50);
    const without = await kit.workedShift(at(day, '08:00'), at(day, '12:00'));
    const withPo = await kit.workedShift(at(day, '13:00'), at(day, '17:00'));
    await ok(await call(t.app, admin, 'PUT', `/api/shifts/${withPo}`, { po_number: 'PO-777' }));
    const g = await ok(await kit.generate({ shift_ids: [without, withPo] }));
    await ok(await kit.act(g.timesheets[0], 'verify', { reason: 'PO test', all_lines: 2 }));
    const lines = await t.db.query<{ id: number; shift_id: number }>(
      'select id, shift_id from timesheet_lines where shift_id = any($1::int[])',
      [[without, withPo]],
    );
    const lineOf = (shift: number) => lines.find((l) => l.shift_id === shift)!.id;
    const body = { mode: 'Weekly', from: day, to: addDaysToDate(day, 6), client_ids: [ids.clientId] };
    const preview = await ok(
      await call(t.app, admin, 'POST', '/api/invoices/actions/generate', { ...body, preview: true }),
    );
    expect(preview.lacking_po).toEqual([
      expect.objectContaining({ kind: 'timesheet_line', id: lineOf(without), shift_id: without, date: day }),
    ]);
    expect(preview.invoices).toHaveLength(1);
    expect(preview.invoices[0]).toMatchObject({
      lines: [expect.objectContaining({ timesheet_line_id: lineOf(withPo) })],
    });
    const made = await ok(await call(t.app, admin, 'POST', '/api/invoices/actions/generate', body));
    const inv = await ok(await call(t.app, admin, 'GET', `/api/invoices/${made.invoices[0]}`));
    expect(inv.po_number).toBe('PO-777');
    const billed = await t.db.query('select 1 from invoice_lines where timesheet_line_id = $1', [lineOf(without)]);
    expect(billed).toEqual([]);
    await ok(await call(t.app, admin, 'PUT', `/api/clients/${ids.clientId}`, { po_required: false }));
  });
});

describe('overdue reminders', () => {
  const remind = (now: Date) => remindOverdueInvoices(t.db, new JobEngine(t.app), now);
  /** Noon (UTC) of the day `days` after the due date. */
  const onDay = (due: string, days: number) => new Date(`${addDaysToDate(due, days)}T12:00:00Z`);
  const sentFor = async (id: number) =>
    (
      await t.db.query<{ step: number }>('select step from invoice_reminders where invoice_id = $1 order by step', [id])
    ).map((r) => r.step);
  const mailsOf = (number: string) =>
    t.db.query<{ recipient: string; subject: string }>(
      `select recipient, subject from email_outbox where event = 'invoice.reminder' and subject like $1 order by id`,
      [`%${number}%`],
    );

  it('are sent only while payment reminders are on', async () => {
    await ok(await save({ reminder_days: '7, 14, 30' }));
    await ok(
      await call(t.app, admin, 'PUT', '/api/notification_payment_settings', {
        enabled: false,
        days_before_due: 3,
        days_after_due: 7,
      }),
    );
    const inv = await issued();
    await remind(onDay(inv.due_date, 40));
    expect(await sentFor(inv.id)).toEqual([]);
  });

  it('follow the schedule, one e-mail per step, never twice, the latest step only when found late', async () => {
    await ok(
      await call(t.app, admin, 'PUT', '/api/notification_payment_settings', {
        enabled: true,
        days_before_due: 3,
        days_after_due: 7,
      }),
    );
    const inv = await issued();
    const due = inv.due_date as string;
    await remind(onDay(due, -4));
    expect(await sentFor(inv.id)).toEqual([]);
    await remind(onDay(due, -3));
    await remind(onDay(due, -3));
    expect(await sentFor(inv.id)).toEqual([-3]);
    expect((await mailsOf(inv.number)).map((m) => m.subject)).toEqual([
      `Invoice ${inv.number} falls due on ${formatDisplayDate(due)}`,
    ]);
    await remind(onDay(due, 7));
    await remind(onDay(due, 8));
    // Found 40 days late: the 30-day reminder, not the 14-day one as well.
    await remind(onDay(due, 40));
    expect(await sentFor(inv.id)).toEqual([-3, 7, 30]);
    const [client] = await t.db.query<{ to: string }>(
      `select coalesce(nullif(billing_email, ''), email) as to from clients where id = $1`,
      [ids.clientId],
    );
    const overdue = { recipient: client.to, subject: `Reminder: invoice ${inv.number} is overdue` };
    expect((await mailsOf(inv.number)).slice(1)).toEqual([overdue, overdue]);
    // On the invoice's history, as the system.
    const history = await t.db.query<{ user_name: string; input: any }>(
      `select user_name, input from audit_log where subject_resource = 'invoices' and subject_id = $1
          and resource = 'invoice_reminders' order by id`,
      [inv.id],
    );
    expect(history).toEqual([
      { user_name: 'system', input: { reason: 'Reminder before the due date' } },
      { user_name: 'system', input: { reason: 'Overdue reminder, 7 days after due' } },
      { user_name: 'system', input: { reason: 'Overdue reminder, 30 days after due' } },
    ]);
  });

  it('go once when two runs (two server processes) find the same invoice due', async () => {
    const inv = await issued();
    await Promise.all([remind(onDay(inv.due_date, 15)), remind(onDay(inv.due_date, 15))]);
    expect(await sentFor(inv.id)).toEqual([14]);
  });

  it('stop once the invoice is paid', async () => {
    const inv = await issued();
    await ok(
      await call(t.app, admin, 'POST', '/api/payments', {
        client_id: ids.clientId,
        paid_on: today(),
        amount: inv.total,
        method: 'bank_transfer',
        split: [{ invoice_id: inv.id, amount: inv.total }],
      }),
      201,
    );
    await remind(onDay(inv.due_date, 10));
    expect(await sentFor(inv.id)).toEqual([]);
  });
});

describe('a run’s invoice (issue 32.8)', () => {
  const kit = timesheetKit(() => ({ t, admin, ids }));
  it('says the times of each line and takes the agency’s default layout, which its PDF and Send then use', async () => {
    const day = monday(30);
    const shift = await kit.workedShift(at(day, '08:00'), at(day, '16:00'));
    const g = await ok(await kit.generate({ shift_ids: [shift] }));
    await ok(await kit.act(g.timesheets[0], 'verify', { reason: 'Layout test', all_lines: 1 }));
    await ok(await save({ default_template: 'template2' }));
    try {
      const run = await ok(
        await call(t.app, admin, 'POST', '/api/invoices/actions/generate', {
          mode: 'daily',
          from: day,
          to: day,
          client_ids: [ids.clientId],
        }),
      );
      expect(run.invoices).toHaveLength(1);
      const id = run.invoices[0];
      expect((await ok(await call(t.app, admin, 'GET', `/api/invoices/${id}`))).template).toBe('template2');
      const lines = await ok(await call(t.app, admin, 'GET', `/api/invoice_lines?invoice_id=${id}`));
      expect(lines.map((l: { description: string }) => l.description)).toEqual([
        expect.stringMatching(new RegExp(`, ${day}, 08:00–16:00$`)),
      ]);
      await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/issue`, {}));
      const pdf = async (q: string) => {
        const res = await call(t.app, admin, 'GET', `/api/invoices/${id}/pdf${q}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.rawPayload.toString('base64');
      };
      // No ?template=: the invoice's own layout, not the first declared.
      const plain = await pdf('');
      expect(plain).toBe(await pdf('?template=template2'));
      expect(plain).not.toBe(await pdf('?template=template1'));
      // Send attaches the copy of that layout.
      await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/send`, {}));
      const [mail] = await t.db.query<{ template: string }>(
        `select d.template from email_outbox o join issued_documents d on d.id = any(o.attachments)
          where o.merchant_id = $1 and o.event = 'invoice.sent' and d.record_id = $2 and d.resource = 'invoices'`,
        [ids.merchantId, id],
      );
      expect(mail?.template).toBe('template2');
    } finally {
      await ok(await save({ default_template: 'template1' }));
    }
  });

  it('is what an invoice made by hand starts in too, unless it names its own', async () => {
    const template = async (body: Record<string, unknown>) =>
      (await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId, ...body }), 201)).template;
    expect(await template({})).toBe('template1');
    await ok(await save({ default_template: 'template2' }));
    try {
      // The create form starts from it, and a create that gives none takes it.
      expect(await ok(await call(t.app, admin, 'GET', '/api/invoices/defaults'))).toEqual({ template: 'template2' });
      expect(await template({})).toBe('template2');
      expect(await template({ template: 'template1' })).toBe('template1');
    } finally {
      await ok(await save({ default_template: 'template1' }));
    }
  });

  it('refuses to withdraw the verification of, or amend, a line an unreleased invoice line bills, in words', async () => {
    const day = monday(31);
    const shift = await kit.workedShift(at(day, '08:00'), at(day, '16:00'));
    const g = await ok(await kit.generate({ shift_ids: [shift] }));
    await ok(await kit.act(g.timesheets[0], 'verify', { reason: 'Billed line test', all_lines: 1 }));
    const run = await ok(
      await call(t.app, admin, 'POST', '/api/invoices/actions/generate', {
        mode: 'daily',
        from: day,
        to: day,
        client_ids: [ids.clientId],
      }),
    );
    const [line] = await t.db.query<{ id: number }>('select id from timesheet_lines where shift_id = $1', [shift]);
    const lineAct = (action: string, body: Record<string, unknown>) =>
      call(t.app, admin, 'POST', `/api/timesheet_lines/${line.id}/actions/${action}`, body);
    const words = `This line is billed on invoice Draft ${run.invoices[0]}: void the draft, or credit the line to re-bill it, before changing it.`;
    const withdrawn = await lineAct('withdraw_verification', { reason: 'Wrong hours' });
    expect(withdrawn.statusCode, withdrawn.body).toBeGreaterThanOrEqual(400);
    expect(withdrawn.statusCode).toBeLessThan(500);
    expect(withdrawn.body).toContain(words);
    const amended = await lineAct('amend', { actual_start: at(day, '09:00'), actual_end: at(day, '16:00'), note: 'x' });
    // A billed line is signed or verified, which amending refuses by its state already (its guard says the same);
    // its hours (8 h less the role's 30-minute unpaid break) stay as billed.
    expect(amended.statusCode, amended.body).toBe(409);
    const [still] = await t.db.query<{ status: string; paid_minutes: number }>(
      'select status, paid_minutes from timesheet_lines where id = $1',
      [line.id],
    );
    expect(still).toEqual({ status: 'verified', paid_minutes: 450 });
    // Voiding the draft releases the line: the verification can be withdrawn again.
    await ok(
      await call(t.app, admin, 'POST', `/api/invoices/${run.invoices[0]}/actions/void`, { reason: 'Wrong hours' }),
    );
    await ok(await lineAct('withdraw_verification', { reason: 'Wrong hours' }));
  });
});
