import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { toFieldErrors } from '../../server/engine/messages';
import { validateRecord } from '../../core/engine/validate';
import { declarationByName } from '../../core/resources/declarations';
import { notify } from '../../server/notifications/notify';
import { runDocumentReminders } from '../../server/notifications/documents';
import { compactNotificationCounts } from '../../server/notifications/counts';
import { sendDigests } from '../../server/notifications/digest';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';

let t: TestApp;
const tok: Record<string, string> = {};
let merchant: number;
let otherMerchant: number;
let clientA: number;
let clientUserId: number;
let adminId: number;

const agencyInbox = async (who = 'admin', query = 'page=1&per_page=10') => {
  const res = await call(t.app, tok[who], 'GET', `/api/agency_notifications?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const clientInbox = async (who = 'client', query = 'page=1&per_page=10') => {
  const res = await call(t.app, tok[who], 'GET', `/api/client_notifications?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const one = async <T = any>(sql: string, params: unknown[] = []) => (await t.db.query<any>(sql, params))[0] as T;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  for (const who of ['admin', 'consultant', 'client', 'client2', 'otherAdmin'] as const)
    tok[who] = await loginAs(t.app, who);
  merchant = (await one(`select id from merchants where company_name = 'Brightway Staffing'`)).id;
  otherMerchant = (await one(`select id from merchants where company_name = 'Northern Care Recruitment'`)).id;
  clientA = (await one(`select id from clients where name = 'Meadowbank Care Home'`)).id;
  clientUserId = (await one(`select id from users where email = 'client@demo.test'`)).id;
  adminId = (await one(`select id from users where email = 'admin@demo.test'`)).id;
});
afterAll(() => t?.close());

