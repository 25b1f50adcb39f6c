import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { layoutColumns, pageLabel, pdfText, type ColumnSpec } from './layout.js';

/**
 * The agency as its documents show it (documents/letterhead.ts reads it): its name, how to reach it, and its logo's
 * bytes when it is a PNG or JPEG (what PDF can embed).
 */
export interface PrintedLetterhead {
  name: string;
  email?: string | null;
  phone?: string | null;
  logo?: Buffer | null;
  /** What an invoice prints of the agency's invoice settings (reg 14: its VAT number; how to pay it). */
  invoicing?: {
    /** The agency's postal address on one line, under its name on every page. */
    address: string | null;
    vatNumber: string | null;
    /** The registered name, place and company number (the 2015 trading disclosures), when the agency gave them. */
    registration?: string | null;
    bankAccountName: string | null;
    sortCode: string | null;
    accountNumber: string | null;
    footer: string | null;
  };
}

/** What a template draws with: the page, and the helpers every document shares (the table, the heading). */
export interface DocumentWriter {
  doc: PDFKit.PDFDocument;
  /** A title and a line under it (the filters, the date) below the letterhead. */
  heading(title: string, subtitle?: string): void;
  /**
   * A table whose header row is drawn again at the top of every page it runs onto; a cell's text wraps within its
   * column and the row is as tall as its tallest cell (a row never splits across pages); rows are read from `rows`
   * as they come.
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
const FONT = 'Body' as const;
const BOLD = 'Body-Bold' as const;
/** The least height of a row; a row of wrapped cells is taller. */
const ROW = 14;
/** Space above and below a cell's text. */
const PAD = 3;
const SIZE = 8;

// Noto Sans (the @expo-google-fonts/noto-sans package: Google's static TTFs, OFL): Latin with its extensions,
// Vietnamese, Greek and Cyrillic, so names print as typed (Łukasz, Zoë, Siobhán, Nguyễn, Ødegaard) where the PDF
// standard fonts know only WinAnsi. pdfkit embeds only the glyphs a document uses; a character the font lacks (an
// emoji, CJK) shows as an empty box rather than as another letter.
//
// The files are read with the first document. pdfkit parses a font file anew for each document, and that parsing
// (glyph tables decoded as they are first used) was most of a document's time; pdfkit also takes the parsed font
// itself (fontkit's object: anything with a `layout`), so the first document's parsed fonts serve every later one.
// Each document still makes its own subset of the glyphs it used.
type FontSource = Buffer | { layout: unknown };
let fonts: Record<typeof FONT | typeof BOLD, FontSource> | undefined;
function fontSources() {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    const file = (weight: string) =>
      readFileSync(require.resolve(`@expo-google-fonts/noto-sans/${weight}/NotoSans_${weight}.ttf`));
    fonts = { [FONT]: file('400Regular'), [BOLD]: file('700Bold') };
  }
  return fonts;
}
type Layout = (text: string, features?: unknown) => unknown;
const shapedAsTyped = new WeakSet<object>();
/**
 * Keeps the font pdfkit parsed for `doc`, to be given to the next documents (see above), and lays text out without
 * the font's `ccmp` feature. Noto Sans's ccmp draws ị as i and a combining dot; pdfkit writes each glyph's letters
 * into the PDF's text (copy, search) the first time the glyph is used, so after "Thị" every plain i of the document
 * read back as ị (and after "Tim", ị read back as i). Without ccmp the precomposed letter (ị, ệ, ắ) is one glyph of
 * its own; text is NFC-normalised first (pdfText), so a name typed as i + a combining dot finds that glyph too.
 */
function keepParsed(doc: PDFKit.PDFDocument, name: typeof FONT | typeof BOLD) {
  const parsed = (doc as unknown as { _font?: { font?: { layout?: Layout } } })._font?.font;
  if (!parsed || typeof parsed.layout !== 'function') return;
  if (!shapedAsTyped.has(parsed)) {
    const layout = parsed.layout.bind(parsed);
    // pdfkit passes features only when a caller asks for some (this renderer never does); a fresh object each time,
    // as fontkit adds its defaults to the one it is given.
    parsed.layout = (text, features) => layout(text, features ?? { ccmp: false });
    shapedAsTyped.add(parsed);
  }
  if (fonts && Buffer.isBuffer(fonts[name])) fonts[name] = parsed as FontSource;
}

/** The most words whose layout is kept between documents (some 10 MB); past it the kept layouts start again. */
const KEPT_LAYOUTS = 50_000;
const layouts: Partial<Record<typeof FONT | typeof BOLD, Record<string, unknown>>> = {};
/**
 * Gives `doc`'s font the words laid out by earlier documents. pdfkit lays text out word by word (fontkit's
 * shaping: the glyph substitutions and the kerning of each pair) and keeps each word's layout, but only for one
 * document: a 500-line table spent a quarter of its time shaping the same dates, names and amounts again, and
 * as much collecting the layouts it dropped. A layout depends only on the word and the font (pdfkit scales its
 * positions once, by the font's own units), so it holds for every document.
 */
