import type { Queryable } from '../db/index.js';
import { insertMany } from './index.js';
import type { SeedContext } from './context.js';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime.js';

const NOTES: {
  day: number;
  time: string;
  title: string;
  body: string;
  about?: 'staff' | 'client';
  remindBefore?: number;
  consultant?: boolean;
}[] = [
  {
    day: 0,
    time: '09:00',
    title: 'Call back about the DBS renewal',
    body: 'Ask for the new certificate number and a scan.',
    about: 'staff',
    remindBefore: 15,
  },
  {
    day: 0,
    time: '11:30',
    title: 'Weekend rota check with the home manager',
    body: 'Confirm cover for Saturday nights.',
    about: 'client',
  },
  {
    day: 0,
    time: '14:00',
    title: 'Interview: senior carer applicant',
    body: 'Bring the reference forms.',
    remindBefore: 30,
  },
  {
    day: 0,
    time: '16:30',
    title: 'Chase unsigned timesheets',
    body: 'Two timesheets from last week are not signed yet.',
    consultant: true,
  },
  {
    day: 1,
    time: '10:00',
    title: 'Induction for a new starter',
    body: 'Moving and handling, fire safety, uniform.',
    about: 'staff',
    remindBefore: 60,
  },
  {
    day: 1,
    time: '15:00',
    title: 'Rate review meeting',
    body: 'Bank holiday rates for next quarter.',
    about: 'client',
    consultant: true,
  },
  { day: 2, time: '09:30', title: 'Right to work check due', body: 'Share code expires this month.', about: 'staff' },
  {
    day: 3,
    time: '13:00',
    title: 'Site visit',
    body: 'Meet the new deputy manager.',
    about: 'client',
    remindBefore: 120,
  },
  { day: 4, time: '08:45', title: 'Payroll cut-off', body: 'Timesheets must be in by noon.', remindBefore: 30 },
  {
    day: 5,
    time: '12:00',
    title: 'Training day booked',
    body: 'Medication administration refresher.',
    about: 'staff',
    consultant: true,
  },
  {
    day: 6,
    time: '10:30',
    title: 'Follow up on the open night shifts',
    body: 'Three nights still unfilled.',
    about: 'client',
  },
  {
    day: -1,
    time: '16:00',
    title: 'Return call from the care home',
    body: 'They asked about long days next month.',
    about: 'client',
  },
  { day: -3, time: '11:00', title: 'Reference received', body: 'Second reference is in; file it.', about: 'staff' },
];

/**
 * Diary notes for today and the coming week (some about staff or clients, some with reminders), and a couple of support
 * requests with replies.
 */
export async function seedNotes(db: Queryable, ctx: SeedContext) {
  const today = agencyToday(ctx.timeZone);
  const [consultant] = await db.query<{ id: number; name: string }>(
    `select id, name from users where merchant_id = $1 and kind = 'admin' and role = 'consultant' order by id limit 1`,
    [ctx.merchantId],
  );
  const staff = await db.query<{ id: number }>(
    'select id from candidates where merchant_id = $1 and deleted_at is null order by id limit 8',
    [ctx.merchantId],
  );
  const now = Date.now();
  const rows = NOTES.map((n, i) => {
    const at = zonedDateTimeToInstant(addDaysToDate(today, n.day), n.time, ctx.timeZone);
    const remind = n.remindBefore === undefined ? null : new Date(at.getTime() - n.remindBefore * 60_000);
    const owner = n.consultant && consultant ? consultant : { id: ctx.adminId, name: ctx.adminName };
    return {
      merchant_id: ctx.merchantId,
      title: n.title,
      body: n.body,
      note_at: at,
      candidate_id: n.about === 'staff' && staff.length ? staff[i % staff.length].id : null,
      client_id:
        n.about === 'client' && ctx.clientIds.length ? ctx.clientIds[i % Math.min(3, ctx.clientIds.length)] : null,
      remind_at: remind,
      // Reminders already due when the demo starts count as sent: the demo does not open with a burst of them.
      reminded_at: remind && remind.getTime() <= now ? remind : null,
      user_id: owner.id,
      owner_name: owner.name,
    };
  });
  await insertMany(db, 'diary_notes', rows);

  if (!consultant) return;
  const [first, second] = await insertMany(db, 'support_requests', [
    {
      merchant_id: ctx.merchantId,
      subject: 'How do I copy last week’s availability?',
      description: 'I filled in availability for this week and want the same pattern next week for most staff.',
      status: 'answered',
      requester_id: consultant.id,
      requester_name: consultant.name,
    },
    {
      merchant_id: ctx.merchantId,
      subject: 'Client cannot see a new site',
      description: 'Meadowbank added a second building but their manager does not see it when requesting shifts.',
      status: 'open',
      requester_id: consultant.id,
      requester_name: consultant.name,
    },
  ]);
  await insertMany(db, 'support_replies', [
    {
      merchant_id: ctx.merchantId,
      support_request_id: first,
      body: 'On Staff Availability, choose the staff and use “Copy to next week”.',
      author_id: ctx.adminId,
      author_name: ctx.adminName,
    },
    {
      merchant_id: ctx.merchantId,
      support_request_id: second,
      body: 'It shows on the client list, but their manager still cannot pick it. Could you check?',
      author_id: consultant.id,
      author_name: consultant.name,
    },
  ]);
}
