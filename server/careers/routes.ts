// The agency's public job board (issue 35): /careers/{slug} lists its open jobs, /careers/{slug}/jobs/{id} shows one
// with its application form, which posts (multipart, so the CV comes with it) to …/apply. No sign-in: these are
// pages, public like the app's own, and never part of the API. An application is written through the engine as the
// job board's own principal (validated, audited), with its CV in the file store and a confirmation in the outbox.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.js';
import { HttpError } from '../http.js';
import { ApiRateLimit } from '../auth/rateLimit.js';
import { agencyZone } from '../engine/routes.js';
import { withEngine } from '../engine/handle.js';
import type { EnginePrincipal } from '../engine/context.js';
import { saveUpload } from '../files/store.js';
import { APPLICATION_RECEIVED } from '../../core/domain/notifications/events.js';
import { queueEmails, renderEmail } from '../notifications/outbox.js';
import { letterheadOf } from '../documents/letterhead.js';
import { agencyToday } from '../../core/domain/time/agencyTime.js';
import { FILE_LIMITS, FILE_LIMIT_LABELS } from '../../core/engine/files.js';
import { RIGHT_TO_WORK } from '../../core/resources/recruitment/resource.js';
import {
  appliedPage,
  askedName,
  boardPage,
  HONEYPOT,
  jobPage,
  messagePage,
  type BoardAgency,
  type BoardJob,
} from './pages.js';
import { customFieldsOf } from '../engine/customFields.js';

/** Applications one address may send in an hour; the next is refused (429) until its hour is over. */
export const APPLICATIONS_PER_HOUR = 10;
/** Room in a form's body for its other fields, besides a CV of the largest size the file store takes. */
const FORM_ROOM = 64 * 1024;

/** The job board as the author of an application: no user; the audit trail names it. */
export const jobBoardPrincipal = (merchantId: number): EnginePrincipal => ({
  userId: 0,
  name: 'Public job board',
  loginType: 'agency',
  role: 'admin',
  merchantId,
  clientId: null,
});

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

async function agencyOf(db: Queryable, slug: string): Promise<BoardAgency | null> {
  if (!SLUG.test(slug) || slug.length > 100) return null;
  const [a] = await db.query<BoardAgency>('select id, company_name as name, slug from merchants where slug = $1', [
    slug,
  ]);
  return a ?? null;
}

/**
 * The agency's jobs as the board shows them: open, not deleted, and not past their closing date in the agency's own
 * time zone (a job closing today takes applications all day). `id` narrows to one.
 */
async function openJobs(db: Queryable, agency: BoardAgency, now: Date, id?: number): Promise<BoardJob[]> {
  const today = agencyToday(await agencyZone(db, agency.id), now);
  return db.query<BoardJob>(
    `select v.id, v.title, v.location, v.pay_min::int as pay_min, v.pay_max::int as pay_max, v.hours, v.description,
            to_char(v.closing_date, 'YYYY-MM-DD') as closing_date, r.name as role
       from vacancies v
       left join job_roles r on r.merchant_id = v.merchant_id and r.id = v.job_role_id
      where v.merchant_id = $1 and v.status = 'open' and v.deleted_at is null
        and (v.closing_date is null or v.closing_date >= $2::date)
        and ($3::int is null or v.id = $3::int)
      order by v.created_at desc, v.id desc
      limit 200`,
    [agency.id, today, id ?? null],
  );
}

const idOf = (raw: string) => (/^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : null);

class NotOnBoard extends Error {
  constructor(public agency: BoardAgency | null) {
    super('Not on the board');
  }
}

/** The agency and the open job a path names, or NotOnBoard (answered 404). */
async function jobOf(app: FastifyInstance, params: { slug: string; id: string }) {
  const agency = await agencyOf(app.db, params.slug);
  const id = idOf(params.id);
  if (!agency || id === null) throw new NotOnBoard(agency);
  const [job] = await openJobs(app.db, agency, app.clock(), id);
  if (!job) throw new NotOnBoard(agency);
  return { agency, job };
}

/** The staff detail fields the agency asks on its application form: the ones the engine checks an application's by. */
const askedOf = (app: FastifyInstance, agency: BoardAgency) =>
  customFieldsOf({ db: app.db, principal: jobBoardPrincipal(agency.id) }, app.engine.get('job_applications')!);

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    // The board changes as jobs open and close; a form page may hold what the applicant typed.
    .header('cache-control', 'no-store')
    .send(body);

/** A part of the form as text (a file sent in a text field is not text: empty). */
const textPart = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
};

// The public form's own words for what is missing; what is sent is then the engine's to judge (its words).
const MISSING: Record<string, string> = {
  first_name: 'Enter your first name',
  last_name: 'Enter your last name',
  email: 'Enter your e-mail address',
  right_to_work: 'Say whether you have the right to work in the UK',
  consent: 'Tick the box to agree to your details being kept and used for your application',
};

