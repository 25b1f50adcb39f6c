import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, call, loginAs, makeTestApp, type TestApp } from './helpers';
import {
  addDaysToDate,
  agencyToday,
  formatDisplayDate,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';

// Recruitment's interview dates and stage e-mails (issue 35): an interview booked from the pipeline is a diary note
// on its day, moved by a reschedule and left as history by a rejection; each stage move queues the applicant the
// stage's e-mail from the agency's own template (the notification settings' one mechanism), none when switched off;
// another agency sees none of it.
let t: TestApp;
let admin: string;
let consultant: string;
let otherAdmin: string;
let today: string;
const TZ = 'Europe/London';
let n = 0;
const uid = () => `${Date.now().toString(36)}${++n}`;

async function must(res: { statusCode: number; body: string; json(): any }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
const act = (token: string, id: number, action: string, body: Record<string, unknown> = {}) =>
  call(t.app, token, 'POST', `/api/job_applications/${id}/actions/${action}`, body);
const at = (date: string, time: string) => zonedDateTimeToInstant(date, time, TZ).toISOString();

/** An open job of agency A and an application to it, moved through `moves`. */
async function applicant(moves: string[] = []) {
  const u = uid();
  const job = (
    await must(
      await call(t.app, admin, 'POST', '/api/vacancies', { title: `Night carer ${u}`, location: 'Leeds' }),
      201,
    )
  ).data;
  await must(await call(t.app, admin, 'POST', `/api/vacancies/${job.id}/actions/open`, {}));
  const app = (
    await must(
      await call(t.app, consultant, 'POST', '/api/job_applications', {
        job_id: job.id,
        first_name: 'Ada',
        last_name: `Stage${u}`,
        email: `ada.stage.${u}@applicant.example`,
        right_to_work: 'yes',
        consent: true,
      }),
      201,
    )
  ).data;
  for (const m of moves)
    await must(
      await act(consultant, app.id, m, m === 'interview' ? { interview_at: at(addDaysToDate(today, 3), '11:00') } : {}),
    );
  return { job, app };
}
const mailsTo = (email: string, event?: string) =>
  t.db.query<{ subject: string; text: string; recipient_name: string; event: string; status: string }>(
    `select subject, text, recipient_name, event, status from email_outbox where recipient = $1 ${event ? 'and event = $2' : ''} order by id`,
    event ? [email, event] : [email],
  );
const noteIds = async (token: string, query: string) =>
  (await must(await call(t.app, token, 'GET', `/api/diary_notes?${query}&per_page=100`))).data.map(
    (d: { id: number }) => d.id,
  );

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  today = agencyToday(TZ);
});
afterAll(() => t?.close());

