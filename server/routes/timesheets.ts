import type { FastifyInstance } from 'fastify';
import { forbidden } from '../http.js';
import { contextOf } from '../engine/routes.js';
import { Params, scopeWhere } from '../engine/compile.js';
import { getRecord } from '../engine/query.js';
import { permits } from '../../core/resources/access.js';
import { IdParams } from '../../core/contracts/common.js';
import { SignTimesheetsAnswer } from '../../core/contracts/timesheets.js';
import { fileAnswer } from '../../core/contracts/documents.js';
import { renderPdf } from '../documents/pdf/render.js';
import { letterheadOf } from '../documents/letterhead.js';
import { timesheetDocument } from '../documents/templates/timesheet.js';
import { sendDownload } from '../exports/routes.js';
import { SIGNED_VIA, LINE_STATUS, TIMESHEET_STATUS } from '../../core/resources/timesheets/resource.js';
import { formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime.js';
import { signatureProblem } from '../../core/domain/timesheets/rules.js';

const nameOf = (choices: { id: string; name: string }[], id: unknown) => choices.find((c) => c.id === id)?.name ?? '';

/**
 * The spec's GET /api/sign_timesheets/{id} (the client's id) and the printed timesheet. Both read through the
 * engine's scope and read policy: a client user reaches only their own client (another's: 404), an agency user any
 * client of their agency; staff members are refused before the handler.
 */
export async function timesheetsRoutes(app: FastifyInstance) {
  app.get<{ Params: { id: number } }>('/api/sign_timesheets/:id', {
    config: { access: 'any' },
    schema: {
      tags: ['Timesheets'],
      summary: "A client's signed timesheets: each signature with its signer, image, time, how and address",
      params: IdParams,
      response: { 200: SignTimesheetsAnswer },
    },
    handler: async (req) => {
      const user = req.auth!;
      const signatures = app.engine.get('timesheet_signatures')!;
      if (!permits({ loginType: user.loginType, role: user.role }, signatures.decl, 'list')) throw forbidden();
      const ctx = await contextOf(app.db, req);
      // The client as the caller may see it: another client's, or another agency's, is not found.
      await getRecord(ctx, app.engine.get('clients')!, req.params.id);
      const p = new Params();
      const where = scopeWhere(signatures, ctx.principal, p.bind);
      const rows = await app.db.query(
        `select g.id, g.timesheet_id, t.number, t.client_id, t.site_id, t.period_start::text as period_start,
                t.period_end::text as period_end, t.status, coalesce(t.paid_minutes, 0) / 60.0::float8 as hours,
                coalesce(t.charge, 0)::int as charge, g.signer_name, g.signature, g.signed_at, g.signed_via, g.ip_address,
                coalesce(g.line_count, 0) as line_count
           from (select * from timesheet_signatures where ${where}) g
           join timesheets t on t.merchant_id = g.merchant_id and t.id = g.timesheet_id
          where t.client_id = ${p.bind(req.params.id)}
          order by g.signed_at desc, g.id desc`,
        p.values,
      );
      return {
        sign_timesheets: rows.map((r) => ({
          ...r,
          hours: Math.round(Number(r.hours) * 100) / 100,
          signed_at: new Date(r.signed_at).toISOString(),
        })),
      };
    },
  });

  app.get<{ Params: { id: number } }>('/api/timesheets/:id/pdf', {
    config: { access: 'any' },
    schema: {
      tags: ['Timesheets'],
      summary: 'The timesheet as a PDF: its lines, totals and signatures',
      params: IdParams,
      response: { 200: fileAnswer(['application/pdf'], 'The timesheet') },
    },
    handler: async (req, reply) => {
      const user = req.auth!;
      const timesheets = app.engine.get('timesheets')!;
      if (!permits({ loginType: user.loginType, role: user.role }, timesheets.decl, 'show')) throw forbidden();
      const ctx = await contextOf(app.db, req);
      const t = await getRecord(ctx, timesheets, req.params.id);
      const withPay = user.loginType === 'agency';
      const lines = await app.db.query(
        `select l.work_date::text as work_date, ca.first_name || ' ' || ca.last_name as staff, jr.name as role,
                l.scheduled_start, l.scheduled_end, l.actual_start, l.actual_end, l.break_minutes, l.paid_minutes,
                l.charge, l.pay, l.status
           from timesheet_lines l
           left join candidates ca on ca.merchant_id = l.merchant_id and ca.id = l.candidate_id
           left join job_roles jr on jr.merchant_id = l.merchant_id and jr.id = l.job_role_id
          where l.merchant_id = $1 and l.timesheet_id = $2 order by l.scheduled_start, l.id`,
        [user.merchant_id, t.id],
      );
      const sigs = await app.db.query(
        'select signer_name, signed_via, signed_at, ip_address, signature, line_count from timesheet_signatures where merchant_id = $1 and timesheet_id = $2 order by signed_at, id',
        [user.merchant_id, t.id],
      );
      const [names] = await app.db.query(
        'select (select name from clients where merchant_id = $1 and id = $2) as client, (select name from sites where merchant_id = $1 and id = $3) as site',
        [user.merchant_id, t.client_id, t.site_id ?? 0],
      );
      const time = (v: unknown) => (v ? instantToZoned(new Date(v as string), ctx.timeZone).time : '');
      const when = (v: unknown) => {
        if (!v) return '';
        const z = instantToZoned(new Date(v as string), ctx.timeZone);
        return `${z.date} ${z.time}`;
      };
      const pdf = await renderPdf(
        timesheetDocument,
        {
          number: String(t.number),
          client: names?.client ?? '',
          site: names?.site ?? null,
          period: `${formatDisplayDate(String(t.period_start))} to ${formatDisplayDate(String(t.period_end))}`,
          status: nameOf(TIMESHEET_STATUS, t.status),
          withPay,
          lines: lines.map((l) => ({
            date: l.work_date ?? '',
            staff: l.staff ?? '',
            role: l.role ?? '',
            scheduled: `${time(l.scheduled_start)}–${time(l.scheduled_end)}`,
            actual: `${time(l.actual_start)}–${time(l.actual_end)}`,
            breakMinutes: l.break_minutes == null ? '' : String(l.break_minutes),
            hours: Math.round((Number(l.paid_minutes ?? 0) / 60) * 100) / 100,
            charge: Number(l.charge ?? 0),
            pay: withPay ? Number(l.pay ?? 0) : null,
            status: nameOf(LINE_STATUS, l.status),
          })),
          totals: {
            hours: Math.round((Number(t.paid_minutes ?? 0) / 60) * 100) / 100,
            charge: Number(t.charge ?? 0),
            pay: withPay ? Number(t.pay ?? 0) : null,
          },
          signatures: sigs.map((s) => ({
            name: s.signer_name,
            via: nameOf(SIGNED_VIA, s.signed_via),
            at: when(s.signed_at),
            address: s.ip_address,
            lines: Number(s.line_count ?? 0),
            // A signature kept before its size was checked (issue 29.19) is named, not decoded: a 6000 × 6000 image
            // took 4 s and 430 MB of memory for each print.
            image: signatureProblem(s.signature)
              ? null
              : Buffer.from(String(s.signature).replace(/^data:image\/png;base64,/, ''), 'base64'),
          })),
        },
        await letterheadOf(app.db, user.merchant_id),
      );
      return sendDownload(reply, pdf, 'application/pdf', `timesheet-${t.number}.pdf`);
    },
  });
}
