import { PassThrough, Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';
import type { Zip, ZipInputFile } from 'fflate';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../http.js';
import type { Compiled } from '../engine/compile.js';
import { route } from '../routes/route.js';
import { CSV_OPTIONS, exportBaseName } from '../../core/engine/exportFormat.js';
import { exportTable, type ExportTable } from './rows.js';
import { fileAnswer } from '../../core/contracts/documents.js';

export const EXPORT_FORMATS = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/**
 * Exports in a server process take turns (issue 30.8): at most EXPORTS_AT_ONCE stream at a time, the others wait in
 * line (FIFO) before reading anything, and one user may have EXPORTS_PER_USER running or waiting; more answer 429 in
 * words. An export keeps a core busy for seconds and its current page in memory: twelve at once by one consultant
 * took the process past 1 GB (the garbage of twelve exports made between collections) and slowed everyone's calls,
 * while on 2 cores twelve at once finish no sooner than the same twelve in turns.
 */
export const EXPORTS_PER_USER = 2;
export const EXPORTS_AT_ONCE = 3;

/** Whose exports are counted together: one signed-in user (agency, client or staff). */
export const exportKey = (user: { loginType: string; id: number }) => `${user.loginType}:${user.id}`;

type Waiter = { user: string; grant: () => void };

/** The exports of this process: how many stream, who waits, and each user's count (a test may lower the limits). */
export const exportSlots = {
  perUser: EXPORTS_PER_USER,
  atOnce: EXPORTS_AT_ONCE,
  streaming: 0,
  byUser: new Map<string, number>(),
  waiting: [] as Waiter[],

  /**
   * A turn for `user`'s export: the function that gives it back (call it when the download ends, however it ends;
   * calling it again does nothing), after waiting in line when EXPORTS_AT_ONCE stream already, or null when the
   * user already has `perUser` exports running or waiting. `closed` (the response) ends a wait whose caller left.
   */
  async take(
    user: string,
    closed?: { once(event: 'close', f: () => void): unknown; off(event: 'close', f: () => void): unknown },
  ) {
    const mine = this.byUser.get(user) ?? 0;
    if (mine >= this.perUser) return null;
    this.byUser.set(user, mine + 1);
    const leave = () => {
      const left = (this.byUser.get(user) ?? 1) - 1;
      if (left > 0) this.byUser.set(user, left);
      else this.byUser.delete(user);
    };
    if (this.streaming < this.atOnce) this.streaming += 1;
    else {
      const granted = await new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          user,
          grant: () => {
            closed?.off('close', gone);
            resolve(true);
          },
        };
        const gone = () => {
          this.waiting = this.waiting.filter((w) => w !== waiter);
          resolve(false);
        };
        closed?.once('close', gone);
        this.waiting.push(waiter);
      });
      if (!granted) {
        leave();
        return null;
      }
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      leave();
      // The turn passes to the first in line, or the process streams one fewer.
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.streaming -= 1;
    };
  },
};

/**
 * The caller's turn to export (exportSlots): the function that gives it back, or a 429 in words when they already have
 * their share running; undefined when they left while waiting in line (nothing is left to answer).
 */
export async function exportTurn(user: { loginType: string; id: number }, reply: FastifyReply) {
  const release = await exportSlots.take(exportKey(user), reply.raw);
  if (release || reply.raw.destroyed) return release ?? undefined;
  throw new HttpError(
    429,
    `You already have ${exportSlots.perUser} exports downloading. Wait for one to finish, then export again.`,
  );
}

// The file writers are loaded with the first export, not at start.

/** The export's rows as CSV (csv-stringify with the product's options: formulas neutralised), streamed. */
export async function csvStream(table: ExportTable): Promise<Readable> {
  const { stringify } = await import('csv-stringify');
  const columns = table.headers.map((header, i) => ({ key: String(i), header }));
  async function* records() {
    for await (const page of table.pages)
      for (const cells of page) yield Object.fromEntries(cells.map((v, i) => [String(i), v]));
  }
  // Readable.from waits for the stringifier to drain: a slow download holds one page, not the whole list. A
  // failure while reading (the database gone) ends the download instead of leaving it open.
  const source = Readable.from(records());
  const out = stringify({ ...CSV_OPTIONS, columns });
  source.on('error', (e) => out.destroy(e));
  return source.pipe(out);
}

