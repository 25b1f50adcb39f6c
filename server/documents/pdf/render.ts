import { layoutColumns, pageLabel, pdfText, type ColumnSpec } from './layout.js';

/** The agency as its documents show it: its name, and its logo when it is a PNG or JPEG (what PDF can embed). */
export interface Letterhead {
  name: string;
  logo?: Buffer | null;
}

/** What a template draws with: the page, and the helpers every document shares (the table, the heading). */
export interface DocumentWriter {
  doc: PDFKit.PDFDocument;
  /** A title and a line under it (the filters, the date) below the letterhead. */
  heading(title: string, subtitle?: string): void;
  /**
   * A table whose header row is drawn again at the top of every page it runs onto; rows are one line each
   * (longer text is cut with an ellipsis), read from `rows` as they come.
   */
  table(columns: ColumnSpec[], rows: Iterable<string[]> | AsyncIterable<string[]>): Promise<number>;
  /** A line of text (totals, a signature line). */
  text(line: string, options?: { bold?: boolean }): void;
}

/** A kind of document: how its data is drawn. One template per kind; the renderer is the same for all. */
export interface DocumentTemplate<D> {
  kind: string;
  layout: 'portrait' | 'landscape';
  draw(w: DocumentWriter, data: D): Promise<void>;
}

const MARGIN = 36;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const ROW = 14;
const SIZE = 8;

/**
 * The one PDF renderer: A4, pdfkit's standard fonts (shipped inside the npm package, nothing downloaded), the
 * agency's letterhead on every page, "Page x of y" in every footer once the page count is known (pages are kept
 * until the end for that), and the template's content between them.
 */
export async function renderPdf<D>(template: DocumentTemplate<D>, data: D, letterhead: Letterhead): Promise<Buffer> {
  // Loaded with the first document, not at start: pdfkit is about 100 ms of CPU to load.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: template.layout,
    margins: { top: MARGIN + 40, bottom: MARGIN + 20, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: template.kind, Producer: 'Staffing back office' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  const drawLetterhead = () => {
    const { x, y } = doc;
    let textX = MARGIN;
    if (letterhead.logo) {
      try {
        doc.image(letterhead.logo, MARGIN, MARGIN - 6, { fit: [120, 32] });
        textX = MARGIN + 128;
      } catch {
        // A logo PDF cannot embed (an SVG, a damaged file) leaves the name alone.
      }
    }
    doc
      .font(BOLD)
      .fontSize(12)
      .fillColor('#1a1a1a')
      .text(pdfText(letterhead.name), textX, MARGIN + 4, { width: width - (textX - MARGIN), lineBreak: false });
    doc
      .moveTo(MARGIN, MARGIN + 32)
      .lineTo(MARGIN + width, MARGIN + 32)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.font(FONT).fontSize(SIZE);
    doc.x = x;
    doc.y = y;
  };
  drawLetterhead();
  doc.on('pageAdded', drawLetterhead);

  const writer: DocumentWriter = {
    doc,
    heading(title, subtitle) {
      doc.font(BOLD).fontSize(14).fillColor('#1a1a1a').text(pdfText(title), MARGIN, doc.y, { width });
      if (subtitle) doc.font(FONT).fontSize(9).fillColor('#555555').text(pdfText(subtitle), { width });
      doc.moveDown(0.5).font(FONT).fontSize(SIZE).fillColor('#1a1a1a');
    },
    async table(columns, rows) {
      const placed = layoutColumns(columns, MARGIN, width);
      const cell = (text: string, c: (typeof placed)[number], y: number) =>
        doc.text(text, c.x + 2, y + 3, {
          width: c.width - 4,
          align: c.align,
          lineBreak: false,
          ellipsis: true,
          height: ROW,
        });
      const header = () => {
        const y = doc.y;
        doc
          .rect(MARGIN, y, width, ROW + 2)
          .fill('#e8eef6')
          .fillColor('#1a1a1a')
          .font(BOLD)
          .fontSize(SIZE);
        for (const c of placed) cell(pdfText(c.header), c, y);
        doc.font(FONT);
        doc.y = y + ROW + 2;
      };
      header();
      let n = 0;
      for await (const row of rows) {
        if (doc.y + ROW > bottom()) {
          doc.addPage();
          header();
        }
        const y = doc.y;
        if (n % 2 === 1) doc.rect(MARGIN, y, width, ROW).fill('#f7f7f7').fillColor('#1a1a1a');
        placed.forEach((c, i) => cell(row[i] ?? '', c, y));
        doc.y = y + ROW;
        n += 1;
      }
      doc.x = MARGIN;
      return n;
    },
    text(line, options = {}) {
      if (doc.y + ROW > bottom()) doc.addPage();
      doc
        .font(options.bold ? BOLD : FONT)
        .fontSize(9)
        .text(pdfText(line), MARGIN, doc.y + 4, { width });
      doc.font(FONT).fontSize(SIZE);
    },
  };
  await template.draw(writer, data);

  // Every page's footer, now that the number of pages is known.
  doc.removeAllListeners('pageAdded');
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Inside the bottom margin: pdfkit would otherwise start a new page for text written there.
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor('#555555')
      .text(pageLabel(i - start + 1, count), MARGIN, doc.page.height - MARGIN, {
        width,
        align: 'right',
        lineBreak: false,
      });
    doc.page.margins.bottom = keep;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
