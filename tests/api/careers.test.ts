import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';
import { APPLICATIONS_PER_HOUR } from '../../server/careers/routes';

// The public job board (issue 35): /careers/{slug} without a session, open jobs only, another agency's job and an
// unknown slug 404, and the application form: field errors in words, the CV through the file store (413 when too
// large), HTML kept as text, the honeypot, the rate limit, the confirmation e-mail, and the applicant in the pipeline.
let t: TestApp;
let admin: string;
let otherAdmin: string;
let today: string;
let n = 0;
const uid = () => `${Date.now().toString(36)}${++n}`;
const SLUG = 'brightway-staffing';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
// Every test sends from an address of its own: the rate limit counts per address.
let address = 10;
const nextAddress = () => `203.0.113.${++address}`;

async function must(res: { statusCode: number; body: string; json(): any }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
const newJob = async (token = admin, extra: Record<string, unknown> = {}, moves = ['open']) => {
  const job = (
    await must(
      await call(t.app, token, 'POST', '/api/vacancies', {
        title: `Support worker ${uid()}`,
        location: 'Harrogate',
        pay_min: 1275,
        pay_max: 1450,
        hours: '30 hours a week',
        description: 'Support adults in their own homes.',
        closing_date: addDaysToDate(today, 10),
        ...extra,
      }),
      201,
    )
  ).data;
  for (const m of moves) await must(await call(t.app, token, 'POST', `/api/vacancies/${job.id}/actions/${m}`, {}));
  return job as { id: number; title: string };
};

const get = (url: string) => t.app.inject({ method: 'GET', url });

/** The form as a browser sends it (multipart, the CV as a file part). */
async function post(
  url: string,
  fields: Record<string, string>,
  cv?: { bytes: Uint8Array; name: string; type?: string },
  remoteAddress = nextAddress(),
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (cv)
    form.append('cv', new Blob([cv.bytes as Uint8Array<ArrayBuffer>], { type: cv.type ?? 'application/pdf' }), cv.name);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { 'content-type': req.headers.get('content-type')! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
}
const applicant = (extra: Record<string, string> = {}) => ({
  first_name: 'Ada',
  last_name: `Okafor ${uid()}`,
  email: `ada.${uid()}@applicant.example`,
  phone: '07700 900123',
  right_to_work: 'yes',
  consent: 'yes',
  website: '',
  ...extra,
});
const applyUrl = (jobId: number, slug = SLUG) => `/careers/${slug}/jobs/${jobId}/apply`;
const applications = (lastName: string) =>
  t.db.query<Record<string, any>>('select * from job_applications where last_name = $1', [lastName]);
/** The error shown next to a field (its id is the field's, followed by -error). */
const fieldError = (html: string, field: string) =>
  new RegExp(`<p class="error" id="${field}-error"><span class="vh">Error: </span>([^<]*)</p>`).exec(html)?.[1];

beforeAll(async () => {
  t = await makeTestApp();
  [admin, otherAdmin] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'otherAdmin')]);
  today = agencyToday('Europe/London');
});
afterAll(async () => {
  await t?.close();
});

