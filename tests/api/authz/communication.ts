import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, row } from '../authz-matrix';
import { queueEmails } from '../../../server/notifications/outbox';

// ===== Notifications and e-mail (issue 9) =====
// The agency's notifications rows (GET agency_notifications, PUT merchant_notification_read_all) are in the
// foundation's matrix. Client users have their own inbox; settings, templates and payment reminders are changed
// by the agency's admins only (each agency its own); the mailbox is for admins; the e-mail report (an engine
// resource) is read by agency users and written by nobody.
const outboxRow = (ctx: AuthzContext, merchantId: number) =>
  ctx.t.db
    .transaction((tx) =>
      queueEmails(tx, [
        {
          merchantId,
          recipient: `authz-${ctx.next()}@probe.test`,
          subject: 'Authz probe',
          text: 'x',
          html: '<p>x</p>',
          event: 'shift.filled',
        },
      ]),
    )
    .then(([id]) => id);

// A function: authz-matrix.ts (which defines row, A, F, N) imports this file before it has finished loading.
const notificationRows = () => [
  row('GET', '/api/client_notifications', A, F, F, 'ok', 'ok', F, F, A),
  row('PUT', '/api/client_notification_read_all', A, F, F, 'ok', 'ok', F, F, A),
  // A staff member's own notifications, on their page.
  row('GET', '/api/staff_notifications', A, F, F, F, F, F, 'ok', A),
  row('PUT', '/api/staff_notification_read_all', A, F, F, F, F, F, 'ok', A),
  row('GET', '/api/notification_settings', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('PUT', '/api/notification_settings/:event', A, 'ok', F, F, F, 'ok', F, A),
  row('PUT', '/api/notification_templates/:event', A, 'ok', F, F, F, 'ok', F, A),
  row('DELETE', '/api/notification_templates/:event', A, 'ok', F, F, F, 'ok', F, A),
  row('PUT', '/api/notification_payment_settings', A, 'ok', F, F, F, 'ok', F, A),
  // Each agency or client user's own choice of what reaches them (issue 30.19): their own rows only.
  row('GET', '/api/me/notification_preferences', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
  row('PUT', '/api/me/notification_preferences/:event', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
  row('GET', '/api/message_outbox', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('GET', '/api/mailbox', A, 'ok', F, F, F, 'ok', F, A),
  row('GET', '/api/mailbox/:id', A, 'ok', F, F, F, N, F, A),
  row('GET', '/api/email_outbox', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('GET', '/api/email_outbox/:id', A, 'ok', 'ok', F, F, N, F, A),
  row('POST', '/api/email_outbox', A, F, F, F, F, F, F, A),
  row('PUT', '/api/email_outbox/:id', A, F, F, F, F, F, F, A),
  row('DELETE', '/api/email_outbox/:id', A, F, F, F, F, F, F, A),
];

const notificationPart: Partial<AuthzArea> = {
  async prepare(ctx) {
    ctx.shared.email_outbox = await outboxRow(ctx, ctx.ids.merchantA);
    ctx.sharedB.email_outbox = await outboxRow(ctx, ctx.ids.merchantB);
    const [mail] = await ctx.t.db.query<{ id: number }>(
      'select id from mailbox where merchant_id = $1 order by id limit 1',
      [ctx.ids.merchantA],
    );
    ctx.shared.mailbox = mail.id;
    const [mailB] = await ctx.t.db.query<{ id: number }>(
      `insert into mailbox (merchant_id, subject, text) values ($1, 'Authz probe', 'x') returning id`,
      [ctx.ids.merchantB],
    );
    ctx.sharedB.mailbox = mailB.id;
  },
  createBody: { email_outbox: async () => ({ recipient: 'nobody@probe.test', subject: 'x' }) },
  fresh: { email_outbox: (ctx) => outboxRow(ctx, ctx.ids.merchantA) },
  requests: {
    // Each sends the event's defaults back: authorised, stored, nothing changes.
    'PUT /api/notification_settings/:event': () => ({
      method: 'PUT',
      url: '/api/notification_settings/message.received',
      payload: { channels: ['alert'], recipients: ['agency_admins', 'consultants'] },
    }),
    'PUT /api/notification_templates/:event': () => ({
      method: 'PUT',
      url: '/api/notification_templates/message.received',
      payload: {
        subject: 'New message from %{staff_name}',
        body: 'Hello,\n\n%{staff_name} wrote: %{message}\n\n%{agency_name}',
      },
    }),
    'DELETE /api/notification_templates/:event': () => ({
      method: 'DELETE',
      url: '/api/notification_templates/message.received',
    }),
    'PUT /api/notification_payment_settings': () => ({
      method: 'PUT',
      url: '/api/notification_payment_settings',
      payload: { enabled: false, days_before_due: 3, days_after_due: 7 },
    }),
    // The defaults sent back: authorised, stored as the caller's own row.
    'PUT /api/me/notification_preferences/:event': () => ({
      method: 'PUT',
      url: '/api/me/notification_preferences/shift.filled',
      payload: { in_app: true, email: 'now' },
    }),
    'GET /api/message_outbox': () => ({ method: 'GET', url: '/api/message_outbox?channel=sms' }),
    'GET /api/mailbox/:id': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/mailbox/${otherAgency ? ctx.sharedB.mailbox : ctx.shared.mailbox}`,
    }),
  },
};
// ===== end of notifications and e-mail =====

export const communication: AuthzArea = {
  get rows() {
    return [...notificationRows()];
  },
  prepare: async (ctx) => {
    await notificationPart.prepare!(ctx);
  },
  createBody: { ...notificationPart.createBody },
  fresh: { ...notificationPart.fresh },
  requests: { ...notificationPart.requests },
};