describe('GET agency_notifications and client_notifications', () => {
  it('answer notifications, current_page, total_count, unread_count and message; the demo has unread ones for both panels', async () => {
    const agency = await agencyInbox();
    expect(agency).toMatchObject({
      current_page: 1,
      total_count: expect.any(Number),
      unread_count: expect.any(Number),
      message: 'Notifications loaded',
    });
    expect(agency.notifications).toHaveLength(10);
    expect(agency.unread_count).toBeGreaterThan(0);
    expect(Object.keys(agency.notifications[0])).toEqual(
      expect.arrayContaining(['id', 'title', 'body', 'link', 'read', 'created_at', 'event']),
    );
    // One page holds them all (the demo's issued invoices are in the client's bell too, issue 35).
    const client = await clientInbox('client', 'page=1&per_page=100');
    expect(client.unread_count).toBeGreaterThan(0);
    expect(client.total_count).toBe(client.notifications.length);
    // Each panel sees its own audience only.
    const agencyIds = new Set(agency.notifications.map((n: any) => n.id));
    expect(client.notifications.some((n: any) => agencyIds.has(n.id))).toBe(false);
  });

  it('pages newest first with page and per_page; totals match the rows', async () => {
    const all = await agencyInbox('admin', 'page=1&per_page=100');
    expect(all.notifications).toHaveLength(all.total_count);
    expect(all.unread_count).toBe(all.notifications.filter((n: any) => !n.read).length);
    const p1 = await agencyInbox('admin', 'page=1&per_page=3');
    const p2 = await agencyInbox('admin', 'page=2&per_page=3');
    expect(p2.current_page).toBe(2);
    expect([...p1.notifications, ...p2.notifications].map((n: any) => n.id)).toEqual(
      all.notifications.slice(0, 6).map((n: any) => n.id),
    );
    const times = all.notifications.map((n: any) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('refuses a bad page with 422, never 500', async () => {
    for (const q of ['page=0', 'per_page=0', 'per_page=101', 'page=x']) {
      const res = await call(t.app, tok.admin, 'GET', `/api/agency_notifications?${q}`);
      expect(res.statusCode, q).toBe(422);
    }
  });

  it('keeps panels apart: a client user cannot read the agency inbox, an agency user not the client one', async () => {
    expect((await call(t.app, tok.client, 'GET', '/api/agency_notifications')).statusCode).toBe(403);
    expect((await call(t.app, tok.admin, 'GET', '/api/client_notifications')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/client_notifications')).statusCode).toBe(401);
  });
});

describe('notify()', () => {
  it('writes one notification per audience the settings name: the agency, the client (not another client), and named users', async () => {
    const before = {
      agency: await agencyInbox(),
      consultant: await agencyInbox('consultant'),
      client: await clientInbox(),
      client2: await clientInbox('client2'),
      other: await agencyInbox('otherAdmin'),
    };
    await t.db.transaction((tx) =>
      notify(tx, {
        merchantId: merchant,
        event: 'shift.cancelled',
        title: 'Probe shift cancelled',
        body: 'The probe shift was cancelled.',
        link: '/shift-list',
        clientLink: '/client/shift/deleted-shift',
        audience: { agency: true, clientId: clientA },
        data: { shift_date: '1 Jan 2030', site_name: 'Probe House' },
      }),
    );
    const agency = await agencyInbox();
    expect(agency.total_count).toBe(before.agency.total_count + 1);
    expect(agency.unread_count).toBe(before.agency.unread_count + 1);
    expect(agency.notifications[0]).toMatchObject({
      title: 'Probe shift cancelled',
      link: '/shift-list',
      read: false,
      event: 'shift.cancelled',
    });
    // The agency's users share the agency's inbox.
    expect((await agencyInbox('consultant')).notifications[0].title).toBe('Probe shift cancelled');
    const client = await clientInbox();
    expect(client.unread_count).toBe(before.client.unread_count + 1);
    expect(client.notifications[0]).toMatchObject({
      title: 'Probe shift cancelled',
      link: '/client/shift/deleted-shift',
    });
    expect((await clientInbox('client2')).total_count).toBe(before.client2.total_count);
    expect((await agencyInbox('otherAdmin')).total_count).toBe(before.other.total_count);
  });

  it('a notification for named users reaches only them', async () => {
    await t.db.transaction((tx) =>
      notify(tx, {
        merchantId: merchant,
        event: 'note.reminder',
        title: 'Only for Alex',
        body: 'Your note.',
        audience: { userIds: [adminId] },
      }),
    );
    expect((await agencyInbox()).notifications[0].title).toBe('Only for Alex');
    expect((await agencyInbox('consultant')).notifications.map((n: any) => n.title)).not.toContain('Only for Alex');
    await t.db.transaction((tx) =>
      notify(tx, {
        merchantId: merchant,
        event: 'note.reminder',
        title: 'Only for Helen',
        body: 'Your note.',
        audience: { userIds: [clientUserId] },
      }),
    );
    expect((await clientInbox()).notifications[0].title).toBe('Only for Helen');
  });

  it('notifies once per dedupe key, and nothing at all when the transaction rolls back', async () => {
    const before = (await agencyInbox()).total_count;
    const e = {
      merchantId: merchant,
      event: 'document.due',
      title: 'Dedupe probe',
      body: 'Once.',
      audience: { agency: true },
      dedupeKey: 'probe:once',
    };
    await t.db.transaction((tx) => notify(tx, e));
    await t.db.transaction((tx) => notify(tx, e));
    expect((await agencyInbox()).total_count).toBe(before + 1);
    await t.db
      .transaction(async (tx) => {
        await notify(tx, { ...e, dedupeKey: 'probe:rolled-back', title: 'Rolled back' });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await agencyInbox()).total_count).toBe(before + 1);
    expect(
      await one(`select count(*)::int as n from notification_dedupe where dedupe_key = 'probe:rolled-back'`),
    ).toEqual({ n: 0 });
  });

  it('queues the e-mails the settings ask for, in the agency template, to the audience’s people', async () => {
    const res = await call(t.app, tok.admin, 'PUT', '/api/notification_templates/shift.filled', {
      subject: '%{agency_name}: %{staff_name} booked on %{shift_date}',
      body: 'Dear client,\n\n%{staff_name} is booked.\n\n<b>not markup</b>',
    });
    expect(res.statusCode).toBe(200);
    await t.db.transaction((tx) =>
      notify(tx, {
        merchantId: merchant,
        event: 'shift.filled',
        title: 'Shift filled',
        body: 'Booked.',
        link: '/shift-list',
        audience: { agency: true, clientId: clientA },
        data: { staff_name: 'Probe Person', shift_date: '2 Feb 2030' },
      }),
    );
    const mails = await t.db.query<any>(
      `select recipient, subject, text, html, status, event from email_outbox where event = 'shift.filled' and subject like '%Probe Person%'`,
    );
    const to = mails.map((m) => m.recipient).sort();
    // shift.filled by default: the agency's admins and the client's users (no consultants), never another client's.
    expect(to).toContain('admin@demo.test');
    expect(to).toContain('client@demo.test');
    expect(to).not.toContain('consultant@demo.test');
    expect(to).not.toContain('client2@demo.test');
    for (const m of mails) {
      expect(m.subject).toBe('Brightway Staffing: Probe Person booked on 2 Feb 2030');
      expect(m.status).toBe('queued');
      expect(m.text).toContain('Probe Person is booked.');
      expect(m.html).toContain('Brightway Staffing');
      expect(m.html).toContain('&lt;b&gt;not markup&lt;/b&gt;');
    }
    expect(
      (await call(t.app, tok.admin, 'DELETE', '/api/notification_templates/shift.filled')).json().data.custom_template,
    ).toBe(false);
  });

  it('follows the settings: no in-app alert when it is off; SMS and push are recorded by the bundled driver', async () => {
    const put = await call(t.app, tok.admin, 'PUT', '/api/notification_settings/staff.registered', {
      channels: ['email', 'push'],
      recipients: ['agency_admins'],
    });
    expect(put.statusCode).toBe(200);
    const before = (await agencyInbox()).total_count;
    await t.db.transaction((tx) =>
      notify(tx, {
        merchantId: merchant,
        event: 'staff.registered',
        title: 'Silent in-app',
        body: 'x',
        audience: { agency: true },
      }),
    );
    expect((await agencyInbox()).total_count).toBe(before);
    const push = await call(t.app, tok.admin, 'GET', '/api/message_outbox?channel=push');
    expect(push.json()).toMatchObject({ records_only: true });
    expect(push.json().data[0]).toMatchObject({
      channel: 'push',
      status: 'recorded',
      driver: 'recording',
      recipient: `user:${adminId}`,
    });
    await call(t.app, tok.admin, 'PUT', '/api/notification_settings/staff.registered', {
      channels: ['email', 'alert'],
      recipients: ['agency_admins'],
    });
  });
});

describe('PUT merchant_notification_read_all and client_notification_read_all', () => {
  it('an empty body marks the caller’s inbox read (200), and nobody else’s', async () => {
    await t.db.query(`insert into notifications (merchant_id, title, read) values ($1, 'Other agency unread', false)`, [
      otherMerchant,
    ]);
    const otherBefore = (await agencyInbox('otherAdmin')).unread_count;
    const clientBefore = (await clientInbox()).unread_count;
    expect(clientBefore).toBeGreaterThan(0);
    const res = await call(t.app, tok.admin, 'PUT', '/api/merchant_notification_read_all');
    expect(res.statusCode).toBe(200);
    const after = await agencyInbox('admin', 'page=1&per_page=100');
    expect(after.unread_count).toBe(0);
    expect(after.notifications.every((n: any) => n.read)).toBe(true);
    expect((await clientInbox()).unread_count).toBe(clientBefore);
    expect((await agencyInbox('otherAdmin')).unread_count).toBe(otherBefore);

    expect((await call(t.app, tok.client, 'PUT', '/api/client_notification_read_all')).statusCode).toBe(200);
    expect((await clientInbox()).unread_count).toBe(0);
    expect((await call(t.app, tok.client, 'PUT', '/api/merchant_notification_read_all')).statusCode).toBe(403);
  });

  it('counts stay right after the worker folds the count deltas', async () => {
    const before = await agencyInbox();
    await compactNotificationCounts(t.db);
    const after = await agencyInbox();
    expect({ total: after.total_count, unread: after.unread_count }).toEqual({
      total: before.total_count,
      unread: before.unread_count,
    });
    const rows = await t.db.query<any>(
      'select count(*)::int as n from notification_counts where merchant_id = $1 group by client_id, candidate_id, user_id having count(*) > 1',
      [merchant],
    );
    expect(rows).toEqual([]);
  });
});

describe('events', () => {
  it('a staff member created through the engine notifies the agency (staff.registered) and queues its e-mail', async () => {
    const email = `registered-${Date.now()}@probe.test`;
    const res = await call(t.app, tok.consultant, 'POST', '/api/candidates', {
      first_name: 'Rena',
      last_name: 'Registered',
      email,
    });
    expect(res.statusCode).toBe(201);
    const top = (await agencyInbox()).notifications[0];
    expect(top).toMatchObject({
      event: 'staff.registered',
      title: 'New staff member registered',
      link: `/staffs/${res.json().data.id}`,
      read: false,
    });
    expect(top.body).toContain('Rena Registered');
    const mail = await one(
      `select recipient, subject from email_outbox where event = 'staff.registered' order by id desc limit 1`,
    );
    expect(mail).toEqual({ recipient: 'admin@demo.test', subject: 'New staff member: Rena Registered' });
  });

  it('the daily document job notifies each document and threshold once, in the agency’s time zone', async () => {
    const today = agencyToday('Europe/London');
    const candidate = await one(
      `select id, first_name || ' ' || last_name as name from candidates where merchant_id = $1 and deleted_at is null order by id desc limit 1`,
      [merchant],
    );
    const category = await one(`select id, name from document_categories where merchant_id = $1 order by id limit 1`, [
      merchant,
    ]);
    await fixtureWrite(
      t.db,
      'update candidate_documents set current = false where merchant_id = $1 and candidate_id = $2',
      [merchant, candidate.id],
    );
    const [{ id: docId }] = await fixtureWrite<{ id: number }>(
      t.db,
      `insert into candidate_documents (merchant_id, candidate_id, document_category_id, file, status, expiry_date) values ($1, $2, $3, 'probe.pdf', 'verified', $4) returning id`,
      [merchant, candidate.id, category.id, addDaysToDate(today, 31)],
    );
    // Just after midnight in London tomorrow: 30 days left.
    const at = (date: string) => new Date(zonedDateTimeToInstant(date, '00:05', 'Europe/London').getTime());
    const keys = async () =>
      (
        await t.db.query<{ dedupe_key: string }>(
          `select dedupe_key from notification_dedupe where merchant_id = $1 and dedupe_key like $2 order by created_at`,
          [merchant, `document:${docId}:%`],
        )
      ).map((r) => r.dedupe_key);
    await runDocumentReminders(t.db, at(addDaysToDate(today, 1)));
    expect(await keys()).toEqual([`document:${docId}:30`]);
    // The job told of the agency's other documents as well (the demo's): this one is among them.
    const about = async () =>
      (await agencyInbox('admin', 'page=1&per_page=100')).notifications
        .filter((n: any) => n.link === `/staffs/${candidate.id}` && n.body.includes(category.name))
        .map((n: any) => n.title);
    expect(await about()).toEqual([`${category.name} expires in 30 days`]);
    // Again the same day, and the next day (still the 30-day threshold): nothing new.
    await runDocumentReminders(t.db, at(addDaysToDate(today, 1)));
    await runDocumentReminders(t.db, at(addDaysToDate(today, 2)));
    expect(await keys()).toEqual([`document:${docId}:30`]);
    await runDocumentReminders(t.db, at(addDaysToDate(today, 25)));
    expect(await keys()).toEqual([`document:${docId}:30`, `document:${docId}:7`]);
    await runDocumentReminders(t.db, at(addDaysToDate(today, 33)));
    expect(await keys()).toEqual([`document:${docId}:30`, `document:${docId}:7`, `document:${docId}:expired`]);
    expect(await about()).toEqual([
      `${category.name} expired`,
      `${category.name} expires in 7 days`,
      `${category.name} expires in 30 days`,
    ]);
  });
});

describe('notification settings and templates', () => {
  it('lists every event with its channels, recipients and template, and says SMS and push are only recorded', async () => {
    const res = await call(t.app, tok.consultant, 'GET', '/api/notification_settings');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.events.map((e: any) => e.key)).toEqual(
      expect.arrayContaining([
        'document.due',
        'document.expired',
        'staff.registered',
        'shift.requested',
        'shift.filled',
        'shift.cancelled',
        'message.received',
      ]),
    );
    expect(body.drivers).toEqual({ sms: { records_only: true }, push: { records_only: true } });
    expect(body.payment_reminders).toMatchObject({ enabled: false });
  });

  it("answers a bad setting in its declaration's own words, nothing of the route's (issue 31.8)", async () => {
    // What the declarations say of these values, put in words as every engine write is.
    const declared = (name: string, record: Record<string, unknown>) =>
      toFieldErrors(validateRecord(declarationByName.get(name)!, record));
    const long = 'x'.repeat(201);
    const tpl = await call(t.app, tok.admin, 'PUT', '/api/notification_templates/shift.filled', {
      subject: long,
      body: 'Hi %{nobody}',
    });
    expect(tpl.statusCode).toBe(422);
    expect(tpl.json().errors).toEqual(
      declared('notification_templates', { event: 'shift.filled', subject: long, body: 'Hi %{nobody}' }),
    );
    expect(tpl.json().errors.subject).toBe('Must be 200 characters or less');
    const pay = await call(t.app, tok.admin, 'PUT', '/api/notification_payment_settings', {
      enabled: true,
      days_before_due: 61,
      days_after_due: 2.5,
    });
    expect(pay.json().errors).toEqual(
      declared('notification_payment_settings', { enabled: true, days_before_due: 61, days_after_due: 2.5 }),
    );
    expect(pay.json().errors.days_before_due).toBe('Must be 60 or less');
    const settings = await call(t.app, tok.admin, 'PUT', '/api/notification_settings/shift.filled', {
      channels: ['fax'],
      recipients: ['everyone'],
    });
    expect(settings.json().errors).toEqual(
      declared('notification_settings', { event: 'shift.filled', channels: ['fax'], recipients: ['everyone'] }),
    );
  });

  it('refuses bad settings and templates with 422 naming the field; consultants cannot change them', async () => {
    const bad = await call(t.app, tok.admin, 'PUT', '/api/notification_settings/shift.filled', {
      channels: ['email', 'fax'],
      recipients: [],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('channels');
    const none = await call(t.app, tok.admin, 'PUT', '/api/notification_settings/shift.filled', {
      channels: ['email'],
      recipients: [],
    });
    expect(none.json().errors.recipients).toMatch(/at least one recipient/);
    const tpl = await call(t.app, tok.admin, 'PUT', '/api/notification_templates/shift.filled', {
      subject: 'Hi %{nobody}',
      body: '',
    });
    expect(tpl.statusCode).toBe(422);
    expect(tpl.json().errors.subject).toMatch(/Unknown placeholder: %\{nobody\}/);
    expect(tpl.json().errors.body).toBe('Required');
    expect(
      (await call(t.app, tok.admin, 'PUT', '/api/notification_settings/no.such.event', { channels: [] })).statusCode,
    ).toBe(404);
    expect(
      (await call(t.app, tok.consultant, 'PUT', '/api/notification_settings/shift.filled', { channels: [] }))
        .statusCode,
    ).toBe(403);
    const pay = await call(t.app, tok.admin, 'PUT', '/api/notification_payment_settings', {
      enabled: 'yes',
      days_before_due: -1,
      days_after_due: 7,
    });
    expect(pay.statusCode).toBe(422);
    expect(Object.keys(pay.json().errors).sort()).toEqual(['days_before_due', 'enabled']);
    expect(
      (
        await call(t.app, tok.admin, 'PUT', '/api/notification_payment_settings', {
          enabled: true,
          days_before_due: 5,
          days_after_due: 10,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call(t.app, tok.admin, 'GET', '/api/notification_settings')).json().payment_reminders).toEqual({
      enabled: true,
      days_before_due: 5,
      days_after_due: 10,
      version: 1,
    });
  });
});

describe('the e-mail report (/api/email_outbox)', () => {
  it('lists every e-mail with recipient, event, status and attempts; filters by status; exports; client users are refused', async () => {
    const all = await call(t.app, tok.consultant, 'GET', '/api/email_outbox?per_page=100');
    expect(all.statusCode).toBe(200);
    const rows = all.json().data;
    expect(rows.length).toBeGreaterThan(3);
    expect(rows[0]).toMatchObject({
      recipient: expect.any(String),
      event: expect.any(String),
      status: expect.any(String),
      attempts: expect.any(Number),
    });
    const failed = (await call(t.app, tok.admin, 'GET', '/api/email_outbox?status=failed')).json().data;
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r: any) => r.status === 'failed')).toBe(true);
    const search = (await call(t.app, tok.admin, 'GET', '/api/email_outbox?q=client%40demo')).json().data;
    expect(search.every((r: any) => r.recipient === 'client@demo.test')).toBe(true);
    expect((await call(t.app, tok.admin, 'GET', '/api/email_outbox?export=1')).statusCode).toBe(200);
    expect((await call(t.app, tok.client, 'GET', '/api/email_outbox')).statusCode).toBe(403);
    expect(
      (await call(t.app, tok.admin, 'PUT', `/api/email_outbox/${rows[0].id}`, { status: 'sent' })).statusCode,
    ).toBe(403);
    expect((await call(t.app, tok.otherAdmin, 'GET', `/api/email_outbox/${rows[0].id}`)).statusCode).toBe(404);
  });
});

describe("each user's own choice of what reaches them (issue 30.19)", () => {
  const mine = async (who: string) => {
    const res = await call(t.app, tok[who], 'GET', '/api/me/notification_preferences');
    expect(res.statusCode).toBe(200);
    return res.json().data as { event: string; in_app: boolean; email: string; version: number }[];
  };
  const choose = (who: string, event: string, body: Record<string, unknown>) =>
    call(t.app, tok[who], 'PUT', `/api/me/notification_preferences/${event}`, body);
  const filled = (title: string) =>
    t.db.transaction((tx) =>
      notify(tx, {
        merchantId: merchant,
        event: 'shift.filled',
        title,
        body: 'Booked.',
        link: '/shift-list',
        audience: { agency: true, clientId: clientA },
      }),
    );
  const mailsAbout = (title: string) =>
    t.db.query<{ recipient: string }>(`select recipient from email_outbox where subject = $1`, [title]);

  it('lists the events of the caller’s panel with the defaults: in the app, e-mail at once', async () => {
    const agency = await mine('admin');
    expect(agency.find((p) => p.event === 'shift.filled')).toMatchObject({ in_app: true, email: 'now', version: 0 });
    expect(agency.map((p) => p.event)).toContain('staff.registered');
    const client = await mine('client');
    expect(client.map((p) => p.event)).toContain('shift.filled');
    expect(client.map((p) => p.event)).not.toContain('staff.registered');
    const bad = await choose('admin', 'shift.filled', { email: 'weekly' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.email).toBeTruthy();
    expect((await choose('client', 'staff.registered', { email: 'off' })).statusCode).toBe(404);
  });

  it('keeps a muted event out of that user’s bell only, and sends its e-mail in their daily digest', async () => {
    const saved = await choose('admin', 'shift.filled', { in_app: false, email: 'digest', version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ event: 'shift.filled', in_app: false, email: 'digest', version: 1 });
    // A stale version is refused.
    expect((await choose('admin', 'shift.filled', { email: 'digest', version: 0 })).statusCode).toBe(409);
    const off = await choose('client', 'shift.filled', { email: 'off' });
    expect(off.statusCode, off.body).toBe(200);

    const before = {
      admin: await agencyInbox(),
      consultant: await agencyInbox('consultant'),
      client: await clientInbox(),
    };
    await filled('Digest probe one');
    await filled('Digest probe two');
    await compactNotificationCounts(t.db);
    const admin = await agencyInbox();
    expect(admin.total_count).toBe(before.admin.total_count);
    expect(admin.notifications.map((n: any) => n.title)).not.toContain('Digest probe one');
    // The others still hear of it, as before.
    const consultant = await agencyInbox('consultant');
    expect(consultant.total_count).toBe(before.consultant.total_count + 2);
    expect(consultant.notifications[0].title).toBe('Digest probe two');
    expect((await clientInbox()).total_count).toBe(before.client.total_count + 2);
    // No e-mail at once to the admin (digest) nor to the client user (none); their colleague, who chose nothing,
    // still gets theirs.
    expect(await mailsAbout('Digest probe one')).toEqual([{ recipient: 'tom.reid@meadowbank.example' }]);

    expect(await sendDigests(t.db)).toBe(1);
    const [digest] = await t.db.query<{ recipient: string; subject: string; text: string }>(
      `select recipient, subject, text from email_outbox where event = 'digest' order by id desc limit 1`,
    );
    expect(digest.recipient).toBe('admin@demo.test');
    expect(digest.subject).toBe('Your daily summary: 2 notifications');
    expect(digest.text).toContain('Digest probe one: Booked.');
    expect(digest.text).toContain('Digest probe two: Booked.');
    // Sent once.
    expect(await sendDigests(t.db)).toBe(0);

    // Back to the defaults: e-mail at once, in the bell.
    expect((await choose('admin', 'shift.filled', { in_app: true, email: 'now', version: 1 })).statusCode).toBe(200);
    expect((await choose('client', 'shift.filled', { email: 'now' })).statusCode).toBe(200);
    await filled('Digest probe three');
    expect((await mailsAbout('Digest probe three')).map((m) => m.recipient)).toEqual(
      expect.arrayContaining(['admin@demo.test', 'client@demo.test']),
    );
    expect((await agencyInbox()).notifications[0].title).toBe('Digest probe three');
  });
});