describe('the board', () => {
  it('lists the open jobs of the agency, without a session, as a page search engines and screen readers read', async () => {
    const open = await newJob();
    const draft = await newJob(admin, {}, []);
    const closed = await newJob(admin, {}, ['open', 'close']);
    const past = await newJob(admin, { closing_date: addDaysToDate(today, -1) });
    const closesToday = await newJob(admin, { closing_date: today });
    const res = await get(`/careers/${SLUG}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain('<html lang="en-GB">');
    expect(html).toContain('<title>Jobs at Brightway Staffing</title>');
    expect(html).toMatch(/<meta name="description" content="[^"]*open jobs? at Brightway Staffing/);
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(html).not.toContain('<script');
    expect(html).toContain(`/careers/${SLUG}/jobs/${open.id}"`);
    expect(html).toContain(`/careers/${SLUG}/jobs/${closesToday.id}"`);
    for (const hidden of [draft, closed, past]) expect(html).not.toContain(hidden.title);
    // The demo's two open jobs are there, its draft and closed ones are not.
    expect(html).toContain('Senior care assistant (nights)');
    expect(html).not.toContain('Kitchen assistant');
    expect(html).toContain('£12.75 to £14.50 an hour');
  });

  it('shows a job on its own page with the form; a draft, closed or past job, or another agency’s, answers 404', async () => {
    const open = await newJob();
    const page = await get(`/careers/${SLUG}/jobs/${open.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<title>${open.title} – Brightway Staffing</title>`);
    expect(page.body.match(/<h1[ >]/g)).toHaveLength(1);
    expect(page.body).toContain(`<form method="post" action="/careers/${SLUG}/jobs/${open.id}/apply"`);
    const draft = await newJob(admin, {}, []);
    const closed = await newJob(admin, {}, ['open', 'close']);
    const past = await newJob(admin, { closing_date: addDaysToDate(today, -1) });
    const theirs = await newJob(otherAdmin);
    for (const j of [draft, closed, past, theirs]) {
      const res = await get(`/careers/${SLUG}/jobs/${j.id}`);
      expect(res.statusCode, j.title).toBe(404);
      expect(res.body).not.toContain(j.title);
      // Nor can anyone apply to it.
      const sent = await post(applyUrl(j.id), applicant());
      expect(sent.statusCode, j.title).toBe(404);
    }
    // The other agency's job is on its own board.
    expect((await get(`/careers/northern-care-recruitment/jobs/${theirs.id}`)).statusCode).toBe(200);
    expect((await get('/careers/no-such-agency')).statusCode).toBe(404);
    expect((await get(`/careers/no-such-agency/jobs/${open.id}`)).statusCode).toBe(404);
    expect((await get(`/careers/${SLUG}/jobs/not-a-number`)).statusCode).toBe(404);
  });
});

describe('applying', () => {
  it('creates the application at stage applied with its CV, audited, and queues the confirmation e-mail', async () => {
    const job = await newJob();
    const who = applicant();
    const res = await post(applyUrl(job.id), who, { bytes: PDF, name: 'my cv.pdf' });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/careers/${SLUG}/jobs/${job.id}/applied`);
    const [row] = await applications(who.last_name);
    expect(row).toMatchObject({
      job_id: job.id,
      stage: 'applied',
      email: who.email,
      right_to_work: 'yes',
      consent: true,
    });
    // The CV is a file of the store, owned by the application.
    const [file] = await t.db.query<Record<string, any>>('select * from files where id = $1', [row.cv]);
    expect(file).toMatchObject({
      name: 'my cv.pdf',
      mime: 'application/pdf',
      owner_resource: 'job_applications',
      owner_id: row.id,
      owner_field: 'cv',
      uploaded_by: null,
    });
    // Written by the job board's principal, in the audit trail.
    const [audit] = await t.db.query<Record<string, any>>(
      `select user_id, user_name, event from audit_log where resource = 'job_applications' and record_id = $1`,
      [row.id],
    );
    expect(audit).toMatchObject({ user_id: null, user_name: 'Public job board', event: 'create' });
    // The confirmation, through the outbox.
    const mails = await t.db.query<Record<string, any>>('select * from email_outbox where recipient = $1', [who.email]);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: `Your application for ${job.title}`, event: 'application_received' });
    expect(mails[0].text).toContain('Thank you for applying');
    // The page after it.
    const done = await get(res.headers.location as string);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('<h1>Application sent</h1>');
    // And the admin finds the applicant in the pipeline, with the CV.
    const list = await must(
      await call(t.app, admin, 'GET', `/api/job_applications?q=${encodeURIComponent(who.last_name)}`),
    );
    expect(list.data.map((a: { id: number }) => a.id)).toEqual([row.id]);
    const shown = (await must(await call(t.app, admin, 'GET', `/api/job_applications/${row.id}`))).data;
    expect(shown).toMatchObject({ stage: 'applied', cv: row.cv, cv_name: 'my cv.pdf' });
    const bytes = await call(t.app, admin, 'GET', `/api/files/${row.cv}`);
    expect(bytes.statusCode).toBe(200);
  });

  it('without consent or with fields missing, answers 422 with the errors in words next to each field, keeping nothing', async () => {
    const job = await newJob();
    const who = applicant({ consent: '', email: 'not an address', right_to_work: '' });
    const res = await post(applyUrl(job.id), who);
    expect(res.statusCode).toBe(422);
    expect(fieldError(res.body, 'consent')).toBe(
      'Tick the box to agree to your details being kept and used for your application',
    );
    expect(fieldError(res.body, 'right_to_work')).toBe('Say whether you have the right to work in the UK');
    expect(fieldError(res.body, 'email')).toBe('Invalid email address');
    expect(res.body).toContain('<title>Error: ');
    expect(res.body).toContain('There is a problem with your application');
    // What was typed is kept in the form, escaped.
    expect(res.body).toContain(`value="${who.last_name}"`);
    expect(res.body).toMatch(/id="email" name="email" value="not an address"[^>]*aria-invalid="true"/);
    expect(await applications(who.last_name)).toEqual([]);
    expect(await t.db.query('select 1 from email_outbox where recipient = $1', [who.email])).toEqual([]);
    // Only consent missing: still refused.
    const only = applicant({ consent: '' });
    expect((await post(applyUrl(job.id), only)).statusCode).toBe(422);
    expect(await applications(only.last_name)).toEqual([]);
  });

  it('stores HTML typed in the fields as text, and shows it as text', async () => {
    const job = await newJob();
    const last = `<img src=x onerror=alert(1)> ${uid()}`;
    const who = applicant({ first_name: '<b>Ada</b>', last_name: last });
    expect((await post(applyUrl(job.id), who)).statusCode).toBe(303);
    const [row] = await applications(last);
    expect(row.first_name).toBe('<b>Ada</b>');
    const [mail] = await t.db.query<{ html: string; text: string }>(
      'select html, text from email_outbox where recipient = $1',
      [who.email],
    );
    expect(mail.text).toContain('Dear <b>Ada</b>,');
    expect(mail.html).toContain('Dear &lt;b&gt;Ada&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Ada</b>');
    // Refused for another reason, the form shows what was typed as text.
    const again = await post(applyUrl(job.id), { ...who, consent: '' });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('value="&lt;b&gt;Ada&lt;/b&gt;"');
    expect(again.body).not.toContain('<b>Ada</b>');
  });

  // Two forms of over 10 MB built and parsed: minutes on a loaded machine, as the store's own 10 MB upload test.
  it(
    'refuses a CV over the file store’s limit with 413 and the words next to the CV field',
    { timeout: 120_000 },
    async () => {
      const job = await newJob();
      const big = new Uint8Array(10 * 1024 * 1024 + 1);
      big.set(PDF);
      const who = applicant();
      const res = await post(applyUrl(job.id), who, { bytes: big, name: 'huge.pdf' });
      expect(res.statusCode).toBe(413);
      expect(fieldError(res.body, 'cv')).toBe('The file is too large: your CV can be at most 10 MB.');
      expect(res.body).toContain(`value="${who.last_name}"`);
      expect(await applications(who.last_name)).toEqual([]);
      // Far over (the form itself over its limit): refused before it is read, still in words.
      const huge = new Uint8Array(11 * 1024 * 1024);
      huge.set(PDF);
      const far = await post(applyUrl(job.id), applicant(), { bytes: huge, name: 'huger.pdf' });
      expect(far.statusCode).toBe(413);
      expect(fieldError(far.body, 'cv')).toBe('The file is too large: your CV can be at most 10 MB.');
    },
  );

  it('refuses a CV the store does not take by its bytes (not by its name), in words next to the field', async () => {
    const job = await newJob();
    const who = applicant();
    const res = await post(applyUrl(job.id), who, {
      bytes: Buffer.from('<html><script>alert(1)</script></html>'),
      name: 'cv.pdf',
    });
    expect(res.statusCode).toBe(422);
    expect(fieldError(res.body, 'cv')).toBe('Only PDF, PNG, JPEG or WebP files can be uploaded.');
    expect(await applications(who.last_name)).toEqual([]);
    expect(
      await t.db.query(`select 1 from files where name like 'cv%' and uploaded_by is null and owner_id is null`),
    ).toEqual([]);
  });

  it('accepts a filled honeypot as if it were sent, and keeps and sends nothing', async () => {
    const job = await newJob();
    const who = applicant({ website: 'http://spam.example' });
    const res = await post(applyUrl(job.id), who, { bytes: PDF, name: 'spam.pdf' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/careers/${SLUG}/jobs/${job.id}/applied`);
    expect(await applications(who.last_name)).toEqual([]);
    expect(await t.db.query('select 1 from email_outbox where recipient = $1', [who.email])).toEqual([]);
  });

  it(`answers 429 to an address after ${APPLICATIONS_PER_HOUR} applications in the hour, and not to another address`, async () => {
    const job = await newJob();
    const from = nextAddress();
    for (let i = 0; i < APPLICATIONS_PER_HOUR; i++) {
      const res = await post(applyUrl(job.id), applicant(), undefined, from);
      expect(res.statusCode, res.body).toBe(303);
    }
    const who = applicant();
    const refused = await post(applyUrl(job.id), who, undefined, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).toContain('Too many applications have been sent from your connection');
    expect(await applications(who.last_name)).toEqual([]);
    // Another address is not held back.
    expect((await post(applyUrl(job.id), applicant(), undefined, nextAddress())).statusCode).toBe(303);
  });
});

