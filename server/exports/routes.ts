import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../http.js';
import type { Compiled } from '../engine/compile.js';
import { route } from '../routes/route.js';
import { CSV_OPTIONS, exportBaseName } from '../../core/engine/exportFormat.js';
import { exportTable, type ExportTable } from './rows.js';
import type { XlsxWorkerData, XlsxWorkerInput, XlsxWorkerOutput } from './xlsxWorker.js';
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

// The CSV writer is loaded with the first export, not at start.

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

/** The XLSX writer's thread: bundled beside the server (dist/server/xlsxWorker.mjs), run as it is from source. */
const XLSX_WORKER = new URL(import.meta.url.endsWith('.ts') ? './xlsxWorker.ts' : './xlsxWorker.mjs', import.meta.url);

/**
 * The export's rows as an XLSX workbook, streamed: written by a worker thread (xlsxWorker.ts) a page at a time while
 * this thread reads and formats the next one, the download keeping up before each page is sent. A download left
 * early stops the worker.
 */
export async function xlsxStream(table: ExportTable, sheetName: string): Promise<Readable> {
  const out = new PassThrough({ highWaterMark: 2 ** 20 });
  const data: XlsxWorkerData = {
    headers: table.headers,
    sheetName: sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '),
  };
  const worker = new Worker(XLSX_WORKER, { workerData: data });
  const stop = new AbortController();
  let pageWritten = () => {};
  worker.on('message', (m: XlsxWorkerOutput) => {
    if (out.destroyed) return;
    if ('chunk' in m) out.write(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
    else if ('written' in m) pageWritten();
    else out.end();
  });
  worker.on('error', (e) => out.destroy(e));
  worker.on('exit', (code) => {
    if (!out.writableEnded) out.destroy(new Error(`The spreadsheet writer stopped (exit code ${code}).`));
  });
  out.once('close', () => {
    stop.abort();
    pageWritten();
    void worker.terminate();
  });
  (async () => {
    let writing: Promise<void> = Promise.resolve();
    const written = () => new Promise<void>((resolve) => (pageWritten = resolve));
    for await (const page of table.pages) {
      // One page in the worker while the next is read: the file's memory stays a page or two.
      await writing;
      if (out.writableNeedDrain) await once(out, 'drain', { signal: stop.signal });
      if (stop.signal.aborted) return;
      writing = written();
      worker.postMessage({ rows: page } satisfies XlsxWorkerInput);
    }
    await writing;
    worker.postMessage({ end: true } satisfies XlsxWorkerInput);
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