/** A file's rows as CSV in one buffer, written by csvStream (CSV_OPTIONS: formulas neutralised): a small file. */
export async function csvBuffer(header: string[], rows: (string | number)[][]): Promise<Buffer> {
  async function* pages() {
    yield rows;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of await csvStream({ headers: header, fields: [], pages: pages() }))
    chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

// Characters XML 1.0 cannot carry (control characters but tab and line breaks, lone surrogates, U+FFFE/U+FFFF):
// dropped, as exceljs dropped them.
/* eslint-disable no-control-regex -- these two name the control characters XML refuses */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
// Most cells need neither: one test first keeps the two replacements off them.
const NEEDS_WORK = /[&<>"\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const xmlText = (v: string) =>
  NEEDS_WORK.test(v) ? v.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => XML_ESCAPES[c]) : v;
/* eslint-enable no-control-regex */

/** A1's column letters of the 0-based column i. */
function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * One row of the sheet's XML: a number as a number cell, anything else as a text cell (`t="str"`, a value, never a
 * formula: '=HYPERLINK(…)' stays text without a quote), as exceljs's streaming writer wrote them.
 */
function rowXml(r: number, cells: (string | number)[], columns: string[]): string {
  let xml = `<row r="${r}">`;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (typeof v === 'number' && Number.isFinite(v)) xml += `<c r="${columns[i]}${r}"><v>${v}</v></c>`;
    else xml += `<c r="${columns[i]}${r}" t="str"><v>${xmlText(String(v ?? ''))}</v></c>`;
  }
  return xml + '</row>';
}

const XLSX_PARTS = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ' +
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ' +
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
    '<Override PartName="/xl/styles.xml" ' +
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" ' +
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
    'Target="xl/workbook.xml"/></Relationships>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" ' +
    'Target="worksheets/sheet1.xml"/>' +
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" ' +
    'Target="styles.xml"/></Relationships>',
  'xl/styles.xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
};

/**
 * A file of the zip deflated by Node's zlib (native; fflate's own deflate, in JavaScript, took twice exceljs's time):
 * fflate writes the zip around it, from the size and CRC counted here as the text goes in.
 */
function nativeDeflated(zip: Zip, filename: string) {
  const deflate = createDeflateRaw({ level: 1 });
  const file: ZipInputFile = { filename, size: 0, crc: 0, compression: 8, terminate: () => deflate.destroy() };
  zip.add(file);
  // zlib's chunks are Uint8Arrays already; fflate's types ask for a plain ArrayBuffer behind them.
  deflate.on('data', (chunk: Buffer) => file.ondata!(null, chunk as Uint8Array<ArrayBuffer>, false));
  deflate.on('end', () => file.ondata!(null, new Uint8Array(0), true));
  deflate.on('error', (e) => file.ondata!(Object.assign(e, { code: 0 }), new Uint8Array(0), true));
  return async (text: string, final = false) => {
    const bytes = Buffer.from(text);
    file.crc = crc32(bytes, file.crc);
    file.size += bytes.length;
    const more = deflate.write(bytes);
    if (final) deflate.end();
    else if (!more) await new Promise((resolve) => deflate.once('drain', resolve));
  };
}

/**
 * The export's rows as an XLSX workbook, streamed: one sheet, a header row, then each page's rows (rowXml) written
 * as the sheet's XML text straight into the zip, page by page. exceljs's streaming writer made an object per row
 * and per cell and took 3.4 s of CPU for 100,000 rows of 25 cells on its own; the file holds what it wrote (the same
 * cells, types and column widths, no shared strings, no styles but the default), which exceljs and Excel read back.
 */
