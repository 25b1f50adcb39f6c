import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// The agency's own pipeline stages (issue 35, /recruitment/settings): the product's six renamed and reordered, stages
// of its own added, an applicant moved to one by the declared `move` action with a note (never a PUT of the stage),
// and on from there; a stage still holding applicants is refused removal in words; another agency keeps its own.
let t: TestApp;
let admin: string;
let consultant: string;
let otherAdmin: string;
let n = 0;
const uid = () => `${Date.now().toString(36)}${++n}`;

async function must(res: { statusCode: number; body: string; json(): any }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
const act = (token: string, id: number, action: string, body: Record<string, unknown> = {}) =>
  call(t.app, token, 'POST', `/api/job_applications/${id}/actions/${action}`, {
    ...(action === 'interview' ? { interview_at: new Date(Date.now() + 86_400_000).toISOString() } : {}),
    ...body,
  });
const settings = async (token = admin) =>
  (await must(await call(t.app, token, 'GET', '/api/recruitment_settings'))).data;
const save = (stages: unknown, version: number, token = admin) =>
  call(t.app, token, 'PUT', '/api/recruitment_settings', { stages, version });

async function applicant(moves: string[] = []) {
  const job = (
    await must(await call(t.app, admin, 'POST', '/api/vacancies', { title: `Carer ${uid()}`, location: 'Leeds' }), 201)
  ).data;
  const u = uid();
  const app = (
    await must(
      await call(t.app, consultant, 'POST', '/api/job_applications', {
        job_id: job.id,
        first_name: 'Rhea',
        last_name: `Pipeline${u}`,
        email: `rhea.${u}@applicant.example`,
        right_to_work: 'yes',
        consent: true,
      }),
      201,
    )
  ).data;
  for (const m of moves) await must(await act(consultant, app.id, m));
  return app;
}

const BUILT_IN = ['applied', 'screening', 'interview', 'offer', 'hired', 'rejected'];

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'otherAdmin'),
  ]);
});
afterAll(() => t?.close());