function shareLayouts(doc: PDFKit.PDFDocument, name: typeof FONT | typeof BOLD) {
  const font = (doc as unknown as { _font?: { layoutCache?: Record<string, unknown> } })._font;
  if (!font?.layoutCache) return;
  let kept = layouts[name];
  if (!kept || Object.keys(kept).length > KEPT_LAYOUTS)
    kept = layouts[name] = Object.create(null) as Record<string, unknown>;
  font.layoutCache = kept;
}

/**
 * The one PDF renderer: A4, an embedded Unicode font (Noto Sans, from its npm package, nothing downloaded), the
 * agency's letterhead on every page, "Page x of y" in every footer once the page count is known (pages are kept
 * until the end for that), and the template's content between them.
 */
export async function renderPdf<D>(
  template: DocumentTemplate<D>,
  data: D,
  letterhead: PrintedLetterhead,
): Promise<Buffer> {
  // Loaded with the first document, not at start: pdfkit is about 100 ms of CPU to load.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: template.layout,
    margins: { top: MARGIN + 40, bottom: MARGIN + 20, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: template.kind, Producer: 'Staffing back office' },
    // No Helvetica: pdfkit would otherwise load its metrics and set it as the first page's font.
    font: null as unknown as string,
  });
  const sources = fontSources();
  for (const name of [BOLD, FONT] as const) {
    doc.registerFont(name, sources[name] as PDFKit.Mixins.PDFFontSource);
    doc.font(name);
    keepParsed(doc, name);
    shareLayouts(doc, name);
  }
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
    // How to reach the agency, on the right; its name takes the rest of the line.
    const contact = pdfText([letterhead.email, letterhead.phone].filter(Boolean).join(' · '));
    let contactWidth = 0;
    if (contact) {
      doc.font(FONT).fontSize(8).fillColor('#555555');
      contactWidth = Math.min(doc.widthOfString(contact), width / 2);
      doc.text(contact, MARGIN + width - contactWidth, MARGIN + 8, { width: contactWidth, lineBreak: false });
    }
    doc
      .font(BOLD)
      .fontSize(12)
      .fillColor('#1a1a1a')
      .text(pdfText(letterhead.name), textX, MARGIN + 4, {
        width: width - (textX - MARGIN) - contactWidth - (contact ? 8 : 0),
        lineBreak: false,
      });
    // The supplier's address (reg 14 for an invoice; any document of the agency may as well say where it is).
    const address = letterhead.invoicing?.address;
    if (address)
      doc
        .font(FONT)
        .fontSize(8)
        .fillColor('#555555')
        .text(pdfText(address), textX, MARGIN + 20, { width: width - (textX - MARGIN), lineBreak: false });
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
      // Every page has room for the header and this much of a row: a row taller than that (a cell of a few
      // thousand characters) is cut there with an ellipsis rather than running off the page.
      const tallest = () => bottom() - doc.page.margins.top - 2 * ROW;
      // Most cells fit on one line: measured by their width and drawn at a position worked out here, without
      // pdfkit's line wrapper (a wrapper object, the line breaker and every word measured again, for each cell: half
      // of a table's time). Only a cell wider than its column is wrapped (and measured so).
      const measure = (cells: string[]) => {
        const widths = cells.map((cell) => (cell ? doc.widthOfString(cell) : 0));
        const oneLine = placed.map((c, i) => widths[i] <= c.width - 4);
        const line = doc.currentLineHeight(true);
        const heights = placed.map((c, i) =>
          oneLine[i] ? line : doc.heightOfString(cells[i], { width: c.width - 4, align: c.align }),
        );
        return { widths, oneLine, h: Math.min(tallest(), Math.max(ROW, ...heights.map((h) => h + 2 * PAD))) };
      };
      const draw = (cells: string[], y: number, { widths, oneLine, h }: ReturnType<typeof measure>) =>
        placed.forEach((c, i) => {
          if (!cells[i]) return;
          if (oneLine[i]) {
            const x = c.align === 'right' ? c.x + c.width - 2 - widths[i] : c.x + 2;
            doc.text(cells[i], x, y + PAD, { lineBreak: false });
          } else
            doc.text(cells[i], c.x + 2, y + PAD, {
              width: c.width - 4,
              align: c.align,
              height: h - 2 * PAD,
              ellipsis: true,
            });
        });
      const headers = placed.map((c) => pdfText(c.header));
      const header = () => {
        doc.font(BOLD).fontSize(SIZE);
        const y = doc.y;
        const size = measure(headers);
        doc.rect(MARGIN, y, width, size.h).fill('#e8eef6').fillColor('#1a1a1a');
        draw(headers, y, size);
        doc.font(FONT);
        doc.y = y + size.h;
      };
      header();
      let n = 0;
      for await (const row of rows) {
        const size = measure(row);
        if (doc.y + size.h > bottom()) {
          doc.addPage();
          header();
        }
        const y = doc.y;
        if (n % 2 === 1) doc.rect(MARGIN, y, width, size.h).fill('#f7f7f7').fillColor('#1a1a1a');
        draw(row, y, size);
        doc.y = y + size.h;
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