export async function xlsxStream(table: ExportTable, sheetName: string): Promise<Readable> {
  const { Zip } = await import('fflate');
  const out = new PassThrough();
  const zip = new Zip((err, chunk, final) => {
    if (err) out.destroy(err);
    else {
      out.write(chunk);
      if (final) out.end();
    }
  });
  const name = xmlText(sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  const parts: Record<string, string> = {
    ...XLSX_PARTS,
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  };
  for (const [file, text] of Object.entries(parts)) void nativeDeflated(zip, file)(text, true);
  const columns = table.headers.map((_, i) => columnName(i));
  const widths = table.headers
    .map(
      (h, i) =>
        `<col min="${i + 1}" max="${i + 1}" width="${Math.min(40, Math.max(10, h.length + 2))}" customWidth="1"/>`,
    )
    .join('');
  const sheet = nativeDeflated(zip, 'xl/worksheets/sheet1.xml');
  (async () => {
    await sheet(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        `${widths ? `<cols>${widths}</cols>` : ''}<sheetData>${rowXml(1, table.headers, columns)}`,
    );
    let r = 1;
    for await (const page of table.pages) {
      let xml = '';
      for (const cells of page) xml += rowXml(++r, cells, columns);
      await sheet(xml);
      // Let the download catch up before reading the next page.
      if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve));
    }
    await sheet('</sheetData></worksheet>', true);
    zip.end();
  })().catch((e) => out.destroy(e));
  return out;
}

/** The query of the list (filters, search, tab, sort) without the export's own parameter. */
export function listQueryOf(query: Record<string, string>) {
  const { format: _format, export: _export, ...rest } = query;
  return rest;
}

/** Sends a file as a download named `<name>` (ASCII: the names are the product's own). */
export function sendDownload(reply: FastifyReply, body: Readable | Buffer, type: string, name: string) {
  return reply
    .header('content-type', type)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/**
 * GET /api/{resource}/export?format=csv|xlsx&<the list's filters, q, tab, sort, order>: the whole list as a file,
 * for every resource some role may export. It needs the declaration's 'export' permission; rows, columns and
 * references are what the caller's list shows them (row scope, read policy), read from the database page by page.
 */
export async function exportRoutes(app: FastifyInstance) {
  for (const c of app.engine.values()) {
    if (!Object.values(c.decl.access).some((actions) => (actions as string[] | undefined)?.includes('export')))
      continue;
    registerExport(app, c);
  }
}

function registerExport(app: FastifyInstance, c: Compiled) {
  const decl = c.decl;
  route(app, {
    method: 'GET',
    url: `/api/${decl.name}/export`,
    may: { [decl.name]: 'export' },
    schema: {
      tags: [decl.label.many],
      summary: `Export ${decl.label.many.toLowerCase()} (CSV or XLSX)`,
      description:
        "format=csv (default) or xlsx; every other parameter is the list's (filters, q, tab, sort, order). The whole list is sent, read page by page.",
      querystring: { type: 'object', additionalProperties: { type: 'string' } },
      response: { 200: fileAnswer(Object.values(EXPORT_FORMATS), 'The list as a file') },
    },
    handler: async ({ req, reply, ctx }) => {
      const user = req.auth!;
      const query = req.query as Record<string, string>;
      const format = (query.format ?? 'csv') as ExportFormat;
      if (!(format in EXPORT_FORMATS))
        throw new HttpError(400, 'Choose the file type: csv or xlsx.', { format: 'Must be csv or xlsx' });
      const release = await exportTurn(user, reply);
      if (!release) return reply;
      try {
        const table = await exportTable(ctx, c, listQueryOf(query));
        const body = format === 'csv' ? await csvStream(table) : await xlsxStream(table, decl.label.many);
        // The response's socket closes when the download ends, whether the file was sent whole or the caller left.
        reply.raw.once('close', release);
        return sendDownload(reply, body, EXPORT_FORMATS[format], `${exportBaseName(decl, ctx.today)}.${format}`);
      } catch (e) {
        release();
        throw e;
      }
    },
  });
}
