import { http, HttpResponse } from 'msw';
import { HttpError } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { searchCandidates } from '../../../src/layout/StaffSearch';
import { documentTitle, usePageTitle } from '../../../src/layout/usePageTitle';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { StaffSearch, StaffSearchMiss } from '../../../core/contracts/account';
import { renderHook, waitFor } from '@testing-library/react';

// The answers the search's contract allows: the matches (200), the spec's misses (400, 404); a 500 has none.
const search = (status: number, body: Record<string, unknown>) =>
  server.use(
    http.get('/api/search_candidate', () =>
      status === 200
        ? answer('GET /api/search_candidate', StaffSearch, body)
        : status < 500
          ? answer('GET /api/search_candidate', StaffSearchMiss, body, status)
          : HttpResponse.json(body, { status }),
    ),
  );
const ANN = {
  id: 3,
  first_name: 'Ann',
  last_name: 'Lee',
  name: 'Ann Lee',
  email: 'ann@example.test',
  phone: null,
  status: 'approved',
  activated: true,
  profile_photo: null,
};

describe('searchCandidates', () => {
  it('returns the matches', async () => {
    search(200, { candidate: [ANN], message: '1 staff found' });
    await expect(searchCandidates('ann')).resolves.toEqual({ candidate: [ANN] });
  });

  it('treats 404 and 400 (no match, as the spec answers) as an empty answer, without throwing', async () => {
    search(404, { message: 'Not Staff found for the specified criteria' });
    await expect(searchCandidates('zz')).resolves.toEqual({ candidate: [] });
    search(400, { message: 'Bad query' });
    await expect(searchCandidates('zz')).resolves.toEqual({ candidate: [] });
  });

  it('still fails on any other error', async () => {
    search(500, { message: 'boom' });
    await expect(searchCandidates('zz')).rejects.toBeInstanceOf(HttpError);
  });
});

describe('document title', () => {
  it('is "<screen> · <agency>", or either alone', () => {
    expect(documentTitle('  Staff\n List ', 'Acme Care')).toBe('Staff List · Acme Care');
    expect(documentTitle('', 'Acme Care')).toBe('Acme Care');
    expect(documentTitle('Staff', '')).toBe('Staff');
  });

  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('follows the app bar title, which becomes the h1 only when the page has none', async () => {
    document.body.innerHTML = '<div id="react-admin-title"></div><main id="main-content"><h1>Dashboard</h1></main>';
    const bar = document.getElementById('react-admin-title')!;
    renderHook(() => usePageTitle('Acme Care'));
    await waitFor(() => expect(document.title).toBe('Dashboard · Acme Care'));
    expect(bar.getAttribute('role')).toBeNull();

    // A list: its title goes to the app bar and the page has no h1 of its own.
    document.getElementById('main-content')!.innerHTML = '<table></table>';
    bar.textContent = 'Staff';
    await waitFor(() => expect(document.title).toBe('Staff · Acme Care'));
    expect(bar.getAttribute('role')).toBe('heading');
    expect(bar.getAttribute('aria-level')).toBe('1');

    // A profile with its own h1: the app bar names the tab but is not a second h1.
    document.getElementById('main-content')!.innerHTML = '<h1>Ann Lee</h1>';
    bar.textContent = 'Ann Lee';
    await waitFor(() => expect(bar.getAttribute('role')).toBeNull());
    expect(document.title).toBe('Ann Lee · Acme Care');
  });
});
