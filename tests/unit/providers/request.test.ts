import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiFailure, fileNameOf, requestFile } from '../../../src/providers/request';
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