describe('interview dates in the diary', () => {
  it('an interview booked for today is today’s diary note; a reschedule moves that note; a rejection leaves it', async () => {
    const { job, app } = await applicant(['screen']);
    const when = at(today, '12:00');
    const booked = (
      await must(
        await act(consultant, app.id, 'interview', {
          interview_at: when,
          interview_with: 'Sam Lee',
          interview_where: 'The Leeds office',
          note: 'Strong CV',
        }),
      )
    ).data;
    expect(booked).toMatchObject({
      stage: 'interview',
      interview_with: 'Sam Lee',
      interview_where: 'The Leeds office',
      stage_note: 'Strong CV',
    });
    expect(new Date(booked.interview_at).toISOString()).toBe(when);
    const noteId = booked.interview_note_id as number;
    const note = (await must(await call(t.app, consultant, 'GET', `/api/diary_notes/${noteId}`))).data;
    expect(note.title).toBe(`Interview: Ada ${app.last_name} for ${job.title}`);
    expect(new Date(note.note_at).toISOString()).toBe(when);
    expect(note.body).toContain('Interviewed by: Sam Lee');
    expect(note.body).toContain('Where: The Leeds office');
    // On the day: the diary's Today tab (which the dashboard counts) has it.
    expect(await noteIds(consultant, `tab=today&q=${app.last_name}`)).toContain(noteId);

    // Moved to the day after tomorrow: the same note, at the new time, no longer today's.
    const later = at(addDaysToDate(today, 2), '09:30');
    const moved = (await must(await act(admin, app.id, 'reschedule', { interview_at: later }))).data;
    expect(moved).toMatchObject({ stage: 'interview', interview_note_id: noteId, interview_with: null });
    const again = (await must(await call(t.app, consultant, 'GET', `/api/diary_notes/${noteId}`))).data;
    expect(new Date(again.note_at).toISOString()).toBe(later);
    expect(again.body).not.toContain('Sam Lee');
    expect(await noteIds(consultant, `tab=today&q=${app.last_name}`)).not.toContain(noteId);
    expect(await noteIds(consultant, `tab=upcoming&q=${app.last_name}`)).toContain(noteId);

    // Rejected: the note stays where it was, as the diary's history.
    await must(await act(consultant, app.id, 'reject', { note: 'Withdrew' }));
    const kept = (await must(await call(t.app, consultant, 'GET', `/api/diary_notes/${noteId}`))).data;
    expect(new Date(kept.note_at).toISOString()).toBe(later);
    // A rejected application has no interview to move.
    expect((await act(admin, app.id, 'reschedule', { interview_at: later })).statusCode).toBe(409);

    // All of it in the audit trail: the moves with their input, the note's creation and its move.
    const audit = await t.db.query<{ resource: string; event: string; action: string | null; input: any }>(
      `select resource, event, action, input from audit_log
        where (resource = 'job_applications' and record_id = $1) or (resource = 'diary_notes' and record_id = $2)
        order by id`,
      [app.id, noteId],
    );
    expect(audit.filter((a) => a.resource === 'diary_notes').map((a) => a.event)).toEqual(['create', 'update']);
    const interview = audit.find((a) => a.action === 'interview')!;
    expect(interview.input).toMatchObject({ interview_with: 'Sam Lee', note: 'Strong CV' });
    expect(audit.find((a) => a.action === 'reschedule')).toBeTruthy();
  });

  it('an interview needs a real date and time, in words; the diary note of a deleted note is made again', async () => {
    const { app } = await applicant(['screen']);
    const none = await act(consultant, app.id, 'interview', { interview_with: 'Sam Lee' });
    expect(none.statusCode, none.body).toBe(422);
    expect(none.json().errors).toHaveProperty('interview_at');
    const bad = await act(consultant, app.id, 'interview', { interview_at: 'next Tuesday' });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().errors).toHaveProperty('interview_at');
    expect((await must(await call(t.app, admin, 'GET', `/api/job_applications/${app.id}`))).data.stage).toBe(
      'screening',
    );

    const booked = (await must(await act(consultant, app.id, 'interview', { interview_at: at(today, '15:00') }))).data;
    // Someone deletes the note from the diary; a reschedule puts a new one there.
    await must(await call(t.app, admin, 'DELETE', `/api/diary_notes/${booked.interview_note_id}`));
    const later = at(addDaysToDate(today, 1), '10:00');
    const moved = (await must(await act(consultant, app.id, 'reschedule', { interview_at: later }))).data;
    expect(moved.interview_note_id).not.toBe(booked.interview_note_id);
    const note = (await must(await call(t.app, consultant, 'GET', `/api/diary_notes/${moved.interview_note_id}`))).data;
    expect(new Date(note.note_at).toISOString()).toBe(later);
  });

  it('erasing an application erases its interview’s diary note, which named the applicant', async () => {
    const { app } = await applicant(['screen', 'interview']);
    const noteId = (await must(await call(t.app, admin, 'GET', `/api/job_applications/${app.id}`))).data
      .interview_note_id as number;
    await must(await call(t.app, admin, 'DELETE', `/api/job_applications/${app.id}`));
    expect((await call(t.app, admin, 'GET', `/api/diary_notes/${noteId}`)).statusCode).toBe(404);
    const [row] = await t.db.query<{ title: string; body: string | null }>(
      'select title, body from diary_notes where id = $1',
      [noteId],
    );
    expect(row).toEqual({ title: 'Interview (application erased)', body: null });
    // Nor does the note's trail name them; its entries stay, with who and when.
    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from audit_rows r where resource = 'diary_notes' and record_id = $1
          and to_jsonb(r)::text ilike $2`,
      [noteId, `%${app.last_name}%`],
    );
    expect(n).toBe(0);
    const trail = await auditTrail(t.app, admin, 'diary_notes', noteId);
    expect(trail.map((e) => `${e.event} ${e.action ?? ''}`.trim()).sort()).toEqual([
      'action erased',
      'create',
      'delete',
      'update',
    ]);
    expect(trail.find((e) => e.event === 'create')!.changes).toMatchObject({ title: { from: null, to: 'erased' } });
  });
});

describe('stage e-mails', () => {
  it('each move queues the stage’s default e-mail to the applicant, the interview’s with its date, time and place', async () => {
    const { job, app } = await applicant();
    await must(await act(consultant, app.id, 'screen'));
    const [screening] = await mailsTo(app.email, 'application.screening');
    expect(screening).toMatchObject({
      subject: `Your application for ${job.title}`,
      recipient_name: `Ada ${app.last_name}`,
      status: 'queued',
    });
    expect(screening.text).toContain('Dear Ada,');

    const day = addDaysToDate(today, 4);
    await must(
      await act(consultant, app.id, 'interview', { interview_at: at(day, '14:15'), interview_where: 'Leeds office' }),
    );
    const [invite] = await mailsTo(app.email, 'application.interview');
    expect(invite.subject).toBe(`Interview for ${job.title} on ${formatDisplayDate(day)}`);
    expect(invite.text).toContain(`on ${formatDisplayDate(day)} at 14:15`);
    expect(invite.text).toContain('Where: Leeds office');
    // A reschedule tells them the new time.
    const next = addDaysToDate(today, 5);
    await must(await act(consultant, app.id, 'reschedule', { interview_at: at(next, '09:00') }));
    const invites = await mailsTo(app.email, 'application.interview');
    expect(invites).toHaveLength(2);
    expect(invites[1].text).toContain(`on ${formatDisplayDate(next)} at 09:00`);

    await must(await act(consultant, app.id, 'offer'));
    expect((await mailsTo(app.email, 'application.offer'))[0].subject).toBe(`An offer for ${job.title}`);
    // Hiring sends no stage e-mail of its own (the staff member's invitation is the next word).
    await must(await act(consultant, app.id, 'hire'));
    expect((await mailsTo(app.email)).map((m) => m.event)).toEqual([
      'application.screening',
      'application.interview',
      'application.interview',
      'application.offer',
    ]);

    const rejected = await applicant();
    await must(await act(consultant, rejected.app.id, 'reject'));
    const [sorry] = await mailsTo(rejected.app.email, 'application.rejected');
    expect(sorry.text).toContain(`Thank you for your interest in ${rejected.job.title}`);
  });

  it('uses the agency’s own template, and none when the agency switched the stage’s e-mail off', async () => {
    const put = (token: string, path: string, body: Record<string, unknown>) => call(t.app, token, 'PUT', path, body);
    await must(
      await put(admin, '/api/notification_templates/application.screening', {
        subject: 'Hello %{applicant_name}',
        body: 'Dear %{first_name}, we are reading your application for %{job_title}. %{note}',
      }),
    );
    await must(
      await put(admin, '/api/notification_settings/application.offer', { channels: [], recipients: ['applicant'] }),
    );
    // Agency B's choices are its own: B turning screening e-mails off changes nothing for agency A.
    await must(
      await put(otherAdmin, '/api/notification_settings/application.screening', {
        channels: [],
        recipients: ['applicant'],
      }),
    );
    try {
      const { job, app } = await applicant();
      await must(await act(consultant, app.id, 'screen', { note: 'See you soon.' }));
      const [mail] = await mailsTo(app.email, 'application.screening');
      expect(mail.subject).toBe(`Hello Ada ${app.last_name}`);
      expect(mail.text).toContain(`Dear Ada, we are reading your application for ${job.title}. See you soon.`);
      await must(await act(consultant, app.id, 'interview', { interview_at: at(addDaysToDate(today, 2), '10:00') }));
      await must(await act(consultant, app.id, 'offer'));
      expect(await mailsTo(app.email, 'application.offer')).toEqual([]);
      // A placeholder the stage does not know is refused in words.
      const unknown = await put(admin, '/api/notification_templates/application.offer', {
        subject: 'Offer',
        body: 'Your shift on %{shift_date}',
      });
      expect(unknown.statusCode, unknown.body).toBe(422);
      expect(unknown.json().errors.body).toMatch(/%\{shift_date\}/);
    } finally {
      await call(t.app, admin, 'DELETE', '/api/notification_templates/application.screening');
      await put(admin, '/api/notification_settings/application.offer', {
        channels: ['email'],
        recipients: ['applicant'],
      });
      await put(otherAdmin, '/api/notification_settings/application.screening', {
        channels: ['email'],
        recipients: ['applicant'],
      });
    }
  });

  it('the settings list the stage e-mails, for the applicant alone', async () => {
    const events = (await must(await call(t.app, consultant, 'GET', '/api/notification_settings'))).events;
    for (const stage of ['screening', 'interview', 'offer', 'rejected']) {
      const e = events.find((x: { key: string }) => x.key === `application.${stage}`);
      expect(e).toMatchObject({ channels: ['email'], recipients: ['applicant'], recipient_choices: ['applicant'] });
    }
    // The staffing events do not offer the applicant.
    expect(events.find((x: { key: string }) => x.key === 'shift.filled').recipient_choices).not.toContain('applicant');
  });
});

describe('another agency', () => {
  it('never sees the interview’s diary note, the application or its e-mails', async () => {
    const { app } = await applicant(['screen', 'interview']);
    const noteId = (await must(await call(t.app, admin, 'GET', `/api/job_applications/${app.id}`))).data
      .interview_note_id as number;
    expect((await call(t.app, otherAdmin, 'GET', `/api/diary_notes/${noteId}`)).statusCode).toBe(404);
    expect(await noteIds(otherAdmin, `tab=upcoming&q=${app.last_name}`)).not.toContain(noteId);
    expect((await act(otherAdmin, app.id, 'reschedule', { interview_at: at(today, '16:00') })).statusCode).toBe(404);
    const outbox = (
      await must(await call(t.app, otherAdmin, 'GET', '/api/email_outbox?per_page=100&sort=id&order=DESC'))
    ).data as { recipient: string }[];
    expect(outbox.map((m) => m.recipient)).not.toContain(app.email);
    // Agency A's own report lists it.
    const own = (await must(await call(t.app, admin, 'GET', `/api/email_outbox?q=${encodeURIComponent(app.email)}`)))
      .data as { recipient: string }[];
    expect(own.map((m) => m.recipient)).toContain(app.email);
  });
});
