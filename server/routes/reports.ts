import type { FastifyInstance } from 'fastify';
import { route } from './route.js';
import { HttpError } from '../http.js';
import type { Compiled } from '../engine/compile.js';
import type { EngineContext } from '../engine/context.js';
import {
  availableDetails,
  availableDimensions,
  availableFilters,
  availablePathFilters,
  parseReportQuery,
  resolvePath,
  runReportWithDetails,
  type DetailLoader,
  type ReportQuery,
} from '../engine/reports.js';
import { staffReportDetails } from '../services/staffReportDetails.js';
import {
  csvStream,
  EXPORT_FORMATS,
  exportTurn,
  sendDownload,
  xlsxStream,
  type ExportFormat,
} from '../exports/routes.js';
import type { ExportTable } from '../exports/rows.js';
import { REPORT_DECLARATIONS } from '../../core/resources/reports.js';
import { mayRunReport } from '../../core/resources/access.js';
import {
  periodPresetsOf,
  reportProblems,
  sourceProblems,
  type ReportDeclaration,
  type ReportDetail,
} from '../../core/engine/reports.js';
import {
  detailCell,
  detailText,
  formatReportValue,
  reportCell,
  reportHeader,
  reportFileName,
} from '../../core/engine/reportFormat.js';
import { renderPdf } from '../documents/pdf/render.js';
import { printedLetterhead } from '../documents/letterhead.js';
import { PRINT_LIMIT } from '../documents/routes.js';
import { reportPrint, type ReportPrintData } from '../documents/templates/reportPrint.js';
import { ReportAnswer } from '../../core/contracts/reports.js';
import { fileAnswer } from '../../core/contracts/documents.js';

/** Who reads each report's detail columns (core/engine/reports.ts ReportDetail), by the report's name. */
const DETAIL_LOADERS: Record<string, DetailLoader> = { staff_standing: staffReportDetails };

/** A declaration's mistakes against its compiled base resource: refused at start-up. */
function checkReport(report: ReportDeclaration, c: Compiled) {
  // A field of the base resource, or one reached through one of its references (client_id.business_unit_id).
  const problems = reportProblems(report, (name) => resolvePath(c, name)?.field);
  for (const f of report.filters) if (!c.filterable.has(f)) problems.push(`${report.name}.filters: ${f} is no filter`);
  if (report.period && !report.sources?.length && !c.rangeable.has(report.period.field))
    problems.push(`${report.name}.period: ${report.period.field} is no range filter of ${c.decl.name}`);
  // A source's field, or one reached through one of its references (invoice_id.state), as the SQL reads it.
  problems.push(...sourceProblems(report, (resource, path) => resolvePath(c.lookup(resource), path)?.field));
  if (report.details && !DETAIL_LOADERS[report.name]) problems.push(`${report.name}.details: nothing reads them`);
  for (const col of report.details?.columns ?? [])
    for (const path of col.readFrom) {
      const [resource, field] = path.split('.');
      let known = false;
      try {
        known = !!c.lookup(resource).byField.get(field);
      } catch {
        known = false;
      }
      if (!known) problems.push(`${report.name}.details.${col.id}: no field ${path}`);
    }
  if (problems.length) throw new Error(problems.join('; '));
}

/** The period parameter in the OpenAPI description: the report's own presets (core/engine/reports.ts), or none. */
function periodParameter(report: ReportDeclaration): string {
  if (!report.period) return "no period (as of the agency's today)";
  const presets = periodPresetsOf(report).map((p) => (p.id === 'custom' ? 'custom (from, to: yyyy-MM-dd)' : p.id));
  return `period=${presets.join('|')} (default ${report.period.default})`;
}

