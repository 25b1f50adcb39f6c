import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';

// Recruitment's first slice (issue 35): jobs and their declared lifecycle, applications through the pipeline, hire
// making one pending staff member (once), the agency scope, and the demo's jobs and applicants.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
let today: string;
let n = 0;
const uid = () => `${Date.now().toString(36)}${++n}`;

async function must(res: { statusCode: number; body: string; json(): any }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
const newJob = async (token = admin, extra: Record<string, unknown> = {}) =>
  (
    await must(
      await call(t.app, token, 'POST', '/api/vacancies', {
        title: `Care assistant ${uid()}`,
        location: 'Leeds',
        pay_min: 1250,
        pay_max: 1400,
        hours: '37.5 hours a week',
        closing_date: addDaysToDate(today, 14),
        ...extra,
      }),
      201,
    )
  ).data;
// An interview needs its time (the interview dates' own test is recruitment-stages.test.ts).
const act = (token: string, resource: string, id: number, action: string, body: Record<string, unknown> = {}) =>
  call(t.app, token, 'POST', `/api/${resource}/${id}/actions/${action}`, {
    ...(action === 'interview' ? { interview_at: new Date(Date.now() + 86_400_000).toISOString() } : {}),
    ...body,
  });
const newApplication = async (jobId: number, extra: Record<string, unknown> = {}) => {
  const u = uid();
  return (
    await must(
      await call(t.app, consultant, 'POST', '/api/job_applications', {
        job_id: jobId,
        first_name: 'Ada',
        last_name: `Applicant${u}`,
        email: `ada.${u}@applicant.example`,
        phone: '07700 900123',
        right_to_work: 'yes',
        consent: true,
        ...extra,
      }),
      201,
    )
  ).data;
};

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, client, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  today = agencyToday('Europe/London');
});
afterAll(() => t?.close());