describe('the agency’s pipeline stages', () => {
  it('the demo has a stage of its own with an applicant at it', async () => {
    const s = await settings();
    expect(s.stages.map((x: { label: string }) => x.label)).toEqual([
      'Applied',
      'Screening',
      'Interview',
      'Offer',
      'Reference check',
      'Hired',
      'Rejected',
    ]);
    const at = await must(await call(t.app, admin, 'GET', '/api/job_applications?stage=custom_1&per_page=50'));
    expect(at.data.map((a: { first_name: string }) => a.first_name)).toContain('Hannah');
  });

  it('are renamed, reordered and added to; an applicant moves to an own stage with a note, and on to hired', async () => {
    const before = await settings();
    const stages = [
      { id: 'applied', label: 'New' },
      { id: 'custom_2', label: '  Trial shift ' },
      { id: 'screening', label: 'Phone screen' },
      { id: 'interview', label: 'Interview' },
      { id: 'offer', label: 'Offer' },
      { id: 'custom_1', label: 'Reference check' },
      { id: 'hired', label: 'Hired' },
      { id: 'rejected', label: 'Not this time' },
    ];
    const saved = (await must(await save(stages, before.version))).data;
    expect(saved.stages[1]).toEqual({ id: 'custom_2', label: 'Trial shift' });
    expect((await settings(consultant)).stages.map((x: { id: string }) => x.id)).toEqual(stages.map((x) => x.id));

    const app = await applicant();
    const moved = (await must(await act(consultant, app.id, 'move', { to_stage: 'custom_2', note: 'Shift on Friday' })))
      .data;
    expect(moved).toMatchObject({ stage: 'custom_2', stage_note: 'Shift on Friday' });
    // Never by a PUT of the stage; not to the stage it is at; not to a slot the agency does not list.
    expect((await call(t.app, admin, 'PUT', `/api/job_applications/${app.id}`, { stage: 'custom_1' })).statusCode).toBe(
      422,
    );
    const again = await act(consultant, app.id, 'move', { to_stage: 'custom_2' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already at Trial shift/);
    const unlisted = await act(consultant, app.id, 'move', { to_stage: 'custom_5' });
    expect(unlisted.statusCode).toBe(422);
    expect(unlisted.json().errors.to_stage).toMatch(/your pipeline’s stages/);
    expect((await act(consultant, app.id, 'move', { to_stage: 'hired' })).statusCode).toBe(422);
    // From an own stage the product's steps go on: screening, then on to hire from Reference check.
    await must(await act(consultant, app.id, 'screen'));
    await must(await act(consultant, app.id, 'move', { to_stage: 'custom_1' }));
    const hired = (await must(await act(admin, app.id, 'hire'))).data;
    expect(hired.stage).toBe('hired');
    expect(hired.candidate_id).toBeTruthy();
    // Hired is final: no move from it.
    expect((await act(consultant, app.id, 'move', { to_stage: 'custom_2' })).statusCode).toBe(409);
    // The move is in the application's history, with its note.
    const trail = await must(
      await call(t.app, admin, 'GET', `/api/audit_entries?resource=job_applications&record_id=${app.id}&per_page=50`),
    );
    expect(JSON.stringify(trail.data)).toContain('Shift on Friday');
  });

  it('refuses a list that drops or misplaces a product stage, names two alike or is unknown, in words', async () => {
    const { version } = await settings();
    const base = BUILT_IN.map((id) => ({ id, label: id[0].toUpperCase() + id.slice(1) }));
    const refused = async (stages: unknown, words: RegExp) => {
      const res = await save(stages, version);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.stages).toMatch(words);
    };
    await refused(
      base.filter((s) => s.id !== 'offer'),
      /Offer stage cannot be removed/,
    );
    await refused([base[1], base[0], ...base.slice(2)], /Applied comes first/);
    await refused([...base.slice(0, 4), base[5], base[4]], /Hired and Rejected come last/);
    await refused([base[0], { id: 'custom_3', label: 'offer' }, ...base.slice(1)], /Two stages are called/);
    await refused([base[0], { id: 'custom_9', label: 'Extra' }, ...base.slice(1)], /not a stage this product knows/);
    await refused([base[0], { id: 'custom_3', label: ' ' }, ...base.slice(1)], /needs a name/);
    // A consultant reads them and saves nothing.
    expect((await save(base, version, consultant)).statusCode).toBe(403);
  });

  it('a stage still holding applicants cannot be removed; once they moved on, it can', async () => {
    const { version, stages } = await settings();
    const withOwn = [stages[0], { id: 'custom_3', label: 'Driving check' }, ...stages.slice(1)];
    const v = (await must(await save(withOwn, version))).data.version;
    const app = await applicant();
    await must(await act(consultant, app.id, 'move', { to_stage: 'custom_3' }));
    const res = await save(stages, v);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.stages).toBe(
      'Driving check cannot be removed: 1 applicant is at it. Move them to another stage first.',
    );
    expect((await settings()).stages.map((s: { id: string }) => s.id)).toContain('custom_3');
    await must(await act(consultant, app.id, 'reject', { note: 'Could not drive' }));
    // Rejected from an own stage; the applicant no longer holds it.
    await must(await save(stages, v));
    expect((await settings()).stages.map((s: { id: string }) => s.id)).not.toContain('custom_3');
  });

  it('an own stage e-mails the applicant only once the agency switches it on, naming the stage its way', async () => {
    const { version, stages } = await settings();
    const withOwn = [stages[0], { id: 'custom_4', label: 'Uniform fitting' }, ...stages.slice(1)];
    const v = (await must(await save(withOwn, version))).data.version;
    const mails = (email: string) =>
      t.db.query<{ subject: string; text: string }>(
        `select subject, text from email_outbox where recipient = $1 and event = 'application.custom_4' order by id`,
        [email],
      );
    const setting = (channels: string[]) =>
      call(t.app, admin, 'PUT', '/api/notification_settings/application.custom_4', {
        channels,
        recipients: ['applicant'],
      });
    try {
      const quiet = await applicant();
      await must(await act(consultant, quiet.id, 'move', { to_stage: 'custom_4' }));
      expect(await mails(quiet.email)).toEqual([]);

      await must(await setting(['email']));
      const told = await applicant();
      await must(await act(consultant, told.id, 'move', { to_stage: 'custom_4', note: 'Bring your ID' }));
      const [mail] = await mails(told.email);
      expect(mail.subject).toMatch(/^Your application for Carer /);
      expect(mail.text).toContain('has moved on to the next step: Uniform fitting.');
      // Each own stage is a template of its own, named on the settings page by the stage; a slot the pipeline does
      // not use is not offered.
      const events = (await must(await call(t.app, admin, 'GET', '/api/notification_settings'))).events;
      expect(events.find((e: { key: string }) => e.key === 'application.custom_4')).toMatchObject({
        label: 'Applicant moved to Uniform fitting',
        channels: ['email'],
        recipient_choices: ['applicant'],
      });
      expect(events.map((e: { key: string }) => e.key)).not.toContain('application.custom_6');
      await must(await act(consultant, quiet.id, 'reject'));
      await must(await act(consultant, told.id, 'reject'));
    } finally {
      await setting([]);
      await save(stages, v);
    }
  });

  it('another agency keeps its own stages, and cannot move agency A’s applicant', async () => {
    const app = await applicant();
    expect((await act(otherAdmin, app.id, 'move', { to_stage: 'custom_1' })).statusCode).toBe(404);
    const theirs = await settings(otherAdmin);
    expect(theirs.stages.map((s: { label: string }) => s.label)).not.toContain('Trial shift');
  });
});
