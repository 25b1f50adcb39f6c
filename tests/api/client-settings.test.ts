import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { at, demoIds, monday, PNG, timesheetKit, type DemoIds } from './timesheetKit';

// Issue 35, client settings: the agency's defaults for new clients (taken by a client created through the engine, kept
// by each client's own profile), which e-mails the client users get (the agency's default, a user set otherwise),
// honoured by the real sending paths, and each client's signing methods refused in words elsewhere.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let staff: string;
let otherAdmin: string;
let ids: DemoIds;
let helenId: number;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, staff, otherAdmin] = await Promise.all(
    (['admin', 'consultant', 'client', 'staff', 'otherAdmin'] as const).map((w) => loginAs(t.app, w)),
  );
  ids = await demoIds(t);
  [{ id: helenId }] = await t.db.query<{ id: number }>(`select id from users where email = 'client@demo.test'`);
}, 600_000);
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const settings = async (token = admin) => ok(await call(t.app, token, 'GET', '/api/client_settings'));
const save = (body: Record<string, unknown>, token = admin) => call(t.app, token, 'PUT', '/api/client_settings', body);
const newClient = async (body: Record<string, unknown> = {}) =>
  ok(
    await call(t.app, admin, 'POST', '/api/clients', {
      name: `New client ${Math.random().toString(36).slice(2, 8)}`,
      billing_email: 'accounts@new.example',
      ...body,
    }),
    201,
  );

