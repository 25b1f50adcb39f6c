import type { ColumnSpec } from '../pdf/layout.js';
import { pdfText } from '../pdf/layout.js';
import type { DocumentTemplate } from '../pdf/render.js';

/**
 * A declared report as printed (issue 34): its title, what it covers (the period, the grouping, the filters), its
 * groups as a table with the Total row, every value as the screen reads it (£1,234.50, 87.5%).
 */
export interface ReportPrintData {
  title: string;
  subtitle: string;
  /** The grouping's columns, then the measures' (right-aligned), then the details'. */
  columns: ColumnSpec[];
  /** The groups, each as its printed cells (at most the print's limit of them). */
  rows: string[][];
  /** The Total row's cells: of every group, printed or not. */
  total: string[];
  /** How many groups the report has in all (more than `rows` when it was cut at the limit). */
  groups: number;
}

export const reportPrint: DocumentTemplate<ReportPrintData> = {
  kind: 'report-print',
  layout: 'landscape',
  async draw(w, { title, subtitle, columns, rows, total, groups }) {
    w.heading(title, subtitle);
    await w.table(
      columns,
      [...rows, total].map((cells) => cells.map(pdfText)),
    );
    w.text(
      groups === 0
        ? 'Nothing to report for these choices.'
        : rows.length < groups
          ? `The first ${rows.length} of ${groups} rows, and the total of all of them: narrow the filters or group by less to print the rest.`
          : `${groups} ${groups === 1 ? 'row' : 'rows'}, and their total.`,
      { bold: true },
    );
  },
};
