// Reads back the text of a PDF the product wrote (pdfkit with an embedded font), so tests assert what a reader of
// the document sees rather than that some bytes came back. No PDF reader is a dependency of the project, and a PDF
// of pdfkit's is regular enough to read in a page of code: objects `N 0 obj … endobj`, streams deflated, text drawn
// as hex glyph codes in `[<…> n <…>] TJ`, and each font's ToUnicode CMap turning its codes back into letters.
import { inflateSync } from 'node:zlib';

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function objectsOf(pdf: Buffer): Map<number, PdfObject> {
  const s = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  for (const m of s.matchAll(/(\d+) 0 obj\s*([\s\S]*?)\bendobj/g)) {
    const body = m[2];
    const at = body.search(/\bstream\r?\n/);
    if (at < 0) {
      objects.set(Number(m[1]), { dict: body });
      continue;
    }
    const dict = body.slice(0, at);
    const start = at + body.slice(at).indexOf('\n') + 1;
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? 0);
    const raw = Buffer.from(body.slice(start, start + length), 'latin1');
    objects.set(Number(m[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw });
  }
  return objects;
}

/** A ToUnicode CMap as code → text (pdfkit writes `bfrange`s with arrays; `bfchar` and plain ranges too). */
function cmapOf(text: string): Map<number, string> {
  const map = new Map<number, string>();
  const unicode = (hex: string) =>
    String.fromCharCode(...(hex.replace(/\s+/g, '').match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const r of block[1].matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f\s]+>)/gi)) {
      const from = parseInt(r[1], 16);
      const to = parseInt(r[2], 16);
      if (r[3].startsWith('[')) {
        [...r[3].matchAll(/<([0-9a-f\s]*)>/gi)].forEach((d, i) => map.set(from + i, unicode(d[1])));
      } else {
        const first = unicode(r[3].slice(1, -1));
        for (let c = from; c <= to; c++)
          map.set(c, first.slice(0, -1) + String.fromCharCode(first.charCodeAt(first.length - 1) + c - from));
      }
    }
  }
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const r of block[1].matchAll(/<([0-9a-f]+)>\s*<([0-9a-f\s]+)>/gi)) map.set(parseInt(r[1], 16), unicode(r[2]));
  return map;
}

/**
 * The text of each page of `pdf`, in the order it was drawn: one line per text-drawing operation (a cell's line, a
 * heading), so a wrapped cell gives one line per line it wraps to.
 */
export function pdfPages(pdf: Buffer): string[] {
  const objects = objectsOf(pdf);
  const ref = (dict: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1]);
  // Font resources by name (/F1 …) → their ToUnicode CMaps. pdfkit names each font once for the whole document.
  const fonts = new Map<string, Map<number, string>>();
  for (const o of objects.values()) {
    const block = /\/Font\s*<<([^>]*)>>/.exec(o.dict)?.[1];
    for (const f of block?.matchAll(/\/(\S+) (\d+) 0 R/g) ?? []) {
      const font = objects.get(Number(f[2]));
      const toUnicode = font && objects.get(ref(font.dict, 'ToUnicode'));
      if (toUnicode?.stream) fonts.set(f[1], cmapOf(toUnicode.stream.toString('latin1')));
    }
  }
  const root = [...objects.values()].find((o) => /\/Type \/Pages\b/.test(o.dict) && !/\/Parent/.test(o.dict));
  const kids = [.../\/Kids \[([^\]]*)\]/.exec(root?.dict ?? '')![1].matchAll(/(\d+) 0 R/g)].map((k) => Number(k[1]));
  return kids.map((k) => {
    const content = objects.get(ref(objects.get(k)!.dict, 'Contents'))?.stream?.toString('latin1') ?? '';
    const lines: string[] = [];
    let font = new Map<number, string>();
    let line = '';
    for (const op of content.matchAll(/\/(\S+) [\d.]+ Tf|\[((?:<[0-9a-f]*>|[^\]])*)\] TJ|<([0-9a-f]*)> Tj|\bET\b/gi)) {
      if (op[1]) font = fonts.get(op[1]) ?? new Map();
      else if (op[0] === 'ET') {
        lines.push(line);
        line = '';
      } else {
        for (const hex of (op[2] ?? `<${op[3]}>`).matchAll(/<([0-9a-f]*)>/gi))
          for (const code of hex[1].match(/.{4}/g) ?? []) line += font.get(parseInt(code, 16)) ?? '\ufffd';
      }
    }
    // NFC: a font may draw ị as i and a combining dot (Vietnamese), which reads back as two characters.
    return lines.join('\n').normalize('NFC');
  });
}

/** The whole text of `pdf`, its pages one after the other. */
export const pdfTextOf = (pdf: Buffer) => pdfPages(pdf).join('\n');
