import { HttpError } from '../http.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import { copyFile, deleteFilesOf, fileNameSql } from '../files/store.js';
import { customFieldsOf } from '../engine/customFields.js';
import { notify } from '../notifications/notify.js';
import type { RecordValues } from '../../core/engine/types.js';
import {
  APPLICATION_RECEIVED,
  STAGE_EMAIL_PREFIX,
  stageEmailEvent,
  type StageEmailStage,
} from '../../core/domain/notifications/events.js';
import { stageLabel, stagesOf } from '../../core/domain/recruitment/stages.js';
import { DEFAULT_TIME_ZONE, formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime.js';

/** The document category a hired applicant's CV is filed under: the agency's own of this name, made when missing. */
export const CV_CATEGORY = {
  name: 'CV',
  description: 'The CV a staff member sent when they applied (added when they were hired).',
  mandatory: false,
  validity_months: null,
};

/**
 * The agency's CV document category (its name, in any case), made through the engine the first time a hire needs it:
 * not required of anyone and never expiring, so it changes no staff member's compliance.
 */
async function cvCategoryId(ctx: EngineContext): Promise<number> {
  const [found] = await ctx.db.query<{ id: number }>(
    'select id from document_categories where merchant_id = $1 and lower(name) = lower($2) order by id limit 1',
    [ctx.principal.merchantId, CV_CATEGORY.name],
  );
  if (found) return found.id;
  return (await ctx.engine.create('document_categories', CV_CATEGORY, { reason: 'For hired applicants’ CVs' })).id;
}

/** The application's job and the agency's clock: what the stage e-mail and the diary note say. */
async function contextOf(ctx: EngineContext, record: RecordValues) {
  const [row] = await ctx.db.query<{ title: string; time_zone: string | null }>(
    `select v.title, m.time_zone from vacancies v join merchants m on m.id = v.merchant_id
      where v.merchant_id = $1 and v.id = $2`,
    [ctx.principal.merchantId, record.job_id],
  );
  return { jobTitle: row?.title ?? 'the job', timeZone: row?.time_zone || DEFAULT_TIME_ZONE };
}

/** An interview's time on the agency's clock, as the e-mail and the diary say it. */
function interviewWhen(at: unknown, timeZone: string) {
  const z = instantToZoned(new Date(String(at)), timeZone);
  return { interview_date: formatDisplayDate(z.date), interview_time: z.time };
}

/**
 * Tells the applicant of the stage their application was moved to, by the stage's event (its template and channels
 * the agency's notification settings, an agency turning it off included), queued in the outbox in the action's
 * transaction: a refused move sends nothing.
 */
async function stageEmail(
  ctx: EngineContext,
  record: RecordValues,
  stage: StageEmailStage,
  input: RecordValues,
  /** The stage's own values for its template: the interview's date, time and place; an own stage's name. */
  extra?: Record<string, unknown>,
) {
  const { jobTitle } = await contextOf(ctx, record);
  const name = `${String(record.first_name)} ${String(record.last_name)}`;
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: stageEmailEvent(stage),
    title: `Your application for ${jobTitle}`,
    body: `${name}: ${stage}`,
    audience: { applicationId: Number(record.id) },
    data: {
      applicant_name: name,
      first_name: record.first_name,
      job_title: jobTitle,
      note: typeof input.note === 'string' ? input.note : '',
      ...extra,
    },
  });
}

/**
 * An interview booked or moved: the diary note that shows it on its day (the agency's diary, written through the
 * engine, audited as any note), the application's one, moved when rescheduled (a new one if that was deleted from
 * the diary meanwhile), and the applicant's interview e-mail with the date. Rejecting or hiring later leaves the note
 * as the diary's history.
 */
async function bookInterview(ctx: EngineContext, record: RecordValues, input: RecordValues) {
  const { jobTitle, timeZone } = await contextOf(ctx, record);
  const name = `${String(record.first_name)} ${String(record.last_name)}`;
  const withWhom = typeof input.interview_with === 'string' ? input.interview_with.trim() : '';
  const where = typeof input.interview_where === 'string' ? input.interview_where.trim() : '';
  const note = {
    title: `Interview: ${name} for ${jobTitle}`.slice(0, 200),
    note_at: input.interview_at,
    body: [
      `Interview with ${name} (${String(record.email)}${record.phone ? `, ${String(record.phone)}` : ''}) for ${jobTitle}.`,
      withWhom && `Interviewed by: ${withWhom}`,
      where && `Where: ${where}`,
      `The application: /recruitment/staffs/${String(record.id)}/show`,
    ]
      .filter(Boolean)
      .join('\n'),
  };
  const [current] = record.interview_note_id
    ? await ctx.db.query<{ id: number }>(
        'select id from diary_notes where merchant_id = $1 and id = $2 and deleted_at is null',
        [ctx.principal.merchantId, record.interview_note_id],
      )
    : [];
  const noteId = current
    ? (
        await ctx.engine.update('diary_notes', current.id, note, {
          reason: `Interview of application ${record.id} moved`,
        })
      ).id
    : (await ctx.engine.create('diary_notes', note, { reason: `Interview of application ${record.id}` })).id;
  await stageEmail(ctx, record, 'interview', input, {
    ...interviewWhen(input.interview_at, timeZone),
    interviewer: withWhom || 'our recruitment team',
    interview_place: where || 'we will confirm where',
  });
  return { interview_note_id: noteId };
}

/**
 * Hiring an applicant (issue 35): the applicant becomes a pending staff member with the application's name and
 * contact details, made through the engine (validated, versioned and audited as any new staff member), and the
 * application keeps who they became. Once only: the lifecycle makes hired final, the declaration's guard refuses an
 * application that already has its staff member, and a staff member already holding the e-mail is refused in words
 * rather than as the staff list's own duplicate. The application's CV, when it has one, becomes the staff member's
 * document (category CV, awaiting the agency's check): a copy of the file, as a file belongs to one record and the
 * application may later be erased.
 */
