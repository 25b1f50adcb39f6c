// The XLSX writer of an export, in a worker thread (xlsxStream in server/exports/routes.ts): exceljs's streaming
// writer builds a model and its XML for every cell, about half an export's CPU, so it runs beside the server's thread
// that reads and formats the next page, and the server keeps answering other calls meanwhile. It imports packages
// only, so Node runs this file as it is in development and tests; the server's build bundles it beside the server.
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';

export interface XlsxWorkerData {
  headers: string[];
  /** A worksheet's name as Excel allows it. */
  sheetName: string;
}
/** A page of rows to write, or the end of the file. */
export type XlsxWorkerInput = { rows: (string | number)[][] } | { end: true };
/** A piece of the file, a page written, or the file complete. */
export type XlsxWorkerOutput = { chunk: Uint8Array } | { written: true } | { done: true };

const port = parentPort!;
const { headers, sheetName } = workerData as XlsxWorkerData;
const file = new Writable({
  write(chunk: Buffer, _encoding, next) {
    // A copy of its own, so its memory moves to the server's thread instead of being copied again.
    const piece = new Uint8Array(chunk);
    port.postMessage({ chunk: piece } satisfies XlsxWorkerOutput, [piece.buffer]);
    next();
  },
});
// Text is written as text cells, never as formulas, so '=HYPERLINK(…)' stays what it is without a quote; money and
// numbers are numbers. Each row is committed as written: the worker holds a page, not the file.
const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: file, useStyles: false, useSharedStrings: false });
const sheet = workbook.addWorksheet(sheetName);
sheet.columns = headers.map((header, i) => ({
  header,
  key: String(i),
  width: Math.min(40, Math.max(10, header.length + 2)),
}));

port.on('message', (m: XlsxWorkerInput) => {
  if ('rows' in m) {
    for (const cells of m.rows) sheet.addRow(cells).commit();
    port.postMessage({ written: true } satisfies XlsxWorkerOutput);
    return;
  }
  sheet.commit();
  void workbook.commit().then(() => port.postMessage({ done: true } satisfies XlsxWorkerOutput));
});
