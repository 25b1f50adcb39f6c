import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiFailure, fileNameOf, requestAll, requestFile } from '../../../src/providers/request';
import { server } from '../msw/server';

describe('fileNameOf: the name a download is saved under', () => {
  it.each([
    ['attachment; filename="shifts-2026-11-27.csv"', 'shifts-2026-11-27.csv'],
    [`attachment; filename="x.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`, 'Résumé.pdf'],
    [`inline; filename*=UTF-8''%E0%A4%A`, 'file'],
    [`inline; filename="plain.png"; filename*=UTF-8''%E0%A4%A`, 'plain.png'],
    ['attachment', 'file'],
    [null, 'file'],
  ])('%s → %s', (header, name) => {
    expect(fileNameOf(header)).toBe(name);
  });
});

describe('requestFile', () => {
  it("refuses with the server's message, as every other call does", async () => {
    server.use(
      http.get('/api/shifts/export', () =>
        HttpResponse.json({ message: 'Choose a format: csv or xlsx.' }, { status: 400 }),
      ),
    );
    const failure = await requestFile('/shifts/export?format=pdf').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ message: 'Choose a format: csv or xlsx.', status: 400 });
  });

  it('gives the bytes and the name the server gives', async () => {
    server.use(
      http.get(
        '/api/shifts/export',
        () =>
          new HttpResponse('id,name\n1,A\n', {
            headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="shifts.csv"' },
          }),
      ),
    );
    const { blob, name } = await requestFile('/shifts/export?format=csv');
    expect(name).toBe('shifts.csv');
    expect(await blob.text()).toBe('id,name\n1,A\n');
  });
});

describe('requestAll: every record of a list, not its first page', () => {
  it('reads pages of 100 until the total, in order, with the references of every page once', async () => {
    const lines = Array.from({ length: 250 }, (_, i) => ({ id: i + 1, site_id: i < 100 ? 1 : 2 }));
    const asked: string[] = [];
    server.use(
      http.get('/api/timesheet_lines', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        const page = Number(url.searchParams.get('page'));
        const per = Number(url.searchParams.get('per_page'));
        const data = lines.slice((page - 1) * per, page * per);
        const sites = [...new Set(data.map((l) => l.site_id))].map((id) => ({ id, name: `Site ${id}` }));
        return HttpResponse.json({ data, total_count: lines.length, references: { sites } });
      }),
    );
    const all = await requestAll<{ id: number }>('/timesheet_lines?timesheet_id=7&sort=id&order=ASC');
    expect(all.data.map((l) => l.id)).toEqual(lines.map((l) => l.id));
    expect(all.total_count).toBe(250);
    expect(all.references).toEqual({
      sites: [
        { id: 1, name: 'Site 1' },
        { id: 2, name: 'Site 2' },
      ],
    });
    expect(asked).toEqual([1, 2, 3].map((p) => `?timesheet_id=7&sort=id&order=ASC&per_page=100&page=${p}`));
  });

  it('asks once when the first page holds them all', async () => {
    let asked = 0;
    server.use(
      http.get('/api/timesheets', () => {
        asked++;
        return HttpResponse.json({ data: [{ id: 1 }], total_count: 1 });
      }),
    );
    expect((await requestAll('/timesheets')).data).toEqual([{ id: 1 }]);
    expect(asked).toBe(1);
  });
});
