// The demo's recruitment (issue 35): four vacancies (a draft, two open, one closed) and applicants at every stage of
// the pipeline, made as the agency makes them, through the engine (each move an audited action with its note).
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EnginePrincipal } from '../engine/context.js';
import { systemPrincipal, withEngine } from '../engine/handle.js';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime.js';

const JOBS = [
  {
    title: 'Senior care assistant (nights)',
    role: 'Senior Carer',
    location: 'Leeds',
    pay_min: 1350,
    pay_max: 1550,
    hours: '36 hours a week, nights',
    description: 'Lead a small night team in a residential care home. NVQ level 3 in care preferred.',
    closes: 21,
    moves: ['open'],
  },
  {
    title: 'Registered nurse (bank)',
    role: 'Registered Nurse',
    location: 'Bradford',
    pay_min: 2400,
    pay_max: 2900,
    hours: 'Flexible shifts, days and nights',
    description: 'NMC-registered nurses for nursing homes across West Yorkshire. Choose the shifts you work.',
    closes: 30,
    moves: ['open'],
  },
  {
    title: 'Kitchen assistant',
    role: null,
    location: 'Wakefield',
    pay_min: 1221,
    pay_max: null,
    hours: '20 hours a week, weekdays',
    description: 'Help the cook prepare meals for residents. Food hygiene certificate an advantage.',
    closes: 45,
    moves: [],
  },
  {
    title: 'Healthcare assistant (days)',
    role: 'Healthcare Assistant',
    location: 'Leeds',
    pay_min: 1250,
    pay_max: 1400,
    hours: '37.5 hours a week, days',
    description: 'Day shifts on a hospital ward. Experience in personal care needed.',
    closes: -7,
    moves: ['open', 'close'],
  },
] as const;

/** Applicants: the job they applied for (by position above) and the moves that brought them to their stage. */
const APPLICANTS = [
  { job: 0, first: 'Amara', last: 'Nwosu', rtw: 'yes', moves: [] },
  { job: 0, first: 'Piotr', last: 'Kowalski', rtw: 'share_code', moves: ['screen'] },
  { job: 1, first: 'Grace', last: 'Mensah', rtw: 'share_code', moves: ['screen', 'interview'] },
  { job: 1, first: 'Daniel', last: 'Hughes', rtw: 'yes', moves: ['screen', 'interview', 'offer'] },
  { job: 3, first: 'Sophie', last: 'Turner', rtw: 'yes', moves: ['screen', 'interview', 'offer', 'hire'] },
  { job: 3, first: 'Liam', last: 'Byrne', rtw: 'no', moves: ['reject'] },
  // At the agency's own stage, Reference check.
  { job: 1, first: 'Hannah', last: 'Patel', rtw: 'yes', moves: ['screen', 'interview', 'offer', 'move'] },
] as const;

/** The demo agency's pipeline: the product's stages with one of its own, Reference check, before hiring. */
const STAGES = [
  { id: 'applied', label: 'Applied' },
  { id: 'screening', label: 'Screening' },
  { id: 'interview', label: 'Interview' },
  { id: 'offer', label: 'Offer' },
  { id: 'custom_1', label: 'Reference check' },
  { id: 'hired', label: 'Hired' },
  { id: 'rejected', label: 'Rejected' },
];

const NOTES: Record<string, string> = {
  screen: 'CV and right to work answer checked.',
  interview: 'Interview booked with the branch manager.',
  offer: 'Offered the role subject to references and DBS.',
  hire: 'Accepted the offer.',
  reject: 'No right to work in the UK.',
  move: 'Offer accepted; asking the two referees.',
};

/**
 * The demo's interviews: the applicant still at interview meets the branch manager tomorrow at 10:00 (an upcoming
 * diary note), the ones who moved on were interviewed a week or two ago (the diary's history).
 */
function interviewOf(applicant: number, now: Date) {
  const days = applicant === 2 ? 1 : -7 * (applicant - 1);
  const at = new Date(now.getTime() + days * 86_400_000);
  at.setUTCHours(10, 0, 0, 0);
  return { interview_at: at.toISOString(), interview_with: 'The branch manager', interview_where: 'The Leeds office' };
}

export async function seedRecruitment(db: Queryable, ctx: SeedContext) {
  const admin: EnginePrincipal = { ...systemPrincipal(ctx.merchantId), userId: ctx.adminId, name: ctx.adminName };
  const when = new Date();
  const today = agencyToday(ctx.timeZone, when);
  const { engine } = withEngine({ db, principal: admin, now: when, timeZone: ctx.timeZone, today }, ctx.engine);
  const roles = await db.query<{ id: number; name: string }>(
    `select id, name from job_roles where merchant_id = $1 order by id`,
    [ctx.merchantId],
  );
  const roleId = (name: string | null) => (name ? (roles.find((r) => r.name === name)?.id ?? null) : null);
  await engine.create('recruitment_settings', { stages: STAGES });
  const jobIds: number[] = [];
  for (const j of JOBS) {
    const job = await engine.create('vacancies', {
      title: j.title,
      job_role_id: roleId(j.role),
      location: j.location,
      pay_min: j.pay_min,
      pay_max: j.pay_max,
      hours: j.hours,
      description: j.description,
      closing_date: addDaysToDate(today, j.closes),
    });
    for (const m of j.moves) await engine.act('vacancies', Number(job.id), m);
    jobIds.push(Number(job.id));
  }
  for (const a of APPLICANTS) {
    const application = await engine.create('job_applications', {
      job_id: jobIds[a.job],
      first_name: a.first,
      last_name: a.last,
      email: `${a.first}.${a.last}@applicant.example`.toLowerCase(),
      phone: '07700 900' + String(100 + APPLICANTS.indexOf(a)),
      right_to_work: a.rtw,
      consent: true,
      // The staff detail field the demo agency asks on its application form.
      custom_fields: { uniform_size: ['M', 'L', 'S', 'XL'][APPLICANTS.indexOf(a) % 4] },
    });
    for (const m of a.moves)
      await engine.act('job_applications', Number(application.id), m, {
        note: NOTES[m],
        ...(m === 'interview' ? interviewOf(APPLICANTS.indexOf(a), when) : {}),
        ...(m === 'move' ? { to_stage: 'custom_1' } : {}),
      });
  }
}
