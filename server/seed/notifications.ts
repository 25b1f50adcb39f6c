import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import { insertMany } from './index.js';
import { renderEmail } from '../notifications/outbox.js';

const HOUR = 60 * 60_000;

/**
 * The demo's notifications (every kind the bell shows, some unread, for the agency and its first client; chat
 * messages have their own badge) and e-mails the outbox has sent (with their copies in the embedded mailbox),
 * one that keeps failing, and SMS and push messages the recording driver kept.
 */
export async function seedNotifications(db: Queryable, ctx: SeedContext) {
  const staff = await db.query<{ id: number; name: string; email: string | null; phone: string | null }>(
    `select id, first_name || ' ' || last_name as name, email, phone from candidates where merchant_id = $1 and deleted_at is null order by id limit 4`,
    [ctx.merchantId],
  );
  const clients = await db.query<{ id: number; name: string; email: string | null }>(
    'select id, name, email from clients where merchant_id = $1 and id = any($2::int[]) order by id',
    [ctx.merchantId, ctx.clientIds],
  );
  const [agency] = await db.query<{ name: string }>('select company_name as name from merchants where id = $1', [
    ctx.merchantId,
  ]);
  const [clientUser] = await db.query<{ name: string; email: string }>(
    `select name, email from users where merchant_id = $1 and kind = 'client' and client_id = $2 order by id limit 1`,
    [ctx.merchantId, ctx.clientIds[0]],
  );
  const s = (i: number) =>
    staff[i % Math.max(1, staff.length)] ?? { id: null, name: 'A staff member', email: null, phone: null };
  const client = clients[0] ?? { id: ctx.clientIds[0], name: 'the client', email: null };
  const now = Date.now();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR).toISOString();

  const agencyRows = [
    {
      event: 'shift.requested',
      title: 'Shift requested',
      body: `${client.name} requested a day shift for tomorrow.`,
      link: '/shift-list',
      read: false,
      h: 2,
    },
    {
      event: 'document.due',
      title: 'DBS certificate expires in 30 days',
      body: `The DBS certificate of ${s(1).name} is due for renewal.`,
      link: s(1).id ? `/staffs/${s(1).id}` : '/staff/staff-list',
      read: false,
      h: 5,
    },
    {
      event: 'staff.registered',
      title: 'New staff member registered',
      body: `${s(2).name} registered and awaits approval.`,
      link: '/staffs/pendingStaff',
      read: false,
      h: 9,
    },
    {
      event: 'shift.filled',
      title: 'Shift filled',
      body: `${s(3).name} was booked at ${client.name}.`,
      link: '/shift-list',
      read: true,
      h: 20,
    },
    {
      event: 'shift.cancelled',
      title: 'Shift cancelled',
      body: `${client.name} cancelled a night shift.`,
      link: '/shift-list',
      read: true,
      h: 26,
    },
    {
      event: 'document.expired',
      title: 'Right to work expired',
      body: `The right to work document of ${s(0).name} has expired.`,
      link: s(0).id ? `/staffs/${s(0).id}` : '/staff/staff-list',
      read: true,
      h: 30,
    },
    {
      event: 'note.reminder',
      title: 'Reminder: call Meadowbank about rota',
      body: 'Your diary note is due.',
      link: '/dairy_notes',
      read: true,
      h: 48,
    },
    {
      event: 'support.request',
      title: 'Support request: cannot export payroll',
      body: 'Sam Patel asked for help.',
      link: '/support',
      read: true,
      h: 50,
    },
    {
      event: 'document.due',
      title: 'Nursing PIN expires in 60 days',
      body: `The NMC PIN of ${s(2).name} is due for renewal.`,
      link: s(2).id ? `/staffs/${s(2).id}` : '/staff/staff-list',
      read: true,
      h: 72,
    },
    {
      event: 'shift.filled',
      title: 'Shift filled',
      body: `${s(1).name} was booked at ${client.name}.`,
      link: '/shift-list',
      read: true,
      h: 96,
    },
  ];
  const clientRows = [
    {
      event: 'shift.filled',
      title: 'Shift filled',
      body: `${s(3).name} will work your day shift tomorrow.`,
      link: '/client/shift/assign-shift',
      read: false,
      h: 1,
    },
    {
      event: 'shift.cancelled',
      title: 'Shift cancelled',
      body: 'Your night shift on Saturday was cancelled.',
      link: '/client/shift/deleted-shift',
      read: false,
      h: 6,
    },
    {
      event: 'shift.requested',
      title: 'Shift requested',
      body: 'Your request for a day shift was received.',
      link: '/client/shift/open-shift',
      read: false,
      h: 24,
    },
    {
      event: 'shift.filled',
      title: 'Shift filled',
      body: `${s(1).name} will work your early shift.`,
      link: '/client/shift/assign-shift',
      read: true,
      h: 50,
    },
  ];
  await insertMany(db, 'notifications', [
    ...agencyRows.map((n) => ({
      merchant_id: ctx.merchantId,
      client_id: null,
      event: n.event,
      title: n.title,
      body: n.body,
      link: n.link,
      read: n.read,
      created_at: at(n.h),
    })),
    ...clientRows.map((n) => ({
      merchant_id: ctx.merchantId,
      client_id: client.id,
      event: n.event,
      title: n.title,
      body: n.body,
      link: n.link,
      read: n.read,
      created_at: at(n.h),
    })),
  ]);

  const letterhead = { name: agency?.name ?? '', logoUrl: null };
  const mails = [
    {
      to: 'admin@demo.test',
      name: ctx.adminName,
      event: 'staff.registered',
      subject: `New staff member: ${s(2).name}`,
      body: `Hello,\n\n${s(2).name} has registered and awaits approval.\n\n${letterhead.name}`,
      link: '/staffs/pendingStaff',
      h: 9,
    },
    {
      to: 'admin@demo.test',
      name: ctx.adminName,
      event: 'document.due',
      subject: `DBS certificate of ${s(1).name} expires in 30 days`,
      body: `Hello,\n\nThe DBS certificate of ${s(1).name} expires in 30 days. Please ask for a renewed copy.\n\n${letterhead.name}`,
      link: '/staff/staff-list',
      h: 5,
    },
    ...(clientUser
      ? [
          {
            to: clientUser.email,
            name: clientUser.name,
            event: 'shift.filled',
            subject: 'Shift filled: tomorrow at your home',
            body: `Hello,\n\n${s(3).name} will work your day shift tomorrow.\n\n${letterhead.name}`,
            link: '/client/shift/assign-shift',
            h: 1,
          },
        ]
      : []),
    ...(clientUser
      ? [
          {
            to: clientUser.email,
            name: clientUser.name,
            event: 'shift.cancelled',
            subject: 'Shift cancelled: Saturday night',
            body: `Hello,\n\nYour night shift on Saturday has been cancelled.\n\n${letterhead.name}`,
            link: '/client/shift/deleted-shift',
            h: 6,
          },
        ]
      : []),
    ...(s(3).email
      ? [
          {
            to: s(3).email!,
            name: s(3).name,
            event: 'shift.filled',
            subject: `Shift filled: tomorrow at ${client.name}`,
            body: `Hello,\n\nYou are booked on tomorrow's day shift at ${client.name}.\n\n${letterhead.name}`,
            link: null,
            h: 1,
          },
        ]
      : []),
  ];
  const rendered = mails.map((m) => ({ m, r: renderEmail(letterhead, m.subject, m.body, m.link) }));
  const ids = await insertMany(db, 'email_outbox', [
    ...rendered.map(({ m, r }) => ({
      merchant_id: ctx.merchantId,
      recipient: m.to,
      recipient_name: m.name,
      subject: r.subject,
      text: r.text,
      html: r.html,
      event: m.event,
      status: 'sent',
      attempts: 1,
      next_attempt_at: at(m.h),
      sent_at: at(m.h - 0.01),
      created_at: at(m.h),
      updated_at: at(m.h - 0.01),
      message_id: `<demo-${m.h}-${m.event}@staffing.local>`,
      last_error: null,
    })),
    // An address the receiving server refused: failed for good, with the server's answer.
    {
      merchant_id: ctx.merchantId,
      recipient: 'old-address@example.invalid',
      recipient_name: 'Former manager',
      subject: 'Shift cancelled: last week',
      text: 'Hello,\n\nA shift was cancelled.',
      html: '<p>Hello,</p><p>A shift was cancelled.</p>',
      event: 'shift.cancelled',
      status: 'failed',
      attempts: 1,
      next_attempt_at: at(70),
      sent_at: null,
      created_at: at(70),
      updated_at: at(70),
      message_id: null,
      last_error: '550 5.1.1 No such mailbox here',
    },
  ]);
  await insertMany(
    db,
    'mailbox',
    rendered.map(({ m, r }, i) => ({
      merchant_id: ctx.merchantId,
      outbox_id: ids[i],
      envelope_from: 'no-reply@staffing.local',
      envelope_to: `{${m.to}}`,
      subject: r.subject,
      text: r.text,
      html: r.html,
      message_id: `<demo-${m.h}-${m.event}@staffing.local>`,
      size: r.text.length + r.html.length,
      received_at: at(m.h - 0.01),
    })),
  );

  await insertMany(db, 'message_outbox', [
    ...(s(3).phone
      ? [
          {
            merchant_id: ctx.merchantId,
            channel: 'sms',
            recipient: s(3).phone,
            recipient_name: s(3).name,
            body: `Shift filled: You are booked tomorrow at ${client.name}.`,
            event: 'shift.filled',
            status: 'recorded',
            driver: 'recording',
            created_at: at(1),
          },
        ]
      : []),
    ...(s(3).id
      ? [
          {
            merchant_id: ctx.merchantId,
            channel: 'push',
            recipient: `candidate:${s(3).id}`,
            recipient_name: s(3).name,
            body: `You are booked: You are booked tomorrow at ${client.name}.`,
            event: 'shift.filled',
            status: 'recorded',
            driver: 'recording',
            created_at: at(1),
          },
        ]
      : []),
  ]);
}