/** The answer's description of the report for this caller: what they may group and filter by, what they receive. */
function described(report: ReportDeclaration, c: Compiled, ctx: EngineContext, q: ReportQuery) {
  const info = (d: ReportQuery['group'][number]) => ({
    id: d.id,
    label: d.label,
    ...(d.bucket ? { bucket: d.bucket } : {}),
  });
  return {
    report: report.name,
    label: report.label,
    description: report.description,
    ...(report.period && q.period ? { period: { ...q.period, label: report.period.label } } : {}),
    as_of: q.asOf,
    group: q.group.map(info),
    dimensions: availableDimensions(report, c, ctx).map(info),
    filters: [
      ...availableFilters(report, c, ctx).map((f) => ({
        id: f.source,
        label: f.label,
        ...(f.reference ? { reference: f.reference } : {}),
      })),
      ...availablePathFilters(report, c, ctx).map((pf) => {
        const { field } = resolvePath(c, pf.path)!;
        return { id: pf.id, label: field.label, reference: field.reference!, empty: pf.emptyLabel };
      }),
    ],
    measures: q.measures.map((m) => ({ id: m.id, label: m.label, format: m.kind === 'count' ? 'count' : m.format })),
    ...(report.details ? { details: availableDetails(report, c, ctx, q).map(detailInfo) } : {}),
    ...(report.chart
      ? {
          chart: {
            ...report.chart,
            measures: report.chart.measures.filter((m) => q.measures.some((x) => x.id === m)),
          },
        }
      : {}),
  };
}

/**
 * The report as printed: what it covers under its title (the period or the day it is as of, the grouping, the
 * filters asked, the day printed), then the groups and the total with each value as the screen reads it.
 */
function printedReport(
  report: ReportDeclaration,
  c: Compiled,
  ctx: EngineContext,
  q: ReportQuery,
  details: ReportDetail[],
  rows: Record<string, unknown>[],
  totals: Record<string, unknown>,
  groups: number,
): ReportPrintData {
  const filterLabels = [
    ...availableFilters(report, c, ctx)
      .filter((f) => q.filters[f.source] !== undefined && q.filters[f.source] !== '')
      .map((f) => f.label),
    ...q.pathFilters.map((pf) => resolvePath(c, pf.filter.path)!.field.label),
  ];
  const subtitle = [
    q.period ? `${q.period.from} to ${q.period.to}` : `As of ${q.asOf}`,
    `By ${q.group.map((g) => g.label.toLowerCase()).join(', ')}`,
    filterLabels.length ? `Filtered by ${filterLabels.join(', ').toLowerCase()}` : '',
    `Printed ${ctx.today}`,
  ]
    .filter(Boolean)
    .join(' · ');
  const measureText = (m: ReportQuery['measures'][number], r: Record<string, unknown>) => {
    const v = r[m.id] as string | number | null | undefined;
    return v === null || v === undefined || v === ''
      ? ''
      : formatReportValue(m.kind === 'count' ? 'count' : m.format!, v);
  };
  return {
    title: report.label,
    subtitle,
    columns: [
      ...q.group.map((g) => ({ header: g.label, weight: 1.4 })),
      ...q.measures.map((m) => ({ header: m.label, weight: 0.8, align: 'right' as const })),
      ...details.map((d) => ({ header: d.label, weight: 1.1 })),
    ],
    rows: rows.map((r) => [
      ...q.group.map((g) => String(reportCell(g, r as never))),
      ...q.measures.map((m) => measureText(m, r)),
      ...details.map((d) => String(detailText(d, r[d.id] as never) ?? '')),
    ]),
    total: [
      ...q.group.map((_, i) => (i === 0 ? 'Total' : '')),
      ...q.measures.map((m) => measureText(m, totals)),
      ...details.map(() => ''),
    ],
    groups,
  };
}

const detailInfo = (d: ReportDetail) => ({
  id: d.id,
  label: d.label,
  format: d.format,
  ...(d.choices ? { choices: [...d.choices] } : {}),
});

/**
 * Every declared report at GET /api/reports/{name} and GET /api/reports/{name}/export?format=csv|xlsx: for the
 * report's roles who may list its base resource; the rows are that list's (scope, read policy, filters).
 */
