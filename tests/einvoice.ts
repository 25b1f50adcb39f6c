// Validates an e-invoice as a Peppol access point would, with no network: the UBL 2.1 XML schema (OASIS's runtime
// schemas, libxml2's xmllint compiled to WebAssembly) and the business rules of EN 16931 and Peppol BIS Billing 3.0
// (the CEN and OpenPeppol schematrons as compiled XSLT, run by SaxonJS). The rule files are vendored in
// tests/fixtures/einvoice (README.md there says where each comes from and how the .sef.json files are made).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import SaxonJS from 'saxon-js';

const DIR = join(import.meta.dirname, 'fixtures', 'einvoice');
const UBL = join(DIR, 'ubl-2.1');
const RULES = join(DIR, 'peppol-2026.5');

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );

/** A failed rule: its id (BR-CO-17, PEPPOL-EN16931-R010, …), flag (fatal or warning) and words. */
export interface RuleFailure {
  id: string;
  flag: string;
  text: string;
}

/** The XML schema's errors for the document (empty when it is valid UBL 2.1). */
export async function xsdErrors(xml: string): Promise<string[]> {
  const root = /<(?:\w+:)?CreditNote[\s>]/.test(xml.slice(0, 2000)) ? 'CreditNote' : 'Invoice';
  // xmllint resolves the schemas' relative imports (../common/…) in its in-memory file system.
  const schemaFiles = files(UBL).map((f) => ({ fileName: relative(UBL, f), contents: readFileSync(f, 'utf8') }));
  const main = `maindoc/UBL-${root}-2.1.xsd`;
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: schemaFiles.filter((f) => f.fileName === main),
    preload: schemaFiles.filter((f) => f.fileName !== main),
  });
  return result.errors.map((e) => e.rawMessage);
}

/** The EN 16931 and Peppol BIS 3.0 rules the document breaks (fatal and warnings alike). */
export async function ruleFailures(xml: string): Promise<RuleFailure[]> {
  const out: RuleFailure[] = [];
  for (const rules of ['CEN-EN16931-UBL', 'PEPPOL-EN16931-UBL']) {
    const result = await SaxonJS.transform(
      { stylesheetFileName: join(RULES, `${rules}.sef.json`), sourceText: xml, destination: 'serialized' },
      'async',
    );
    const svrl = String(result.principalResult);
    for (const m of svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
      const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1])?.[1] ?? '';
      const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2])?.[1] ?? '';
      out.push({ id: attr('id'), flag: attr('flag'), text: text.replace(/\s+/g, ' ').trim() });
    }
  }
  return out;
}