describe('the staff detail fields the agency asks on its form', () => {
  const detail = async (fields: Record<string, unknown>) =>
    (
      await must(
        await call(t.app, admin, 'POST', '/api/staff_detail_fields', { position: 50, required: false, ...fields }),
        201,
      )
    ).data as { id: number; key: string };
  const drop = (id: number) => call(t.app, admin, 'DELETE', `/api/staff_detail_fields/${id}`);
  const move = async (id: number, action: string) =>
    must(
      await call(t.app, admin, 'POST', `/api/job_applications/${id}/actions/${action}`, {
        ...(action === 'interview' ? { interview_at: new Date(Date.now() + 86_400_000).toISOString() } : {}),
      }),
    );

  it('are on the form; a missing or wrong answer is refused beside it; the answers go to the staff member hired', async () => {
    const shoe = await detail({
      label: 'Shoe size',
      key: `shoe_${uid()}`,
      field_type: 'choice',
      options: '5, 6, 7, 8',
      required: true,
      on_application: true,
    });
    const locker = await detail({ label: 'Locker', key: `locker_${uid()}`, field_type: 'text' });
    const name = `detail-${shoe.key}`;
    try {
      const job = await newJob();
      const page = (await get(`/careers/${SLUG}/jobs/${job.id}`)).body;
      expect(page).toContain(`<label for="${name}">Shoe size</label>`);
      expect(page).toContain(`<select id="${name}" name="${name}" required><option value="">Choose…</option>`);
      expect(page).toContain('<option value="7">7</option>');
      // A staff detail field the agency does not ask on the form is not on it.
      expect(page).not.toContain(locker.key);

      const none = applicant();
      const missing = await post(applyUrl(job.id), none);
      expect(missing.statusCode).toBe(422);
      expect(fieldError(missing.body, name)).toBe('Choose “Shoe size”');
      expect(missing.body).toContain(`<li><a href="#${name}">Choose “Shoe size”</a></li>`);
      expect(await applications(none.last_name)).toEqual([]);
      const wrong = applicant({ [name]: '12' });
      const refused = await post(applyUrl(job.id), wrong);
      expect(refused.statusCode).toBe(422);
      expect(fieldError(refused.body, name)).toBeTruthy();
      expect(await applications(wrong.last_name)).toEqual([]);

      const who = applicant({ [name]: '7' });
      expect((await post(applyUrl(job.id), who)).statusCode).toBe(303);
      const [app] = await applications(who.last_name);
      expect(app.custom_fields).toEqual({ [shoe.key]: '7' });
      for (const a of ['screen', 'interview', 'offer']) await move(app.id, a);
      const hired = (await move(app.id, 'hire')).data;
      const staff = (await must(await call(t.app, admin, 'GET', `/api/candidates/${hired.candidate_id}`))).data;
      expect(staff.custom_fields[shoe.key]).toBe('7');
    } finally {
      await drop(shoe.id);
      await drop(locker.id);
    }
  });

  it('a detail every staff member needs that the form does not ask: the hire says so in words, and waits', async () => {
    const nin = await detail({ label: 'NI number', key: `nin_${uid()}`, field_type: 'text', required: true });
    try {
      const job = await newJob();
      const who = applicant();
      expect((await post(applyUrl(job.id), who)).statusCode).toBe(303);
      const [app] = await applications(who.last_name);
      for (const a of ['screen', 'interview', 'offer']) await move(app.id, a);
      const res = await call(t.app, admin, 'POST', `/api/job_applications/${app.id}/actions/hire`, {});
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(
        'Every staff member needs “NI number”, which this application does not give. Mark it “Asked on the application form” (Settings → Staff detail fields), then add the answer to this application (Edit) and hire again.',
      );
      expect((await applications(who.last_name))[0]).toMatchObject({ stage: 'offer', candidate_id: null });
    } finally {
      await drop(nin.id);
    }
  });
});

describe('agency slugs', () => {
  it('every demo agency has one, and a new agency takes its name’s, with a number after a name already taken', async () => {
    const rows = await t.db.query<{ company_name: string; slug: string }>(
      'select company_name, slug from merchants order by id',
    );
    expect(rows.slice(0, 2).map((r) => r.slug)).toEqual(['brightway-staffing', 'northern-care-recruitment']);
    const { createAgency } = await import('../../server/seed/index');
    const made = await t.db.transaction((tx) =>
      createAgency(tx, {
        companyName: 'Brightway  Staffing!',
        adminName: 'X',
        email: `x.${uid()}@x.example`,
        password: 'p4ssword-long',
      }),
    );
    const [m] = await t.db.query<{ slug: string }>('select slug from merchants where id = $1', [made.merchantId]);
    expect(m.slug).toBe('brightway-staffing-2');
  });
});
