/**
 * The pure parts of laying out a document (no PDF library here, so they have unit tests of their own): column
 * widths, the footer's words, and the text and money a cell writes.
 */
import { formatPounds } from '../../../core/engine/money.js';

export interface ColumnSpec {
  header: string;
  /** Share of the table's width (default 1); numbers get less, names more. */
  weight?: number;
  align?: 'left' | 'right';
}

export interface PlacedColumn extends Required<ColumnSpec> {
  x: number;
  width: number;
}

/** The columns placed across `width` points from `left`, each by its weight, their edges on whole points. */
export function layoutColumns(columns: ColumnSpec[], left: number, width: number): PlacedColumn[] {
  const total = columns.reduce((s, c) => s + (c.weight ?? 1), 0) || 1;
  let x = left;
  return columns.map((c, i) => {
    const w = i === columns.length - 1 ? left + width - x : Math.floor((width * (c.weight ?? 1)) / total);
    const placed = { header: c.header, weight: c.weight ?? 1, align: c.align ?? 'left', x, width: w };
    x += w;
    return placed;
  });
}

/** The footer of page `page` (1-based) of `pages`. */
export const pageLabel = (page: number, pages: number) => `Page ${page} of ${pages}`;

/**
 * Text as a document writes it: every letter as typed (the embedded font has Latin with its extensions,
 * Vietnamese, Greek and Cyrillic) and composed (NFC: a letter typed as i + a combining dot is the font's ị), line
 * breaks and tabs as spaces (a heading or a cell is one paragraph, wrapped to its width), other control characters
 * dropped.
 */
export function pdfText(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return (
    s
      .normalize('NFC')
      .replace(/[\r\n\t]+/g, ' ')
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\x00-\x1f\x7f]/g, '')
  );
}

/** A cell's value for a table: money (pence) by the one formatter (£1,234.50, -£1.50), numbers as they are, the
 * rest as text. */
export function tableCell(value: string | number, kind?: string): string {
  if (value === '' || value === null || value === undefined) return '';
  if (kind === 'money' && typeof value === 'number') return formatPounds(value);
  return pdfText(value);
}
