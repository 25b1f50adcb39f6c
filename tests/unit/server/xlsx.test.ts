import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { xlsxStream } from '../../../server/exports/routes';

async function readBack(headers: string[], rows: (string | number)[][], sheet = 'Shifts') {
  async function* pages() {
    yield rows;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of await xlsxStream({ headers, fields: [], pages: pages() }, sheet))
    chunks.push(Buffer.from(chunk));
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.concat(chunks) as never);
  return book.worksheets[0];
}

describe('the XLSX export writer', () => {
  it('writes numbers as numbers and text as text, escaped, and drops what XML cannot carry', async () => {
    const ws = await readBack(
      ['Name', 'Charge (£)', 'Date'],
      [
        ['<b>Tom & "Jo"</b>\u0001', 12.5, '2026-11-30'],
        ['=HYPERLINK("http://x")', -3, ''],
      ],
      'Shifts: a/b?',
    );
    expect(ws.name).toBe('Shifts  a b ');
    expect(ws.getRow(1).values).toEqual([undefined, 'Name', 'Charge (£)', 'Date']);
    expect(ws.getCell('A2').value).toBe('<b>Tom & "Jo"</b>');
    expect(ws.getCell('B2').value).toBe(12.5);
    expect(ws.getCell('C2').value).toBe('2026-11-30');
    expect(ws.getCell('A3').value).toBe('=HYPERLINK("http://x")');
    expect(ws.getCell('A3').formula).toBeUndefined();
    expect(ws.getCell('B3').value).toBe(-3);
    expect(ws.getColumn(2).width).toBe(12);
  });

  it('names columns past Z as a spreadsheet does (AA, AB…)', async () => {
    const headers = Array.from({ length: 28 }, (_, i) => `H${i}`);
    const ws = await readBack(headers, [headers.map((_, i) => i)]);
    expect(ws.getCell('Z2').value).toBe(25);
    expect(ws.getCell('AB2').value).toBe(27);
    expect(ws.rowCount).toBe(2);
  });
});
