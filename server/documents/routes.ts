import type { FastifyInstance } from 'fastify';
import { route } from '../routes/route.js';
import { rolesOf } from '../../core/resources/access.js';
import { hasView } from '../../core/engine/types.js';
import { exportBaseName, PRINTABLE_LISTS } from '../../core/engine/exportFormat.js';
import { exportTable } from '../exports/rows.js';
import { listQueryOf, sendDownload } from '../exports/routes.js';
import { renderPdf } from './pdf/render.js';
import { listReport } from './templates/listReport.js';
import { fileAnswer } from '../../core/contracts/documents.js';
import { printedLetterhead } from './letterhead.js';
import { IdParams } from '../../core/contracts/common.js';
import { recordDocument } from './records.js';
import { RECORD_TEMPLATES } from './templates/index.js';

/** The most rows a printed list holds: some 40 pages; a longer list is narrowed first (the file says so). */
export const PRINT_LIMIT = 2000;

/**
 * GET /api/{resource}/{id}/pdf?template=…: a record's document (the resource's `documents`), for whoever may show
 * the record, within their row scope (404 outside it), drawn with only the fields their role may read; once the
 * record is issued (the document's `keptFrom` transition), the copy kept then for their role, as it was. `template`
 * names one of the declared documents (400 in words otherwise); without it, the first.
 *
 * GET /api/{resource}/print?<the list's filters, q, tab, sort, order>: the list as a PDF in the agency's letterhead,
 * for whoever may list it. Its columns are the list's, as the caller may read them (a client user's never show
 * pay or margin), its rows the caller's list (row scope, filters).
 */
export async function documentRoutes(app: FastifyInstance) {
  for (const c of app.engine.values()) {
    const decl = c.decl;
    if (!decl.documents?.length) continue;
    const unknown = decl.documents.filter((d) => !RECORD_TEMPLATES[d.template]);
    if (unknown.length)
      throw new Error(`${decl.name}.documents: no template ${unknown.map((d) => d.template).join(', ')}`);
    route(app, {
      method: 'GET',
      url: `/api/${decl.name}/:id/pdf`,
      may: { [decl.name]: 'show' },
      record: decl.name,
      schema: {
        tags: [decl.label.many],
        summary: `The ${decl.label.one.toLowerCase()} as a PDF: ${decl.documents.map((d) => d.label).join(', ')}`,
        description: `template: one of ${decl.documents.map((d) => d.template).join(', ')} (default ${decl.documentChosenBy ? `the record's ${decl.documentChosenBy}, else ` : ''}${decl.documents[0].template}).${
          decl.documents.some((d) => d.keptFrom) ? ' Once issued, the copy kept then (its SHA-256 in the ETag).' : ''
        }`,
        params: IdParams,
        // Other parameters are left alone, as a record's GET leaves them.
        querystring: { type: 'object', properties: { template: { type: 'string' } } },
        response: { 200: fileAnswer(['application/pdf'], `The ${decl.label.one.toLowerCase()}`) },
      },
      handler: async ({ req, reply, ctx, record }) => {
        const { template } = req.query as { template?: string };
        const { pdf, name, sha256 } = await recordDocument(ctx, app.db, c, record.id, template);
        if (sha256) reply.header('etag', `"${sha256}"`);
        return sendDownload(reply, pdf, 'application/pdf', name);
      },
    });
  }
  for (const name of PRINTABLE_LISTS) {
    const c = app.engine.get(name);
    if (!c) continue;
    const decl = c.decl;
    route(app, {
      method: 'GET',
      url: `/api/${name}/print`,
      may: { [name]: 'list' },
      // Printed by the agency and its clients; a staff member's own shifts are on their page.
      roles: rolesOf('agency', 'client'),
      schema: {
        tags: [decl.label.many],
        summary: `The ${decl.label.many.toLowerCase()} list as a PDF`,
        description: `The list's parameters (filters, q, tab, sort, order); at most ${PRINT_LIMIT} rows.`,
        querystring: { type: 'object', additionalProperties: { type: 'string' } },
        response: { 200: fileAnswer(['application/pdf'], 'The list as a PDF') },
      },
      handler: async ({ req, reply, ctx }) => {
        const query = req.query as Record<string, string>;
        const table = await exportTable(ctx, c, listQueryOf(query), {
          pageSize: 500,
          fields: (fields) => fields.filter((f) => hasView(f, 'list')),
        });
        const tab = decl.tabs?.find((t) => t.id === query.tab);
        const subtitle = [tab && `${tab.label}`, query.q && `Search: ${query.q}`, `Printed ${ctx.today}`]
          .filter(Boolean)
          .join(' · ');
        const pdf = await renderPdf(
          listReport,
          { title: decl.label.many, subtitle, table, limit: PRINT_LIMIT },
          await printedLetterhead(app.db, ctx.principal.merchantId),
        );
        return sendDownload(reply, pdf, 'application/pdf', `${exportBaseName(decl, ctx.today)}.pdf`);
      },
    });
  }
}