describe('the agency’s defaults for new clients', () => {
  it('read as the demo keeps them by admins and consultants; only admins change them', async () => {
    const s = await settings(consultant);
    expect(s).toMatchObject({
      invoice_mode: 'Weekly',
      timesheet_per: 'client',
      signing_methods: ['panel', 'link', 'phone'],
      shift_request_approval: 'agency',
      default_payment_terms_days: 30,
    });
    expect(s.client_emails).toHaveLength(5);
    expect((await save({ po_required: true }, consultant)).statusCode).toBe(403);
    expect((await save({ po_required: true }, client)).statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/client_settings')).statusCode).toBe(403);
    expect((await call(t.app, staff, 'GET', '/api/client_settings')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/client_settings')).statusCode).toBe(401);
  });

  it('are taken by a client created without them, with the invoice settings’ payment terms; a given value is kept', async () => {
    const before = await settings();
    const saved = await ok(
      await save({
        version: before.version,
        invoice_mode: 'monthly',
        split_by_po: true,
        split_by_site: true,
        po_required: true,
        timesheet_per: 'site',
        signing_methods: ['panel', 'link'],
        shift_request_approval: 'automatic',
      }),
    );
    expect(saved.version).toBe(before.version + 1);
    // Payment terms live in the invoice settings: a new client takes them from there.
    const inv = await ok(await call(t.app, admin, 'GET', '/api/invoice_settings'));
    await ok(
      await call(t.app, admin, 'PUT', '/api/invoice_settings', {
        default_payment_terms_days: 21,
        version: inv.version,
      }),
    );

    const defaults = await ok(await call(t.app, admin, 'GET', '/api/clients/defaults'));
    expect(defaults).toEqual({
      payment_terms_days: 21,
      invoice_mode: 'monthly',
      split_by_po: true,
      split_by_site: true,
      po_required: true,
      timesheet_per: 'site',
      signing_methods: ['panel', 'link'],
      shift_request_approval: 'automatic',
    });
    const c = await newClient();
    expect(c).toMatchObject(defaults);
    // A value given when it is created (even the declared default) is the client's own.
    const own = await newClient({ po_required: false, timesheet_per: 'client', payment_terms_days: 60 });
    expect(own).toMatchObject({
      po_required: false,
      timesheet_per: 'client',
      payment_terms_days: 60,
      split_by_po: true,
    });

    // The client's profile overrides them, and a later change of the defaults leaves existing clients as they are.
    await ok(await call(t.app, admin, 'PUT', `/api/clients/${c.id}`, { po_required: false, version: c.version }));
    const now = await settings();
    await ok(await save({ version: now.version, po_required: false, invoice_mode: 'daily' }));
    const kept = await ok(await call(t.app, admin, 'GET', `/api/clients/${c.id}`));
    expect(kept).toMatchObject({ po_required: false, invoice_mode: 'monthly', split_by_site: true });

    // Audited as the engine writes: who changed what.
    const trail = await t.db.query<{ changes: Record<string, { from: unknown; to: unknown }>; user_name: string }>(
      `select changes, user_name from audit_log where resource = 'client_settings' and merchant_id = $1 order by id`,
      [ids.merchantId],
    );
    expect(trail.at(-1)!.changes.invoice_mode).toEqual({ from: 'monthly', to: 'daily' });
    expect(trail.at(-1)!.user_name).toBe('Alex Morgan');
  });

  it('refuse bad values in words next to each field, saving nothing', async () => {
    const before = await settings();
    const res = await save({
      version: before.version,
      invoice_mode: 'yearly',
      timesheet_per: 'ward',
      signing_methods: [],
      client_emails: ['shift.moved'],
      po_required: 'yes',
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.signing_methods).toBe(
      'Choose at least one way to sign timesheets: otherwise nobody could sign them.',
    );
    for (const f of ['invoice_mode', 'timesheet_per', 'client_emails', 'po_required']) {
      expect(typeof errors[f], f).toBe('string');
      // Words, not a message key.
      expect(errors[f], f).toMatch(/ /);
    }
    expect(await settings()).toEqual(before);
    // A stale version is refused too.
    expect((await save({ version: before.version - 1, po_required: true })).statusCode).toBe(409);
    // A client with no way to sign its timesheets is refused as well.
    const c = await newClient();
    const bad = await call(t.app, admin, 'PUT', `/api/clients/${c.id}`, { signing_methods: [] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.signing_methods).toMatch(/at least one way/);
  });

  it('are each agency’s own: another agency reads its own and never the demo’s', async () => {
    const other = await settings(otherAdmin);
    expect(other.version).toBe(0);
    expect(other.invoice_mode).toBeNull();
    const users = await ok(await call(t.app, otherAdmin, 'GET', '/api/client_settings/users'));
    expect(users.map((u: { id: number }) => u.id)).not.toContain(helenId);
    const res = await call(t.app, otherAdmin, 'PUT', `/api/client_settings/users/${helenId}`, {
      emails: { 'invoice.issued': 'off' },
    });
    expect(res.statusCode).toBe(404);
    // Another agency's new client takes that agency's defaults (none kept: the declared ones).
    const created = await ok(
      await call(t.app, otherAdmin, 'POST', '/api/clients', { name: 'Fellside', billing_email: 'a@fellside.example' }),
      201,
    );
    expect(created).toMatchObject({ po_required: false, timesheet_per: 'client', payment_terms_days: 30 });
  });
});

describe('the e-mails a client’s users get', () => {
  /** A draft of client A with one line, issued through the real issuing action; answers the invoice's id. */
  async function issue(): Promise<number> {
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
    return inv.id;
  }
  const issuedMailsTo = async (invoiceId: number) =>
    (
      await t.db.query<{ recipient: string }>(
        `select recipient from email_outbox where event = 'invoice.issued' and text ~ $1 order by id`,
        [`/client/invoice/${invoiceId}(\\D|$)`],
      )
    ).map((r) => r.recipient);

  it('lists the agency’s client users with their own choices; the demo’s David Okoro turned overdue reminders off', async () => {
    const users = await ok(await call(t.app, consultant, 'GET', '/api/client_settings/users'));
    const david = users.find((u: { email: string }) => u.email === 'client2@demo.test');
    expect(david.emails['invoice.payment_due']).toBe('off');
    expect(users.find((u: { id: number }) => u.id === helenId).emails['invoice.issued']).toBeNull();
    // Consultants read; only admins set a user's e-mails.
    const res = await call(t.app, consultant, 'PUT', `/api/client_settings/users/${helenId}`, {
      emails: { 'invoice.issued': 'off' },
    });
    expect(res.statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/client_settings/users')).statusCode).toBe(403);
  });

  it('a client user set not to get “invoice issued” gets no such e-mail when an invoice is issued; others do', async () => {
    // The agency's default sends it: Helen gets it.
    const first = await issue();
    expect(await issuedMailsTo(first)).toContain('client@demo.test');

    const off = await ok(
      await call(t.app, admin, 'PUT', `/api/client_settings/users/${helenId}`, { emails: { 'invoice.issued': 'off' } }),
    );
    expect(off.emails['invoice.issued']).toBe('off');
    const second = await issue();
    expect(await issuedMailsTo(second)).not.toContain('client@demo.test');
    // Her bell still has it: only the e-mail was turned off.
    const bell = await t.db.query(
      `select 1 from notifications where event = 'invoice.issued' and client_id = $1 and link = $2`,
      [ids.clientId, `/client/invoice/${second}`],
    );
    expect(bell.length).toBeGreaterThan(0);

    // Back to the agency's default, which now sends none: still none; the agency's default on again: she gets it.
    await ok(
      await call(t.app, admin, 'PUT', `/api/client_settings/users/${helenId}`, { emails: { 'invoice.issued': null } }),
    );
    const s = await settings();
    await ok(
      await save({ version: s.version, client_emails: s.client_emails.filter((e: string) => e !== 'invoice.issued') }),
    );
    expect(await issuedMailsTo(await issue())).not.toContain('client@demo.test');
    // Her own account reads the agency's default as hers.
    const mine = await ok(await call(t.app, client, 'GET', '/api/me/notification_preferences'));
    expect(mine.find((p: { event: string }) => p.event === 'invoice.issued').email).toBe('off');
    // Set to get it herself, whatever the default.
    await ok(
      await call(t.app, admin, 'PUT', `/api/client_settings/users/${helenId}`, { emails: { 'invoice.issued': 'now' } }),
    );
    expect(await issuedMailsTo(await issue())).toContain('client@demo.test');
    // The admin's change is in the trail, filed as the engine writes a preference.
    const [entry] = await t.db.query<{ user_name: string }>(
      `select user_name from audit_log where resource = 'notification_preferences' and merchant_id = $1 order by id desc limit 1`,
      [ids.merchantId],
    );
    expect(entry.user_name).toBe('Alex Morgan');
  });

  it('refuses an unknown e-mail or choice in words, and a user who is not a client user', async () => {
    const bad = await call(t.app, admin, 'PUT', `/api/client_settings/users/${helenId}`, {
      emails: { 'staff.registered': 'off', 'shift.filled': 'sometimes' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['emails.staff.registered']).toMatch(/^Not a client e-mail: choose among Shift filled/);
    const badChoice = await call(t.app, admin, 'PUT', `/api/client_settings/users/${helenId}`, {
      emails: { 'shift.filled': 'sometimes' },
    });
    expect(badChoice.statusCode).toBe(422);
    expect(badChoice.json().errors['emails.shift.filled']).toMatch(/ /);
    const [consultantUser] = await t.db.query<{ id: number }>(
      `select id from users where email = 'consultant@demo.test'`,
    );
    const notClient = await call(t.app, admin, 'PUT', `/api/client_settings/users/${consultantUser.id}`, {
      emails: { 'shift.filled': 'off' },
    });
    expect(notClient.statusCode).toBe(404);
  });
});

describe('a client’s signing methods', () => {
  const { workedShift, generate, act } = timesheetKit(() => ({ t, admin, ids }));

  it('refuse a signature made a way the client does not allow, in words', async () => {
    const week = monday(30);
    for (const d of [0, 1]) await workedShift(at(addDaysToDate(week, d), '08:00'), at(addDaysToDate(week, d), '16:00'));
    const tsId = (await generate({ week_start: week })).json().data.timesheets[0];
    const c = await ok(await call(t.app, admin, 'GET', `/api/clients/${ids.clientId}`));
    await ok(await call(t.app, admin, 'PUT', `/api/clients/${ids.clientId}`, { signing_methods: ['link'] }));
    expect((await act(tsId, 'submit')).statusCode).toBe(200);
    const inPanel = await act(tsId, 'approve', { signer_name: 'Helen Carter', signature: PNG }, client);
    expect(inPanel.statusCode).toBe(409);
    expect(inPanel.json().message).toBe(
      `${c.name} does not sign timesheets in the client panel: they sign by signing link.`,
    );

    // Signed in the panel only: no link is sent again, and the panel signs.
    await ok(await call(t.app, admin, 'PUT', `/api/clients/${ids.clientId}`, { signing_methods: ['panel'] }));
    const resend = await act(tsId, 'resend_link');
    expect(resend.statusCode).toBe(409);
    expect(resend.json().message).toBe(
      `${c.name} does not sign timesheets by signing link: they sign in the client panel.`,
    );
    const signed = await act(tsId, 'approve', { signer_name: 'Helen Carter', signature: PNG }, client);
    expect(signed.statusCode, signed.body).toBe(200);
    await ok(await call(t.app, admin, 'PUT', `/api/clients/${ids.clientId}`, { signing_methods: c.signing_methods }));
  });
});