describe('jobs', () => {
  it('is made a draft, and its status moves only by open, close and reopen', async () => {
    const job = await newJob(consultant);
    expect(job).toMatchObject({ status: 'draft', pay_min: 1250, pay_max: 1400 });
    // The status is no field anyone writes.
    const put = await call(t.app, admin, 'PUT', `/api/vacancies/${job.id}`, { status: 'open' });
    expect(put.statusCode, put.body).toBe(422);
    expect(put.json().errors).toHaveProperty('status');
    // Closing a draft is refused in words.
    const early = await act(admin, 'vacancies', job.id, 'close');
    expect(early.statusCode, early.body).toBe(409);
    expect((await must(await act(consultant, 'vacancies', job.id, 'open'))).data.status).toBe('open');
    expect((await must(await act(consultant, 'vacancies', job.id, 'close'))).data.status).toBe('closed');
    expect((await must(await act(admin, 'vacancies', job.id, 'reopen'))).data.status).toBe('open');
    // Each move is in its history.
    const audit = await t.db.query<{ action: string | null }>(
      `select action from audit_log where resource = 'vacancies' and record_id = $1 order by id`,
      [job.id],
    );
    expect(audit.map((a) => a.action).filter(Boolean)).toEqual(['open', 'close', 'reopen']);
  });

  it('refuses a pay range that runs backwards and a closing date that is not a date', async () => {
    const res = await call(t.app, admin, 'POST', '/api/vacancies', {
      title: 'Backwards',
      location: 'Leeds',
      pay_min: 1500,
      pay_max: 1200,
      closing_date: '2027-02-30',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['closing_date', 'pay_max']);
  });

  it('lists by status tab, and is the agency’s own: another agency’s job is 404, a client user is refused', async () => {
    const job = await newJob();
    await must(await act(admin, 'vacancies', job.id, 'open'));
    const open = await must(await call(t.app, admin, 'GET', '/api/vacancies?tab=open&per_page=100'));
    expect(open.data.every((j: { status: string }) => j.status === 'open')).toBe(true);
    expect(open.data.map((j: { id: number }) => j.id)).toContain(job.id);
    expect((await call(t.app, otherAdmin, 'GET', `/api/vacancies/${job.id}`)).statusCode).toBe(404);
    expect((await act(otherAdmin, 'vacancies', job.id, 'close')).statusCode).toBe(404);
    const listB = await must(await call(t.app, otherAdmin, 'GET', '/api/vacancies?per_page=100'));
    expect(listB.data.map((j: { id: number }) => j.id)).not.toContain(job.id);
    expect((await call(t.app, client, 'GET', '/api/vacancies')).statusCode).toBe(403);
    // Agency B's applicant cannot be filed under agency A's job.
    const cross = await call(t.app, otherAdmin, 'POST', '/api/job_applications', {
      job_id: job.id,
      first_name: 'Cross',
      last_name: 'Agency',
      email: `cross.${uid()}@applicant.example`,
      right_to_work: 'yes',
      consent: true,
    });
    expect(cross.statusCode, cross.body).toBe(422);
    expect(cross.json().errors).toHaveProperty('job_id');
  });
});

describe('applications', () => {
  it('need consent and a right-to-work answer, in words', async () => {
    const job = await newJob();
    const res = await call(t.app, admin, 'POST', '/api/job_applications', {
      job_id: job.id,
      first_name: 'No',
      last_name: 'Consent',
      email: 'not an e-mail',
      consent: false,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['consent', 'email', 'right_to_work']);
  });

  it('move through the stages with notes; hire makes one pending staff member, and a second hire is refused', async () => {
    const job = await newJob();
    const app = await newApplication(job.id);
    expect(app.stage).toBe('applied');
    const put = await call(t.app, admin, 'PUT', `/api/job_applications/${app.id}`, { stage: 'hired' });
    expect(put.statusCode, put.body).toBe(422);
    // Hiring before an offer is refused: the pipeline's order.
    expect((await act(admin, 'job_applications', app.id, 'hire')).statusCode).toBe(409);
    await must(await act(consultant, 'job_applications', app.id, 'screen', { note: 'CV checked' }));
    await must(await act(consultant, 'job_applications', app.id, 'interview'));
    const offered = await must(await act(consultant, 'job_applications', app.id, 'offer', { note: 'Offered days' }));
    expect(offered.data).toMatchObject({ stage: 'offer', stage_note: 'Offered days' });

    const hired = (await must(await act(consultant, 'job_applications', app.id, 'hire', { note: 'Accepted' }))).data;
    expect(hired.stage).toBe('hired');
    expect(hired.candidate_id).toEqual(expect.any(Number));
    const staff = (await must(await call(t.app, admin, 'GET', `/api/candidates/${hired.candidate_id}`))).data;
    expect(staff).toMatchObject({
      first_name: 'Ada',
      last_name: app.last_name,
      email: app.email,
      phone: '07700 900123',
      status: 'pending',
    });

    const again = await act(admin, 'job_applications', app.id, 'hire');
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toMatch(/\w+ \w+/);
    const made = await t.db.query<{ n: number }>(
      `select count(*)::int as n from candidates where lower(email) = lower($1)`,
      [app.email],
    );
    expect(made[0].n).toBe(1);
    // The history names the hire and its note.
    const [entry] = await t.db.query<{ input: Record<string, unknown> }>(
      `select input from audit_log where resource = 'job_applications' and record_id = $1 and action = 'hire'`,
      [app.id],
    );
    expect(entry.input).toMatchObject({ note: 'Accepted' });
  });

  it('hire files the application’s CV among the new staff member’s documents (a copy, same bytes); no CV, none', async () => {
    const job = await newJob();
    // Bytes of every value after a PDF's header, so the copy is checked whole.
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.4\n%%EOF\n'),
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/files?kind=document',
      headers: {
        authorization: `Bearer ${consultant}`,
        'content-type': 'application/octet-stream',
        'x-file-name': 'ada-cv.pdf',
      },
      payload: pdf,
    });
    const cv = (await must(uploaded, 201)).data.id;
    const withCv = await newApplication(job.id, { cv });
    const without = await newApplication(job.id);
    const hire = async (id: number) => {
      for (const a of ['screen', 'interview', 'offer']) await must(await act(consultant, 'job_applications', id, a));
      return (await must(await act(consultant, 'job_applications', id, 'hire'))).data.candidate_id as number;
    };
    const docsOf = async (candidateId: number) =>
      (await must(await call(t.app, admin, 'GET', `/api/candidate_documents?candidate_id=${candidateId}&per_page=50`)))
        .data;

    const staffId = await hire(withCv.id);
    const [doc, ...more] = await docsOf(staffId);
    expect(more).toEqual([]);
    expect(doc).toMatchObject({ candidate_id: staffId, status: 'awaiting', current: true, file_name: 'ada-cv.pdf' });
    // A copy of its own: the application keeps its file (and may be erased later without taking the document's).
    expect(doc.file).not.toBe(cv);
    const bytes = await call(t.app, admin, 'GET', `/api/files/${doc.file}`);
    expect(bytes.statusCode).toBe(200);
    expect(Buffer.compare(bytes.rawPayload, pdf)).toBe(0);
    expect((await call(t.app, admin, 'GET', `/api/files/${cv}`)).statusCode).toBe(200);
    const category = (
      await must(await call(t.app, admin, 'GET', `/api/document_categories/${doc.document_category_id}`))
    ).data;
    expect(category).toMatchObject({ name: 'CV', mandatory: false, validity_months: null });
    // The document's history says where it came from.
    const [entry] = await t.db.query<{ input: Record<string, unknown> }>(
      `select input from audit_log where resource = 'candidate_documents' and record_id = $1 and event = 'create'`,
      [doc.id],
    );
    expect(entry.input).toMatchObject({ reason: `The CV of application ${withCv.id}` });

    expect(await docsOf(await hire(without.id))).toEqual([]);
    // A second CV is filed under the same category.
    const again = await newApplication(job.id, {
      cv: (
        await must(
          await t.app.inject({
            method: 'POST',
            url: '/api/files?kind=document',
            headers: { authorization: `Bearer ${consultant}`, 'content-type': 'application/octet-stream' },
            payload: pdf,
          }),
          201,
        )
      ).data.id,
    });
    const [second] = await docsOf(await hire(again.id));
    expect(second.document_category_id).toBe(doc.document_category_id);
  });

  it('refuses to hire an applicant whose e-mail a staff member already has, in words', async () => {
    const job = await newJob();
    const app = await newApplication(job.id);
    await must(
      await call(t.app, admin, 'POST', '/api/candidates', {
        first_name: 'Already',
        last_name: 'Here',
        email: app.email.toUpperCase(),
      }),
      201,
    );
    for (const a of ['screen', 'interview', 'offer']) await must(await act(admin, 'job_applications', app.id, a));
    const res = await act(admin, 'job_applications', app.id, 'hire');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toContain('Already Here is already a staff member');
    expect((await must(await call(t.app, admin, 'GET', `/api/job_applications/${app.id}`))).data.stage).toBe('offer');
  });

  it('rejected is final, and only an admin deletes; another agency’s application is 404', async () => {
    const job = await newJob();
    const app = await newApplication(job.id);
    await must(await act(consultant, 'job_applications', app.id, 'reject', { note: 'No right to work' }));
    expect((await act(admin, 'job_applications', app.id, 'screen')).statusCode).toBe(409);
    expect((await call(t.app, otherAdmin, 'GET', `/api/job_applications/${app.id}`)).statusCode).toBe(404);
    expect((await act(otherAdmin, 'job_applications', app.id, 'reject')).statusCode).toBe(404);
    expect((await call(t.app, consultant, 'DELETE', `/api/job_applications/${app.id}`)).statusCode).toBe(403);
  });
});

describe('the demo', () => {
  it('has jobs in every status (one closed) and applicants across the stages, one hired into the staff list', async () => {
    const jobs = await must(await call(t.app, admin, 'GET', '/api/vacancies?per_page=100&sort=id&order=ASC'));
    const statuses = jobs.data.map((j: { status: string }) => j.status);
    expect(statuses).toEqual(expect.arrayContaining(['draft', 'open', 'closed']));
    const apps = await must(await call(t.app, admin, 'GET', '/api/job_applications?per_page=100&q=applicant.example'));
    const stages = new Set(apps.data.map((a: { stage: string }) => a.stage));
    for (const s of ['applied', 'screening', 'interview', 'offer', 'hired', 'rejected']) expect(stages).toContain(s);
  });
});
