// @vitest-environment node
import { renderPdf } from '../../../server/documents/pdf/render';
import { timesheetDocument, type TimesheetDocument } from '../../../server/documents/templates/timesheet';
import { listReport } from '../../../server/documents/templates/listReport';
import type { FieldDeclaration } from '../../../core/engine/types';
import { pdfPages, pdfTextOf } from '../../pdfText';

// The PDF renderer read back as text (issue 31 item 5): names print as typed in an embedded Unicode font, cells wrap
// instead of being cut, and money is written by the one formatter.

const NAMES = ['Łukasz Wiśniewski', 'Zoë Brontë', 'Siobhán Ní Bhriain', 'Nguyễn Thị Minh Khai', 'Ødegaard Åse'];
const LONG_ROLE = 'Registered general nurse for the intensive care unit, theatre recovery and night escorts';

function timesheet(lines: number, withPay = true): TimesheetDocument {
  return {
    number: 'TS-000042',
    client: 'Meadowbank Care Home',
    site: 'Rhosllannerchrugog Wing',
    period: '2026-11-23 to 2026-11-29',
    status: 'Signed',
    withPay,
    lines: Array.from({ length: lines }, (_, i) => ({
      date: '2026-11-23',
      staff: NAMES[i % NAMES.length],
      role: i === 0 ? LONG_ROLE : 'Care assistant',
      scheduled: '08:00–20:00',
      actual: '08:05–20:10',
      breakMinutes: '30',
      hours: 11.5,
      // A correction line: money owed back prints -£1.50.
      charge: i === 1 ? -150 : 27_888,
      pay: i === 1 ? -100 : 14_950,
      status: 'Verified',
    })),
    totals: { hours: 11.5 * lines, charge: 123_456, pay: 98_765 },
    signatures: [
      {
        name: 'Siobhán Ní Bhriain',
        via: 'client panel',
        at: '2026-11-29 10:00',
        address: null,
        image: null,
        lines: 4,
      },
    ],
  };
}

const letterhead = { name: 'Ødegaard & Nguyễn Staffing Ltd' };
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('renderPdf', () => {
  it('prints names as typed (Łukasz, Zoë, Siobhán, Nguyễn, Ødegaard) in the letterhead, cells and signatures', async () => {
    const text = pdfTextOf(await renderPdf(timesheetDocument, timesheet(5), letterhead));
    expect(text).toContain('Ødegaard & Nguyễn Staffing Ltd');
    for (const name of NAMES) expect(oneLine(text)).toContain(name);
    expect(text).toContain('Signed by Siobhán Ní Bhriain (client panel)');
    // Issue 29.13: a signature says which lines it signed.
    expect(oneLine(text)).toContain('signed 4 lines');
    expect(text).not.toMatch(/\?ukasz|\ufffd/);
    // Each letter reads back as itself: the ị of Thị is not the i of 'Verified', before it or after it.
    expect(text.split('ị').length - 1).toBe(1);
    expect(text.split('Verified').length - 1).toBe(5);
  });

  it('wraps a long cell within its column instead of cutting it with an ellipsis', async () => {
    const pages = pdfPages(await renderPdf(timesheetDocument, timesheet(3), letterhead));
    expect(oneLine(pages[0])).toContain(LONG_ROLE);
    expect(pages[0]).not.toContain('…');
    // Wrapped: the role is on more than one line of the page, and no line holds it whole.
    expect(pages[0].split('\n').some((l) => l.includes(LONG_ROLE))).toBe(false);
  });

  it('writes money by the one formatter: -£1.50, never £-1.50, thousands with commas', async () => {
    const text = pdfTextOf(await renderPdf(timesheetDocument, timesheet(3), letterhead));
    expect(text).toContain('-£1.50');
    expect(text).toContain('-£1.00');
    expect(text).not.toContain('£-');
    expect(text).toContain('£278.88');
    expect(text).toContain('charge £1,234.56 · pay £987.65');
  });

  it('leaves the pay column out of a client’s copy', async () => {
    const text = pdfTextOf(await renderPdf(timesheetDocument, timesheet(3, false), letterhead));
    expect(text).not.toContain('£149.50');
    expect(text).not.toMatch(/\bPay\b/);
    expect(text).toContain('£278.88');
  });

  it('repeats the header on every page a long table runs onto, with Page x of y', async () => {
    const pages = pdfPages(await renderPdf(timesheetDocument, timesheet(120), letterhead));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((p, i) => {
      expect(p).toContain('Staff member');
      expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(p).toContain('Ødegaard & Nguyễn Staffing Ltd');
    });
    // Every line is somewhere: 120 rows of names, none lost at a page break.
    const all = oneLine(pages.join('\n'));
    expect(all.split('Nguyễn Thị Minh Khai').length - 1).toBe(24);
  });

  it('prints a list’s money (pounds in the export table) in the same format', async () => {
    const fields = [
      { source: 'name', type: 'text', label: 'Staff member' },
      { source: 'charge', type: 'money', label: 'Charge' },
    ] as unknown as FieldDeclaration[];
    async function* pages() {
      yield [
        [1, 'Zoë Brontë', -1.5],
        [2, 'Łukasz Wiśniewski', 1234.56],
      ];
    }
    const pdf = await renderPdf(
      listReport,
      { title: 'Shifts', subtitle: '', table: { headers: [], fields, pages: pages() }, limit: 10 },
      letterhead,
    );
    const text = pdfTextOf(pdf);
    expect(text).toMatch(/Zoë Brontë\n-£1\.50/);
    expect(text).toMatch(/Łukasz Wiśniewski\n£1,234\.56/);
  });
});
