import type { Queryable } from '../db/index.js';
import { hashPassword } from '../auth/passwords.js';
import { newChannelSid } from '../chat/channels.js';
import type { SeedContext } from './context.js';

/** The demo's staff sign-in (README's demo logins). */
export const DEMO_STAFF = { email: 'staff@demo.test', password: 'demo-staff' } as const;

type Line = [from: 'staff' | 'agency', text: string, minutesAgo: number];

// Conversations of the kind an agency has every day; the last line of some is from the staff member and unread.
const CONVERSATIONS: { lines: Line[]; agencyHasRead: boolean }[] = [
  {
    agencyHasRead: false,
    lines: [
      ['agency', 'Hi, are you free for a long day at Meadowbank on Saturday, 08:00–20:00?', 180],
      ['staff', 'Yes, I can do Saturday.', 170],
      ['agency', 'Great, I have booked you in. Please bring your badge.', 160],
      ['staff', 'Will do. Is parking available on site?', 25],
    ],
  },
  {
    agencyHasRead: false,
    lines: [
      ['staff', 'My DBS update certificate came through, shall I upload it?', 95],
      ['staff', 'Also, can I swap next Tuesday for Wednesday?', 90],
    ],
  },
  {
    agencyHasRead: true,
    lines: [
      ['agency', 'Your training certificate expires next month, please renew it.', 60 * 26],
      ['staff', 'Booked on the course for next week, thanks.', 60 * 25],
    ],
  },
  {
    agencyHasRead: true,
    lines: [
      ['staff', 'Running ten minutes late, traffic on the ring road.', 60 * 30],
      ['agency', 'Thanks for letting us know, I have told the site.', 60 * 29],
    ],
  },
  {
    agencyHasRead: false,
    lines: [['staff', 'Could I pick up extra night shifts this month?', 300]],
  },
  {
    agencyHasRead: true,
    lines: [['agency', 'Welcome to Brightway! Message us here any time.', 60 * 72]],
  },
];

/**
 * The demo's chat: conversations with some staff (three with messages the agency has not read), and a staff
 * member with a sign-in of their own (staff@demo.test), whose conversation is the first.
 */
export async function seedChat(db: Queryable, ctx: SeedContext) {
  const staff = await db.query<{ id: number; name: string }>(
    `select id, first_name || ' ' || last_name as name from candidates
      where merchant_id = $1 and deleted_at is null and status = 'approved' and activated order by id limit $2`,
    [ctx.merchantId, CONVERSATIONS.length],
  );
  if (staff.length === 0) return;
  const [me] = staff;
  await db.query('update candidates set email = $2 where id = $1', [me.id, DEMO_STAFF.email]);
  await db.query(
    `insert into users (merchant_id, candidate_id, kind, name, email, password_hash, role) values ($1, $2, 'staff', $3, $4, $5, 'staff')`,
    [ctx.merchantId, me.id, me.name, DEMO_STAFF.email, await hashPassword(DEMO_STAFF.password)],
  );
  for (const [i, person] of staff.entries()) {
    const { lines, agencyHasRead } = CONVERSATIONS[i];
    const oldest = Math.max(...lines.map((l) => l[2]));
    const [channel] = await db.query<{ id: number }>(
      `insert into chat_channels (merchant_id, candidate_id, channel_sid, created_at) values ($1, $2, $3, now() - make_interval(mins => $4)) returning id`,
      [ctx.merchantId, person.id, newChannelSid(), oldest + 5],
    );
    const ids = await db.query<{ id: number; sender_type: string }>(
      `insert into chat_messages (merchant_id, channel_id, sender_type, sender_user_id, sender_name, content, created_at)
       select $1, $2, t, u, n, c, now() - make_interval(mins => a)
         from unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::int[]) with ordinality as x(t, u, n, c, a, o) order by o
       returning id, sender_type`,
      [
        ctx.merchantId,
        channel.id,
        lines.map((l) => (l[0] === 'staff' ? 'Candidate' : 'Merchant')),
        lines.map((l) => (l[0] === 'staff' ? null : ctx.adminId)),
        lines.map((l) => (l[0] === 'staff' ? person.name : ctx.adminName)),
        lines.map((l) => l[1]),
        lines.map((l) => l[2]),
      ],
    );
    const last = Math.max(...ids.map((r) => r.id));
    const lastAgency = Math.max(0, ...ids.filter((r) => r.sender_type === 'Merchant').map((r) => r.id));
    await db.query(
      `update chat_channels set last_message_id = $2, last_message_at = (select created_at from chat_messages where id = $2),
              agency_read_id = $3, staff_read_id = $2 where id = $1`,
      [channel.id, last, agencyHasRead ? last : lastAgency],
    );
  }
}
