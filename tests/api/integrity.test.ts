import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, call, expectAudited, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';

// What a delete leaves behind (issue 13, items 1–3): a staff member, client or site with shifts still to be worked
// refuses the delete in words; deleting or moving a rate card gives the card before it its period back; every
// write, the notification settings' included, leaves an audit entry, and a delete entry keeps what was deleted.
let t: TestApp;
let admin: string;
let merchantId: number;
let today: string;
const TZ = 'Europe/London';
let n = 0;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  admin = await loginAs(t.app, 'admin');
  [{ merchant_id: merchantId }] = await t.db.query(`select merchant_id from users where email = 'admin@demo.test'`);
  today = agencyToday(TZ);
});
afterAll(() => t?.close());

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  call(t.app, admin, method, url, body);
const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body.slice(0, 800)).toBe(status);
  return res.json().data;
};

const CARD = {
  pay_weekday_day: 1300,
  charge_weekday_day: 2000,
  pay_weekday_night: 1400,
  charge_weekday_night: 2200,
  pay_saturday: 1500,
  charge_saturday: 2300,
  pay_sunday: 1600,
  charge_sunday: 2400,
  pay_bank_holiday: 2000,
  charge_bank_holiday: 3000,
};

/** A client of its own with a site, a job role and a rate card from 2026-01-01. */
async function setup() {
  const i = ++n;
  const client = ok(
    await req('POST', '/api/clients', { name: `Integrity Client ${i}`, billing_email: 'accounts@integrity.example' }),
    201,
  );
  const site = ok(
    await req('POST', '/api/sites', {
      name: `Integrity Site ${i}`,
      client_id: client.id,
      address: { line1: '1 Whole Street', city: 'Leeds', postcode: 'LS1 1AA' },
    }),
    201,
  );
  const role = ok(await req('POST', '/api/job_roles', { name: `Integrity Role ${i}` }), 201);
  const card = ok(
    await req('POST', '/api/rate_cards', {
      client_id: client.id,
      job_role_id: role.id,
      effective_from: '2026-01-01',
      ...CARD,
    }),
    201,
  );
  return { client, site, role, card };
}

/** An open shift of the client `days` from today, 08:00–16:00 in London. */
async function shift(s: Awaited<ReturnType<typeof setup>>, days: number) {
  const day = addDaysToDate(today, days);
  return ok(
    await req('POST', '/api/shifts', {
      client_id: s.client.id,
      site_id: s.site.id,
      job_role_id: s.role.id,
      start_at: zonedDateTimeToInstant(day, '08:00', TZ).toISOString(),
      end_at: zonedDateTimeToInstant(day, '16:00', TZ).toISOString(),
    }),
    201,
  );
}

async function staffMember(): Promise<number> {
  const i = ++n;
  const [c] = await fixtureWrite(
    t.db,
    `insert into candidates (merchant_id, first_name, last_name, email, status, activated) values ($1, 'Dana', $2, $3, 'approved', true) returning id`,
    [merchantId, `Integrity${i}`, `integrity-${i}@example.test`],
  );
  return c.id;
}

/** Books a staff member on a shift as a booking would leave it (the booking checks are the shifts tests' concern). */
const book = (shiftId: number, candidateId: number) =>
  fixtureWrite(t.db, `update shifts set status = 'assigned', candidate_id = $2 where id = $1`, [shiftId, candidateId]);