export async function reportRoutes(app: FastifyInstance) {
  for (const report of REPORT_DECLARATIONS) {
    const c = app.engine.get(report.resource);
    if (!c) throw new Error(`Report ${report.name}: no resource ${report.resource}`);
    checkReport(report, c);
    // The report's roles who may list its base resource, or every one of its sources.
    const may = Object.fromEntries((report.sources ?? [report]).map((s) => [s.resource, 'list' as const]));
    route(app, {
      method: 'GET',
      url: `/api/reports/${report.name}`,
      may,
      allows: (p) => mayRunReport(p, report),
      schema: {
        tags: ['reports'],
        summary: `${report.label}: ${report.description}`,
        description: `group=<dimension ids, comma separated>, ${periodParameter(report)}, the declared filters, sort=<measure or dimension id>, order, page, per_page. Measures made of fields the caller may not read are absent.`,
        querystring: { type: 'object', additionalProperties: { type: 'string' } },
        response: { 200: ReportAnswer },
      },
      handler: async ({ req, ctx }) => {
        const q = parseReportQuery(report, c, ctx, req.query as Record<string, unknown>);
        const { data, totals, groups } = await runReportWithDetails(ctx, report, c, q, DETAIL_LOADERS[report.name]);
        return {
          ...described(report, c, ctx, q),
          data,
          totals,
          total_count: groups,
          total_pages: Math.ceil(groups / q.perPage),
          current_page: q.page,
          per_page: q.perPage,
          sort: q.sort,
          order: q.order,
        };
      },
    });
    route(app, {
      method: 'GET',
      url: `/api/reports/${report.name}/export`,
      may,
      allows: (p) => mayRunReport(p, report, 'export'),
      schema: {
        tags: ['reports'],
        summary: `Export or print the ${report.label.toLowerCase()} (CSV, XLSX or PDF)`,
        description: `format=csv (default), xlsx or pdf; every other parameter is the report's. Every group, then a Total row; in the files money in pounds, hours in hours, ratios in per cent; printed (pdf, in the agency's letterhead) as the screen reads them, at most ${PRINT_LIMIT} groups and the total of all.`,
        querystring: { type: 'object', additionalProperties: { type: 'string' } },
        response: { 200: fileAnswer([...Object.values(EXPORT_FORMATS), 'application/pdf'], 'The report as a file') },
      },
      handler: async ({ req, reply, ctx }) => {
        const { format: rawFormat, ...query } = req.query as Record<string, string>;
        const format = (rawFormat ?? 'csv') as ExportFormat | 'pdf';
        if (format !== 'pdf' && !(format in EXPORT_FORMATS))
          throw new HttpError(400, 'Choose the file type: csv, xlsx or pdf.', { format: 'Must be csv, xlsx or pdf' });
        const q = parseReportQuery(report, c, ctx, query, { paged: false });
        const release = await exportTurn(req.auth!, reply);
        if (!release) return reply;
        try {
          const load = DETAIL_LOADERS[report.name];
          if (format === 'pdf') {
            // Details are read for the printed groups only (every group's when sorted by one): the rest aren't printed.
            const {
              data: printed,
              totals,
              groups,
              details,
            } = await runReportWithDetails(ctx, report, c, q, load, {
              paged: false,
              limit: PRINT_LIMIT,
            });
            const pdf = await renderPdf(
              reportPrint,
              printedReport(report, c, ctx, q, details, printed, totals, groups),
              await printedLetterhead(app.db, ctx.principal.merchantId),
            );
            release();
            return sendDownload(
              reply,
              pdf,
              'application/pdf',
              `${reportFileName(report, q.period ?? { asOf: q.asOf })}.pdf`,
            );
          }
          const { data, totals, details } = await runReportWithDetails(ctx, report, c, q, load, { paged: false });
          const columns = [...q.group, ...q.measures];
          async function* pages() {
            yield [
              ...data.map((r) => [...columns.map((x) => reportCell(x, r)), ...details.map((d) => detailCell(d, r))]),
              [
                ...q.group.map((_, i) => (i === 0 ? 'Total' : '')),
                ...q.measures.map((m) => reportCell(m, totals)),
                // What a record is, not a sum: no total.
                ...details.map(() => ''),
              ],
            ];
          }
          const table: ExportTable = {
            headers: [...columns.map(reportHeader), ...details.map((d) => d.label)],
            fields: [],
            pages: pages(),
          };
          const body = format === 'csv' ? await csvStream(table) : await xlsxStream(table, report.label);
          reply.raw.once('close', release);
          return sendDownload(
            reply,
            body,
            EXPORT_FORMATS[format],
            `${reportFileName(report, q.period ?? { asOf: q.asOf })}.${format}`,
          );
        } catch (e) {
          release();
          throw e;
        }
      },
    });
  }
}
