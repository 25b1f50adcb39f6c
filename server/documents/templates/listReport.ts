import type { ColumnSpec } from '../pdf/layout.js';
import { tableCell } from '../pdf/layout.js';
import type { DocumentTemplate } from '../pdf/render.js';
import type { ExportTable } from '../../exports/rows.js';
import { poundsToPence } from '../../../core/engine/money.js';

/** A printable list: its title, what it was filtered by, and its rows as a table with a total count. */
export interface ListReportData {
  title: string;
  subtitle: string;
  table: ExportTable;
  /** At most this many rows; a longer list says how many were left out (narrow the filters). */
  limit: number;
}

const NARROW = new Set(['number', 'money', 'boolean', 'date']);

/** The template of a printed list (the shift list today): landscape, one line a row. */
export const listReport: DocumentTemplate<ListReportData> = {
  kind: 'list-report',
  layout: 'landscape',
  async draw(w, { title, subtitle, table, limit }) {
    w.heading(title, subtitle);
    const columns: ColumnSpec[] = [
      { header: 'ID', weight: 0.5, align: 'right' },
      ...table.fields.map((f) => ({
        header: f.label,
        weight: NARROW.has(f.type) ? 0.8 : f.type === 'datetime' ? 1.1 : 1.4,
        align: f.type === 'number' || f.type === 'money' ? ('right' as const) : ('left' as const),
      })),
    ];
    let more = false;
    async function* rows() {
      let n = 0;
      for await (const page of table.pages) {
        for (const cells of page) {
          // Past the limit the list is not read further: one row more says there are more.
          if (n++ >= limit) {
            more = true;
            return;
          }
          // The export table carries money as pounds (a number a spreadsheet sums); the page prints it in pence's
          // one format.
          yield cells.map((v, i) => {
            const type = i === 0 ? 'number' : table.fields[i - 1].type;
            return tableCell(type === 'money' && typeof v === 'number' ? poundsToPence(v) : v, type);
          });
        }
      }
    }
    const shown = await w.table(columns, rows());
    w.text(
      more
        ? `The first ${shown} rows: the list has more. Narrow the filters to print the rest.`
        : `${shown} ${shown === 1 ? 'row' : 'rows'}.`,
      { bold: true },
    );
  },
};