describe('deleting what future shifts depend on (item 1)', () => {
  it('a staff member with a future shift booked is not deleted: the refusal lists it, and unassigning it lets the delete through', async () => {
    const s = await setup();
    const staff = await staffMember();
    const first = await shift(s, 40);
    const second = await shift(s, 41);
    await book(first.id, staff);
    await book(second.id, staff);
    // A shift already worked keeps the staff member for the history; it does not block.
    const past = await shift(s, 1);
    await fixtureWrite(
      t.db,
      `update shifts set status = 'closed', candidate_id = $2, start_at = now() - interval '2 days', end_at = now() - interval '2 days' + interval '8 hours' where id = $1`,
      [past.id, staff],
    );

    const refused = await req('DELETE', `/api/candidates/${staff}`);
    expect(refused.statusCode, refused.body).toBe(409);
    const { message } = refused.json();
    expect(message).toMatch(/^This staff member cannot be deleted yet: 2 future shifts are booked for them \(/);
    expect(message).toContain(first.summary);
    expect(message).toContain(second.summary);
    expect(message).toMatch(/Unassign or cancel them first\.$/);
    // Nothing changed: the staff member is there and still booked.
    expect(ok(await req('GET', `/api/candidates/${staff}`)).id).toBe(staff);
    expect(ok(await req('GET', `/api/shifts/${first.id}`))).toMatchObject({ status: 'assigned', candidate_id: staff });

    ok(await req('POST', `/api/shifts/actions/unassign`, { ids: [first.id, second.id] }));
    const { entry } = await expectAudited(
      t.app,
      admin,
      { resource: 'candidates', id: staff, event: 'delete' },
      async () => ok(await req('DELETE', `/api/candidates/${staff}`)),
    );
    // The delete entry keeps what the record held.
    expect(entry.changes.last_name).toEqual({ from: `Integrity${n}`, to: null });
    expect((await req('GET', `/api/candidates/${staff}`)).statusCode).toBe(404);
  });

  it('a client with a future open shift is not deleted (so it cannot be assigned afterwards); once cancelled, the client goes', async () => {
    const s = await setup();
    const open = await shift(s, 45);
    const refused = await req('DELETE', `/api/clients/${s.client.id}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(
      `This client cannot be deleted yet: a future shift is still on the schedule (${open.summary}). Cancel or delete them first.`,
    );
    // The same for its site.
    const site = await req('DELETE', `/api/sites/${s.site.id}`);
    expect(site.statusCode, site.body).toBe(409);
    expect(site.json().message).toContain('a future shift is still on the schedule there');

    ok(await req('POST', `/api/shifts/${open.id}/actions/cancel`, { reason: 'Client leaving' }));
    ok(await req('DELETE', `/api/clients/${s.client.id}`));
    const assign = await req('POST', `/api/shifts/${open.id}/actions/assign`, { candidate_id: await staffMember() });
    expect(assign.statusCode).toBe(409);
  });

  it('lists the first three of many and counts the rest', async () => {
    const s = await setup();
    for (const d of [50, 51, 52, 53, 54]) await shift(s, d);
    const refused = await req('DELETE', `/api/clients/${s.client.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/5 future shifts are still on the schedule \(.+; .+; .+; and 2 more\)/);
  });

  it('what a delete changes elsewhere takes a new version and an audit entry: a preference loses the client, the sites go with it', async () => {
    const s = await setup();
    const staff = await staffMember();
    const pref = ok(
      await req('POST', '/api/candidate_preferences', { candidate_id: staff, preferred_client_ids: [s.client.id] }),
      201,
    );
    const { entry } = await expectAudited(
      t.app,
      admin,
      {
        resource: 'candidate_preferences',
        id: pref.id,
        event: 'update',
        changes: { preferred_client_ids: { from: [s.client.id], to: [] } },
      },
      async () => {
        await expectAudited(
          t.app,
          admin,
          { resource: 'sites', id: s.site.id, event: 'delete', changes: { name: { from: s.site.name, to: null } } },
          async () => ok(await req('DELETE', `/api/clients/${s.client.id}`)),
        );
      },
    );
    // Filed under the staff member, so their History tab shows it.
    expect(entry).toMatchObject({ subject_resource: 'candidates', subject_id: staff });
    expect(entry.input?.reason).toMatch(/was deleted/);
    const now = ok(await req('GET', `/api/candidate_preferences/${pref.id}`));
    expect(now.preferred_client_ids).toEqual([]);
    expect(now.version).toBe(pref.version + 1);
    expect((await req('GET', `/api/sites/${s.site.id}`)).statusCode).toBe(404);
  });
});

describe('rate cards: deleting or moving a card gives the one before it its period back (item 2)', () => {
  const quoteOn = (s: Awaited<ReturnType<typeof setup>>, day: string) =>
    req('POST', '/api/rates/quote', {
      client_id: s.client.id,
      site_id: s.site.id,
      job_role_id: s.role.id,
      start: zonedDateTimeToInstant(day, '09:00', TZ).toISOString(),
      end: zonedDateTimeToInstant(day, '17:00', TZ).toISOString(),
    });

  it('the automatic close is audited; deleting the newer card reopens the earlier one, audited, and shifts can be priced again', async () => {
    const s = await setup();
    const { result: newer } = await expectAudited(
      t.app,
      admin,
      {
        resource: 'rate_cards',
        id: s.card.id,
        event: 'update',
        changes: { effective_to: { from: null, to: '2027-01-01' } },
      },
      async () =>
        ok(
          await req('POST', '/api/rate_cards', {
            client_id: s.client.id,
            job_role_id: s.role.id,
            effective_from: '2027-01-01',
            ...CARD,
            charge_weekday_day: 2100,
          }),
          201,
        ),
    );
    expect(ok(await req('GET', `/api/rate_cards/${s.card.id}`))).toMatchObject({
      effective_to: '2027-01-01',
      version: s.card.version + 1,
    });

    await expectAudited(
      t.app,
      admin,
      {
        resource: 'rate_cards',
        id: s.card.id,
        event: 'update',
        changes: { effective_to: { from: '2027-01-01', to: null } },
      },
      async () => ok(await req('DELETE', `/api/rate_cards/${newer.id}`)),
    );
    expect(ok(await req('GET', `/api/rate_cards/${s.card.id}`)).effective_to).toBeNull();
    const quote = await quoteOn(s, '2027-06-02');
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().rate_card_id).toBe(s.card.id);
  });

  it("moving the newer card moves the earlier one's end with it (audited); it cannot move before the earlier card starts", async () => {
    const s = await setup();
    const newer = ok(
      await req('POST', '/api/rate_cards', {
        client_id: s.client.id,
        job_role_id: s.role.id,
        effective_from: '2027-01-01',
        ...CARD,
      }),
      201,
    );
    await expectAudited(
      t.app,
      admin,
      {
        resource: 'rate_cards',
        id: s.card.id,
        event: 'update',
        changes: { effective_to: { from: '2027-01-01', to: '2027-03-01' } },
      },
      async () => ok(await req('PUT', `/api/rate_cards/${newer.id}`, { effective_from: '2027-03-01' })),
    );
    expect((await quoteOn(s, '2027-02-03')).json().rate_card_id).toBe(s.card.id);
    // Earlier than before, over part of the earlier card's period: that card ends sooner.
    ok(await req('PUT', `/api/rate_cards/${newer.id}`, { effective_from: '2026-09-01' }));
    expect(ok(await req('GET', `/api/rate_cards/${s.card.id}`)).effective_to).toBe('2026-09-01');
    const before = await req('PUT', `/api/rate_cards/${newer.id}`, { effective_from: '2025-12-01' });
    expect(before.statusCode, before.body).toBe(422);
    expect(before.json().errors.effective_from).toMatch(/The card before this one starts on 2026-01-01/);
    expect(ok(await req('GET', `/api/rate_cards/${s.card.id}`)).effective_to).toBe('2026-09-01');
  });
});

describe('writes outside the engine are audited too, and a delete keeps the deleted record (item 3)', () => {
  it('notification settings, templates and payment reminders leave entries with what changed', async () => {
    await expectAudited(
      t.app,
      admin,
      { resource: 'notification_settings', event: 'create', changes: { channels: { from: null, to: ['email'] } } },
      async () =>
        ok(
          await req('PUT', '/api/notification_settings/shift.filled', {
            channels: ['email'],
            recipients: ['agency_admins'],
          }),
        ),
    );
    await expectAudited(
      t.app,
      admin,
      {
        resource: 'notification_settings',
        event: 'update',
        changes: { channels: { from: ['email'], to: ['email', 'alert'] } },
      },
      async () =>
        ok(
          await req('PUT', '/api/notification_settings/shift.filled', {
            channels: ['email', 'alert'],
            recipients: ['agency_admins'],
          }),
        ),
    );
    const { entry: created } = await expectAudited(
      t.app,
      admin,
      {
        resource: 'notification_templates',
        event: 'create',
        changes: { subject: { from: null, to: 'Filled: %{shift_date}' } },
      },
      async () =>
        ok(
          await req('PUT', '/api/notification_templates/shift.filled', {
            subject: 'Filled: %{shift_date}',
            body: 'Your shift is filled.',
          }),
        ),
    );
    await expectAudited(
      t.app,
      admin,
      {
        resource: 'notification_templates',
        id: created.record_id,
        event: 'update',
        changes: { body: { from: 'Your shift is filled.', to: 'Filled.' } },
      },
      async () =>
        ok(
          await req('PUT', '/api/notification_templates/shift.filled', {
            subject: 'Filled: %{shift_date}',
            body: 'Filled.',
          }),
        ),
    );
    await expectAudited(
      t.app,
      admin,
      {
        resource: 'notification_templates',
        id: created.record_id,
        event: 'delete',
        changes: { subject: { from: 'Filled: %{shift_date}', to: null }, body: { from: 'Filled.', to: null } },
      },
      async () => ok(await req('DELETE', '/api/notification_templates/shift.filled')),
    );
    await expectAudited(
      t.app,
      admin,
      {
        resource: 'notification_payment_settings',
        id: merchantId,
        event: 'create',
        changes: { days_before_due: { from: null, to: 5 } },
      },
      async () =>
        ok(
          await req('PUT', '/api/notification_payment_settings', {
            enabled: true,
            days_before_due: 5,
            days_after_due: 7,
          }),
        ),
    );
    await expectAudited(
      t.app,
      admin,
      {
        resource: 'notification_payment_settings',
        id: merchantId,
        event: 'update',
        changes: { enabled: { from: true, to: false } },
      },
      async () =>
        ok(
          await req('PUT', '/api/notification_payment_settings', {
            enabled: false,
            days_before_due: 5,
            days_after_due: 7,
          }),
        ),
    );
  });

  it('a save that sends the version it read is refused when someone saved in between, and nothing changes', async () => {
    const read = async () => (await req('GET', '/api/notification_settings')).json();
    const event = (await read()).events.find((e: any) => e.key === 'document.expired');
    ok(
      await req('PUT', '/api/notification_settings/document.expired', {
        channels: ['email'],
        recipients: ['agency_admins'],
        version: event.version,
      }),
    );
    const stale = await req('PUT', '/api/notification_settings/document.expired', {
      channels: ['alert'],
      recipients: ['agency_admins'],
      version: event.version,
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().message).toMatch(/changed by someone else/);
    expect((await read()).events.find((e: any) => e.key === 'document.expired').channels).toEqual(['email']);

    const { payment_reminders: payment } = await read();
    const saved = ok(
      await req('PUT', '/api/notification_payment_settings', {
        enabled: true,
        days_before_due: 2,
        days_after_due: 7,
        version: payment.version,
      }),
    );
    expect(saved.version).toBe((await read()).payment_reminders.version);
    expect(
      (
        await req('PUT', '/api/notification_payment_settings', {
          enabled: false,
          days_before_due: 2,
          days_after_due: 7,
          version: payment.version,
        })
      ).statusCode,
    ).toBe(409);
    ok(
      await req('PUT', '/api/notification_payment_settings', {
        enabled: false,
        days_before_due: 2,
        days_after_due: 7,
        version: saved.version,
      }),
    );

    // A template restored to the default since it was read is gone: saving the version read is refused, not re-created.
    const template = ok(
      await req('PUT', '/api/notification_templates/document.expired', { subject: 'Expired', body: 'It expired.' }),
    );
    ok(await req('DELETE', '/api/notification_templates/document.expired'));
    const gone = await req('PUT', '/api/notification_templates/document.expired', {
      subject: 'Expired!',
      body: 'It expired.',
      version: template.template_version,
    });
    expect(gone.statusCode, gone.body).toBe(409);
    expect((await read()).events.find((e: any) => e.key === 'document.expired').custom_template).toBe(false);
  });

  it('a write a hook makes to another record is audited: the document a new upload replaces, the request a reply reopens', async () => {
    const PDF = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      'latin1',
    );
    const upload = async () =>
      ok(
        await t.app.inject({
          method: 'POST',
          url: '/api/files?kind=document',
          headers: {
            authorization: `Bearer ${admin}`,
            'content-type': 'application/octet-stream',
            'x-file-name': 'scan.pdf',
          },
          payload: PDF,
        }),
        201,
      ).id;
    const staff = await staffMember();
    const category = ok(await req('POST', '/api/document_categories', { name: `Integrity check ${++n}` }), 201);
    const doc = {
      candidate_id: staff,
      document_category_id: category.id,
      issue_date: addDaysToDate(today, -30),
      expiry_date: addDaysToDate(today, 300),
    };
    const first = ok(await req('POST', '/api/candidate_documents', { ...doc, file: await upload() }), 201);
    const { entry } = await expectAudited(
      t.app,
      admin,
      {
        resource: 'candidate_documents',
        id: first.id,
        event: 'update',
        changes: { current: { from: true, to: false } },
      },
      async () => ok(await req('POST', '/api/candidate_documents', { ...doc, file: await upload() }), 201),
    );
    expect(entry).toMatchObject({ subject_resource: 'candidates', subject_id: staff });

    const consultant = await loginAs(t.app, 'consultant');
    const asked = ok(
      await call(t.app, consultant, 'POST', '/api/support_requests', {
        subject: 'Integrity help',
        description: 'Please look.',
      }),
      201,
    );
    await expectAudited(
      t.app,
      admin,
      {
        resource: 'support_requests',
        id: asked.id,
        // The reply runs the request's declared transition (its lifecycle), not a plain update of the status.
        event: 'action',
        action: 'answer',
        changes: { status: { from: 'open', to: 'answered' } },
      },
      async () =>
        ok(await req('POST', '/api/support_replies', { support_request_id: asked.id, body: 'Looking now.' }), 201),
    );
  });

  it("a hard-deleted setting's entry holds what it contained", async () => {
    const role = ok(await req('POST', '/api/job_roles', { name: 'Short-lived role' }), 201);
    const { entry } = await expectAudited(
      t.app,
      admin,
      { resource: 'job_roles', id: role.id, event: 'delete' },
      async () => ok(await req('DELETE', `/api/job_roles/${role.id}`)),
    );
    expect(entry.changes.name).toEqual({ from: 'Short-lived role', to: null });
    expect(await auditTrail(t.app, admin, 'job_roles', role.id)).toHaveLength(2);
  });
});