type Params = { slug: string; id: string };

export async function careerRoutes(app: FastifyInstance) {
  const limit = new ApiRateLimit({
    perMinute: APPLICATIONS_PER_HOUR,
    windowSeconds: 3600,
    // Beside the API's counts in the same table: its own keys, and a test app's own namespace as the API's.
    namespace: `careers:${app.rateLimitNamespace}`,
  });
  app.addHook('onClose', () => limit.close(app.db));

  await app.register(async (board) => {
    // Every page here is public: no session is asked for or read.
    board.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    // The form's body: its fields and a CV, read whole (up to the largest file the store takes, and the fields).
    board.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: FILE_LIMITS.document + FORM_ROOM },
      (_req, body, done) => done(null, body),
    );
    // Refusals as pages in words, never the API's JSON.
    board.setErrorHandler(async (err: Error & { code?: string; statusCode?: number }, req, reply) => {
      const params = req.params as Params;
      if (err instanceof NotOnBoard)
        return html(
          reply,
          404,
          messagePage(
            err.agency,
            'Job not found',
            err.agency
              ? 'This job is not open for applications. It may have closed: see the open jobs on this board.'
              : 'There is no job board at this address.',
          ),
        );
      if (err instanceof HttpError && err.status === 429) {
        const minutes = Math.max(1, Math.ceil(Number(reply.getHeader('retry-after') ?? 60) / 60));
        return html(
          reply,
          429,
          messagePage(
            await agencyOf(app.db, params.slug ?? ''),
            'Too many applications',
            `Too many applications have been sent from your connection. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
          ),
        );
      }
      // The whole form over the limit (a CV far too large): not read, so the form is shown again empty.
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || (err instanceof HttpError && err.status === 413)) {
        // Sent to a job that is not on the board: that is the answer, whatever its size.
        const found = await jobOf(app, params).catch((e: unknown) => {
          if (e instanceof NotOnBoard) return e;
          throw e;
        });
        if (found instanceof NotOnBoard)
          return html(reply, 404, messagePage(found.agency, 'Job not found', 'This job is not open for applications.'));
        const { agency, job } = found;
        return html(
          reply,
          413,
          jobPage(agency, job, await askedOf(app, agency), {
            values: {},
            errors: { cv: `The file is too large: your CV can be at most ${FILE_LIMIT_LABELS.document}.` },
          }),
        );
      }
      throw err;
    });

    board.get<{ Params: { slug: string } }>('/careers/:slug', { schema: { hide: true } }, async (req, reply) => {
      const agency = await agencyOf(app.db, req.params.slug);
      if (!agency) throw new NotOnBoard(null);
      return html(reply, 200, boardPage(agency, await openJobs(app.db, agency, app.clock())));
    });

    board.get<{ Params: Params }>('/careers/:slug/jobs/:id', { schema: { hide: true } }, async (req, reply) => {
      const { agency, job } = await jobOf(app, req.params);
      return html(reply, 200, jobPage(agency, job, await askedOf(app, agency)));
    });

    board.get<{ Params: Params }>('/careers/:slug/jobs/:id/applied', { schema: { hide: true } }, async (req, reply) => {
      const { agency, job } = await jobOf(app, req.params);
      return html(reply, 200, appliedPage(agency, job));
    });

    board.post<{ Params: Params; Body: Buffer }>(
      '/careers/:slug/jobs/:id/apply',
      {
        schema: { hide: true },
        bodyLimit: FILE_LIMITS.document + FORM_ROOM,
        // Counted per address before anything is read: a refused sender costs no parsing nor memory.
        onRequest: async (req, reply) => limit.check(app.db, req, reply),
        // Too large by what it says it is: refused before its bytes are read.
        preParsing: async (req, _reply, payload) => {
          if (Number(req.headers['content-length']) > FILE_LIMITS.document + FORM_ROOM)
            throw new HttpError(413, 'The file is too large.');
          return payload;
        },
      },
      async (req, reply) => {
        const { agency, job } = await jobOf(app, req.params);
        const type = String(req.headers['content-type'] ?? '');
        let form: FormData;
        try {
          if (!type.startsWith('multipart/form-data') || !Buffer.isBuffer(req.body)) throw new Error('not a form');
          form = await new Response(req.body, { headers: { 'content-type': type } }).formData();
        } catch {
          return html(
            reply,
            400,
            messagePage(
              agency,
              'Application not sent',
              'The form could not be read. Please go back and send it again.',
            ),
          );
        }
        return apply(req, reply, agency, job, form);
      },
    );
  });

  async function apply(req: FastifyRequest, reply: FastifyReply, agency: BoardAgency, job: BoardJob, form: FormData) {
    const done = `/careers/${agency.slug}/jobs/${job.id}/applied`;
    // A filled honeypot is a robot's: answered as a success, so it learns nothing, and nothing is kept or sent.
    if (textPart(form, HONEYPOT).trim() !== '') return reply.redirect(done, 303);
    const values: Record<string, string> = {};
    for (const f of ['first_name', 'last_name', 'email', 'phone', 'right_to_work', 'consent'])
      values[f] = textPart(form, f);
    const errors: Record<string, string> = {};
    for (const [f, words] of Object.entries(MISSING)) if (!values[f].trim()) errors[f] = words;
    // The agency's own fields: as typed (shown again if refused), and as the engine checks them (a yes/no is a tick).
    const asked = await askedOf(app, agency);
    const answers: Record<string, unknown> = {};
    for (const d of asked) {
      const name = askedName(d.key);
      values[name] = textPart(form, name);
      answers[d.key] = d.field_type === 'boolean' ? values[name] === 'yes' : values[name].trim() || null;
      if (d.required && d.field_type !== 'boolean' && !values[name].trim())
        errors[name] = `${d.field_type === 'choice' ? 'Choose' : 'Enter'} “${d.label}”`;
    }
    if (values.right_to_work && !RIGHT_TO_WORK.some((c) => c.id === values.right_to_work))
      errors.right_to_work = 'Choose one of the answers given';
    const cv = form.get('cv');
    const file = cv && typeof cv !== 'string' && cv.size > 0 ? cv : null;
    if (file && file.size > FILE_LIMITS.document) {
      // Within the form's room but over the store's limit: the store's own refusal, in the same words.
      return html(
        reply,
        413,
        jobPage(agency, job, asked, {
          values: { ...values, cv_sent: 'yes' },
          errors: { ...errors, cv: `The file is too large: your CV can be at most ${FILE_LIMIT_LABELS.document}.` },
        }),
      );
    }
    const principal = jobBoardPrincipal(agency.id);
    const timeZone = await agencyZone(app.db, agency.id);
    const now = app.clock();
    const touched = new Set<string>();
    const refused = Symbol('refused');
    try {
      await app.db.transaction(async (tx) => {
        const ctx = withEngine(
          {
            db: tx,
            principal,
            now,
            timeZone,
            today: agencyToday(timeZone, now),
            ip: req.ip,
            cluster: app.cluster,
            touched,
          },
          app.engine,
        );
        // The file store's checks (empty, size, type by its bytes): their refusal is the CV's field error.
        let cvId: string | null = null;
        if (file) {
          try {
            cvId = (
              await saveUpload(
                tx,
                { id: 0, merchant_id: agency.id },
                'document',
                file.name,
                new Uint8Array(await file.arrayBuffer()),
              )
            ).id;
          } catch (e) {
            if (!(e instanceof HttpError)) throw e;
            errors.cv = e.message;
          }
        }
        try {
          const created = await ctx.engine.create('job_applications', {
            job_id: job.id,
            first_name: values.first_name,
            last_name: values.last_name,
            email: values.email,
            phone: values.phone.trim() ? values.phone : null,
            right_to_work: values.right_to_work || null,
            consent: values.consent === 'yes',
            cv: cvId,
            custom_fields: answers,
          });
          if (Object.keys(errors).length) throw refused;
          const letterhead = await letterheadOf(tx, agency.id);
          const mail = renderEmail(
            letterhead,
            `Your application for ${job.title}`,
            `Dear ${created.first_name},\n\nThank you for applying for ${job.title} (${job.location}) with ${agency.name}. We have received your application${cvId ? ' and your CV' : ''}, and we will be in touch about the next steps.\n\nIf you did not apply, please ignore this e-mail.`,
          );
          await queueEmails(tx, [
            {
              merchantId: agency.id,
              recipient: created.email,
              recipientName: `${created.first_name} ${created.last_name}`,
              ...mail,
              event: APPLICATION_RECEIVED,
            },
          ]);
        } catch (e) {
          // The engine's words for what it refused, beside the form's own (a missing field keeps the form's words).
          if (e instanceof HttpError && e.status === 422 && e.errors) {
            for (const [f, words] of Object.entries(e.errors))
              errors[f.startsWith('custom_fields.') ? askedName(f.slice('custom_fields.'.length)) : f] ??= words;
            throw refused;
          }
          throw e;
        }
      });
    } catch (e) {
      if (e !== refused) throw e;
      return html(
        reply,
        errors.cv && /too large/i.test(errors.cv) ? 413 : 422,
        jobPage(agency, job, asked, { values: { ...values, cv_sent: file ? 'yes' : '' }, errors }),
      );
    }
    await app.cluster.settle();
    for (const table of touched) app.totals.changed(table, agency.id);
    return reply.redirect(done, 303);
  }
}