export const jobApplicationsBehaviour: ResourceBehaviour = {
  computed: { cv_name: () => fileNameSql('job_applications', 'cv') },
  // An application is erased, not hidden (an agency user's delete, or the retention job): its CV goes with it. A hired
  // applicant's staff document is a copy of its own and stays.
  async afterDelete(ctx, row) {
    await deleteFilesOf(ctx.db, ctx.principal.merchantId, 'job_applications', Number(row.id));
    // What the applicant was e-mailed (the confirmation, each stage's e-mail) named them and their application: erased
    // with them, unless another of their applications stays (the outbox does not say which application a message was
    // about, so those wait for the last of them).
    const [another] = await ctx.db.query(
      'select 1 from job_applications where merchant_id = $1 and lower(email) = lower($2) and id <> $3 limit 1',
      [ctx.principal.merchantId, row.email, row.id],
    );
    if (!another) {
      const mails = await ctx.db.query<{ id: number }>(
        `select id from email_outbox where merchant_id = $1 and lower(recipient) = lower($2) and (event = $3 or event like $4)
          order by id`,
        [ctx.principal.merchantId, row.email, APPLICATION_RECEIVED, `${STAGE_EMAIL_PREFIX}%`],
      );
      // A message still queued goes too: its delivery job skips an id it no longer finds.
      if (mails.length)
        await ctx.engine.deleteMany(
          'email_outbox',
          mails.map((m) => m.id),
          { reason: 'The application was erased' },
        );
    }
    // The interview's diary note names the applicant: erased with them, its words first, in the note and its trail (a
    // diary note is hidden, not removed, when deleted).
    if (row.interview_note_id) {
      const [note] = await ctx.db.query<{ id: number }>(
        'select id from diary_notes where merchant_id = $1 and id = $2 and deleted_at is null',
        [ctx.principal.merchantId, row.interview_note_id],
      );
      if (note) {
        const reason = 'The application was erased';
        await ctx.engine.update(
          'diary_notes',
          note.id,
          { title: 'Interview (application erased)', body: null },
          { reason },
        );
        // Its trail named the applicant too (the create's and that update's title and text).
        await ctx.engine.eraseFromTrail('diary_notes', note.id, ['title', 'body'], { reason });
        await ctx.engine.remove('diary_notes', note.id, { reason });
      }
    }
  },
  actions: {
    screen: async (ctx, record, input) => void (await stageEmail(ctx, record, 'screening', input)),
    interview: bookInterview,
    reschedule: bookInterview,
    offer: async (ctx, record, input) => void (await stageEmail(ctx, record, 'offer', input)),
    reject: async (ctx, record, input) => void (await stageEmail(ctx, record, 'rejected', input)),
    // To one of the agency's own stages: one its list names now (read under a share lock, so a stage being removed
    // meanwhile waits for this move, then sees the applicant and refuses), other than the one the applicant is at.
    async move(ctx, record, input) {
      const [row] = await ctx.db.query<{ stages: unknown }>(
        'select stages from recruitment_settings where merchant_id = $1 for share',
        [ctx.principal.merchantId],
      );
      const stages = stagesOf(row?.stages);
      const to = String(input.to_stage);
      if (!stages.some((s) => s.id === to))
        throw new HttpError(422, 'Choose one of your pipeline’s stages', {
          to_stage: 'Choose one of your pipeline’s stages',
        });
      if (to === record.stage) throw new HttpError(409, `This applicant is already at ${stageLabel(stages, to)}.`);
      // The stage's own e-mail, if the agency switched it on, naming the stage as the agency does.
      await stageEmail(ctx, record, to as StageEmailStage, input, { stage: stageLabel(stages, to) });
      return { stage: to };
    },
    async hire(ctx, record) {
      const email = String(record.email);
      const [existing] = await ctx.db.query<{ name: string }>(
        `select first_name || ' ' || last_name as name from candidates
          where merchant_id = $1 and lower(email) = lower($2) and deleted_at is null limit 1`,
        [ctx.principal.merchantId, email],
      );
      if (existing) throw new HttpError(409, `${existing.name} is already a staff member with the e-mail ${email}.`);
      // The application's answers to the staff detail fields it asked become the staff member's; a detail every staff
      // member must have that the application did not ask is said in words, with where to ask it.
      const answers = (record.custom_fields ?? {}) as Record<string, unknown>;
      const missing = (await customFieldsOf(ctx, ctx.engine.compiled('candidates'))).filter(
        (d) => d.required && d.field_type !== 'boolean' && (answers[d.key] ?? '') === '',
      );
      if (missing.length)
        throw new HttpError(
          422,
          `Every staff member needs ${missing.map((d) => `“${d.label}”`).join(' and ')}, which this application does not give. Mark ${missing.length === 1 ? 'it' : 'them'} “Asked on the application form” (Settings → Staff detail fields), then add the answer to this application (Edit) and hire again.`,
        );
      const staff = await ctx.engine.create('candidates', {
        first_name: record.first_name,
        last_name: record.last_name,
        email,
        phone: record.phone ?? null,
        custom_fields: answers,
      });
      if (record.cv) {
        const file = await copyFile(ctx.db, ctx.principal.merchantId, String(record.cv), ctx.principal.userId);
        if (file)
          await ctx.engine.create(
            'candidate_documents',
            { candidate_id: staff.id, document_category_id: await cvCategoryId(ctx), file },
            { reason: `The CV of application ${record.id}` },
          );
      }
      return { candidate_id: staff.id };
    },
  },
};
