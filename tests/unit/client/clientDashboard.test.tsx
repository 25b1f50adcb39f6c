import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, TestMemoryRouter, memoryStore, type AuthProvider } from 'react-admin';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { ClientDashboard } from '../../../src/client/ClientDashboard';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { EngineList, EngineOne } from '../../../core/contracts/records';
import { Inbox } from '../../../core/contracts/notifications';
import { AgencyAnswer, AgencyLogos } from '../../../core/contracts/account';
import { Said } from '../../../core/contracts/common';
import { ReportAnswer } from '../../../core/contracts/reports';

vi.setConfig({ testTimeout: 30_000 });
// One module instance for 'react-router' and react-admin's 'react-router-dom' (see engine/views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

// Issue 34, the client dashboard: each panel a named region with its heading, the lists it summarises one link away,
// signing a timesheet in one click after a confirmation of what is signed (the timesheets' approve action), empty
// panels in words, a failure that says what to do, and one site's dashboard (another client's site: not found).

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const client = (canAccess: (action: string) => boolean = () => true): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => ({ role: 'manager', loginType: 'client' }),
  getIdentity: async () => ({ id: 5, fullName: 'Helen Carter', clientName: 'Meadowbank Care Home' }),
  canAccess: async ({ action }) => canAccess(action),
});

const list = (data: object[], extra: object = {}) =>
  answer('GET engine list', EngineList, {
    data,
    total_count: data.length,
    total_pages: 1,
    current_page: 1,
    per_page: 10,
    references: {},
    ...extra,
  });

const SITES = [
  { id: 1, name: 'Main Building' },
  { id: 2, name: 'North Wing' },
];
const REFS = { sites: SITES, job_roles: [{ id: 4, name: 'Healthcare Assistant' }] };
const UNFILLED = [
  {
    id: 90,
    start_at: '2026-12-01T08:00:00.000Z',
    end_at: '2026-12-01T16:00:00.000Z',
    site_id: 1,
    job_role_id: 4,
    candidate_name: null,
    status: 'open',
  },
];
const FILLED = [
  {
    id: 88,
    start_at: '2026-11-30T20:00:00.000Z',
    end_at: '2026-12-01T08:00:00.000Z',
    site_id: 2,
    job_role_id: 4,
    candidate_name: 'Ioana Nowak',
    status: 'assigned',
  },
];
const AWAITING = {
  id: 2,
  number: 'TS-00002',
  period_start: '2026-11-16',
  period_end: '2026-11-22',
  line_count: 7,
  payable_lines: 1,
  hours: 60.75,
  charge: 141478,
  status: 'submitted',
};
const INVOICES = [
  { id: 3, number: 'INV-00001', due_date: '2026-11-10', balance: 45000, overdue: true, state: 'sent' },
  { id: 6, number: 'INV-00006', due_date: '2026-12-12', balance: 18540, overdue: false, state: 'issued' },
];
const INBOX = {
  notifications: [
    {
      id: 11,
      event: 'shift.filled',
      title: 'Shift filled',
      body: 'Joanna Okafor will work your day shift tomorrow.',
      link: '/client/shift/assign-shift',
      read: false,
      created_at: '2026-11-29T16:12:35.665Z',
    },
  ],
  current_page: 1,
  total_count: 1,
  total_pages: 1,
  unread_count: 1,
  message: 'Notifications loaded',
};

/** The client's spend (GET /api/reports/client_spend) grouped by week or by site. */
function spendAnswer(group: 'week' | 'site', empty = false) {
  const dimension =
    group === 'week' ? { id: 'week', label: 'Week beginning', bucket: 'week' as const } : { id: 'site', label: 'Site' };
  const rows =
    group === 'week'
      ? [
          { week: '2026-11-09', shifts: 3, hours: 30, charge: 60000 },
          { week: '2026-11-16', shifts: 2, hours: 20, charge: 30000 },
        ]
      : [
          { site: 'North Wing', site_id: 2, shifts: 4, hours: 40, charge: 80000 },
          { site: 'Main Building', site_id: 1, shifts: 1, hours: 10, charge: 10000 },
        ];
  const data = empty ? [] : rows;
  return answer('GET /api/reports/client_spend', ReportAnswer, {
    report: 'client_spend',
    label: 'Spend',
    description: 'The charge of booked and worked shifts, by when they start.',
    period: { preset: 'last_12_weeks', from: '2026-09-07', to: '2026-11-29', label: 'Shifts starting' },
    as_of: '2026-11-29',
    group: [dimension],
    dimensions: [dimension],
    filters: [{ id: 'site_id', label: 'Site' }],
    measures: [
      { id: 'shifts', label: 'Shifts', format: 'count' },
      { id: 'hours', label: 'Hours', format: 'hours' },
      { id: 'charge', label: 'Charge', format: 'money' },
    ],
    data,
    totals: empty ? { shifts: 0, hours: 0, charge: 0 } : { shifts: 5, hours: 50, charge: 90000 },
    total_count: data.length,
    total_pages: 1,
    current_page: 1,
    per_page: 20,
    sort: group === 'week' ? 'week' : 'charge',
    order: group === 'week' ? 'asc' : 'desc',
  });
}

/** The requests the screen made, by path and query. */
let seen: URL[] = [];
let signed: unknown[] = [];

/** The client's API as the dashboard reads it; `awaiting` is read again after a signature. */
function serve({
  shifts = true,
  awaiting = () => list([AWAITING]),
  invoices = true,
  inbox = INBOX,
}: { shifts?: boolean; awaiting?: () => Response; invoices?: boolean; inbox?: typeof INBOX } = {}) {
  server.use(
    http.get('*/api/merchants/:id', () =>
      answer('GET /api/merchants/:id', AgencyAnswer, {
        data: {
          id: 1,
          company_name: 'Brightway Staffing',
          profile_photo: null,
          email: null,
          phone: null,
          time_zone: 'Europe/London',
          version: 1,
        },
      }),
    ),
    http.get('*/api/agency_logo_list', () => answer('GET /api/agency_logo_list', AgencyLogos, { data: [] })),
    http.get('*/api/client_notifications', () => answer('GET /api/client_notifications', Inbox, inbox)),
    http.get('*/api/sites', ({ request }) => (seen.push(new URL(request.url)), list(SITES))),
    http.get('*/api/sites/:id', ({ params, request }) => {
      seen.push(new URL(request.url));
      const site = SITES.find((s) => s.id === Number(params.id));
      return site
        ? answer('GET /api/sites/:id', EngineOne, { data: site })
        : answer('GET /api/sites/:id', Said, { message: 'Site not found' }, 404);
    }),
    http.get('*/api/shifts', ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      if (!shifts) return list([]);
      return url.searchParams.get('tab') === 'open'
        ? list(UNFILLED, { references: REFS })
        : list(FILLED, { references: REFS, total_count: 12 });
    }),
    http.get('*/api/timesheets', ({ request }) => (seen.push(new URL(request.url)), awaiting())),
    http.get('*/api/invoices', ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      if (!invoices) return list([], { totals: { balance: 0 } });
      return url.searchParams.get('overdue') === 'true'
        ? list(INVOICES.slice(0, 1), { totals: { balance: 45000 } })
        : list(INVOICES, { totals: { balance: 63540 } });
    }),
    http.get('*/api/reports/client_spend', ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      return spendAnswer(url.searchParams.get('group') === 'site' ? 'site' : 'week', !invoices);
    }),
    http.post('*/api/timesheets/:id/actions/approve', async ({ request, params }) => {
      signed.push({ id: Number(params.id), ...((await request.json()) as object) });
      return HttpResponse.json({ data: { ...AWAITING, status: 'signed' }, message: 'Timesheet signed' });
    }),
  );
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderAt(path: string, auth = client()) {
  localStorage.setItem('token', 'tok-client');
  localStorage.setItem('tokenExpiration', new Date(Date.now() + 3_600_000).toISOString());
  localStorage.setItem('loginType', 'client');
  localStorage.setItem('merchant_id', '1');
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <AdminContext i18nProvider={i18nProvider} authProvider={auth} store={memoryStore()}>
        <Routes>
          <Route path="/client/clientDashboard" element={<ClientDashboard />} />
          <Route path="/client/clientDashboard/:id" element={<ClientDashboard />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

beforeEach(() => {
  seen = [];
  signed = [];
  // jsdom draws nothing: the typed signature's canvas answers a PNG as a browser's would.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    fillRect: () => undefined,
    fillText: () => undefined,
    scale: () => undefined,
  } as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(PNG);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the client dashboard', () => {
  it('shows each panel as a named region, and each leads to the list it summarises', async () => {
    serve();
    renderAt('/client/clientDashboard');
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();

    const shifts = await screen.findByRole('region', { name: 'Shifts in the next 7 days' });
    const rows = await within(shifts).findAllByRole('listitem');
    // The soonest first: the filled night shift, with who is booked and their role; then the unfilled one.
    expect(rows[0]).toHaveTextContent('Mon 30 Nov 2026, 20:00–08:00');
    expect(rows[0]).toHaveTextContent('North Wing · Healthcare Assistant');
    expect(rows[0]).toHaveTextContent('Booked: Ioana Nowak');
    expect(rows[1]).toHaveTextContent('Main Building · Healthcare Assistant');
    expect(rows[1]).toHaveTextContent('Unfilled');
    const unfilled = within(shifts).getByRole('link', { name: '1 unfilled shift' });
    const filled = within(shifts).getByRole('link', { name: '12 filled shifts' });
    // Both open the client's shift lists with the window the panel read.
    const shiftReads = seen.filter((u) => u.pathname === '/api/shifts');
    const window = {
      start_at_gte: shiftReads[0].searchParams.get('start_at_gte'),
      start_at_lte: shiftReads[0].searchParams.get('start_at_lte'),
    };
    const target = (a: HTMLElement) => new URL(a.getAttribute('href')!, 'http://x');
    expect(target(unfilled).pathname).toBe('/client/shift/open-shift');
    expect(JSON.parse(target(unfilled).searchParams.get('filter')!)).toEqual(window);
    expect(target(filled).pathname).toBe('/client/shift/assign-shift');
    expect(within(shifts).getByRole('link', { name: 'Request a shift' })).toHaveAttribute(
      'href',
      '/client/shift/request',
    );
    // Seven days from the moment of reading.
    expect(Date.parse(window.start_at_lte!) - Date.parse(window.start_at_gte!)).toBe(7 * 86_400_000);

    const timesheets = screen.getByRole('region', { name: 'Timesheets awaiting your signature' });
    expect(await within(timesheets).findByText('TS-00002')).toBeInTheDocument();
    expect(within(timesheets).getByText(/16 Nov 2026 – 22 Nov 2026 · 60\.75 h · £1,414\.78/)).toBeInTheDocument();
    expect(within(timesheets).getByRole('link', { name: 'Review line by line: timesheet TS-00002' })).toHaveAttribute(
      'href',
      '/client/signedTimesheet?id=2',
    );

    const invoices = screen.getByRole('region', { name: 'Invoices due and overdue' });
    // The balances are the lists' totals, summed by the server over every open invoice, in pounds.
    await within(invoices).findByText('£635.40');
    expect(
      within(invoices)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Balance due', 'Overdue']);
    expect(
      within(invoices)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['£635.40 (2 invoices)', '£450.00 (one invoice)']);
    expect(within(invoices).getByRole('link', { name: 'INV-00001' })).toHaveAttribute('href', '/client/invoice/3');
    expect(within(invoices).getByRole('link', { name: 'All invoices' })).toHaveAttribute('href', '/client/invoice');

    // Spend: the declared report's charge by week and by site, each a table with its figures in pounds.
    const spend = screen.getByRole('region', { name: 'Spend, last 12 weeks' });
    expect(await within(spend).findByText('£900.00 on 5 shifts, 7 Sep 2026 – 29 Nov 2026')).toBeInTheDocument();
    const [weeks, bySite] = within(spend).getAllByRole('table');
    expect(within(weeks).getByRole('caption')).toHaveTextContent('By week');
    expect(
      within(weeks)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Week beginningChargeAs a bar', '9 Nov 2026£600.00', '16 Nov 2026£300.00']);
    expect(
      within(bySite)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['SiteChargeAs a bar', 'North Wing£800.00', 'Main Building£100.00']);
    const spendReads = seen.filter((u) => u.pathname === '/api/reports/client_spend');
    expect(spendReads.map((u) => u.searchParams.get('group')).sort()).toEqual(['site', 'week']);
    expect(spendReads.every((u) => u.searchParams.get('period') === 'last_12_weeks')).toBe(true);

    const notes = screen.getByRole('region', { name: 'Recent notifications' });
    expect(await within(notes).findByRole('link', { name: 'Shift filled' })).toHaveAttribute(
      'href',
      '/client/shift/assign-shift',
    );
    expect(within(notes).getByRole('link', { name: 'All notifications' })).toHaveAttribute(
      'href',
      '/client/ClientNotification',
    );
    // The whole client: no list was narrowed to a site.
    expect(seen.some((u) => u.searchParams.has('site_id'))).toBe(false);
  });

  it('signs a timesheet in one click, after saying what is signed; it leaves the panel', async () => {
    let reads = 0;
    serve({ awaiting: () => (++reads === 1 ? list([AWAITING]) : list([])) });
    renderAt('/client/clientDashboard');
    const panel = await screen.findByRole('region', { name: 'Timesheets awaiting your signature' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Sign timesheet TS-00002' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign timesheet TS-00002?' });
    expect(within(dialog).getByText('16 Nov 2026 – 22 Nov 2026')).toBeInTheDocument();
    expect(within(dialog).getByText('6 of 7')).toBeInTheDocument();
    expect(within(dialog).getByText('60.75')).toBeInTheDocument();
    expect(within(dialog).getByText('£1,414.78')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Signed as Helen Carter: your name, written as your signature.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Your signature: Helen Carter' })).toHaveAttribute('src', PNG);
    expect(signed).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign timesheet' }));
    expect(await within(panel).findByText('No timesheets awaiting your signature')).toBeInTheDocument();
    expect(signed).toEqual([{ id: 2, signer_name: 'Helen Carter', signature: PNG }]);
    expect(within(panel).getByRole('status')).toHaveTextContent('Timesheet TS-00002 signed by Helen Carter: 6 lines.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says a refused signature in the server’s words and offers the line-by-line review', async () => {
    serve();
    server.use(
      http.post('*/api/timesheets/:id/actions/approve', () =>
        answer('POST approve', Said, { message: 'You cannot approve your own hours.' }, 403),
      ),
    );
    renderAt('/client/clientDashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign timesheet TS-00002' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign timesheet' }));
    expect(await within(dialog).findByText(/You cannot approve your own hours\./)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Review it line by line' })).toHaveAttribute(
      'href',
      '/client/signedTimesheet?id=2',
    );
  });

  it('offers no Sign and no Request to a user who may do neither', async () => {
    serve();
    renderAt(
      '/client/clientDashboard',
      client((action) => action !== 'approve' && action !== 'create'),
    );
    const panel = await screen.findByRole('region', { name: 'Timesheets awaiting your signature' });
    expect(await within(panel).findByText('TS-00002')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /Sign/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Request a shift' })).toBeNull();
  });

  it('says empty panels in words', async () => {
    serve({
      shifts: false,
      awaiting: () => list([]),
      invoices: false,
      inbox: { ...INBOX, notifications: [], total_count: 0, unread_count: 0 },
    });
    renderAt('/client/clientDashboard');
    expect(await screen.findByText('No shifts in the next 7 days')).toBeInTheDocument();
    expect(await screen.findByText('No timesheets awaiting your signature')).toBeInTheDocument();
    expect(await screen.findByText('No invoices due')).toBeInTheDocument();
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(await screen.findByText('No spend in the last 12 weeks')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '0 unfilled shifts' })).toBeInTheDocument();
  });

  it('says what could not be loaded and what to do; Try again reads it again', async () => {
    let asked = 0;
    serve({
      awaiting: () =>
        ++asked === 1
          ? answer('failure', Said, { message: 'An unexpected error occurred. Please try again later.' }, 500)
          : list([AWAITING]),
    });
    renderAt('/client/clientDashboard');
    const panel = await screen.findByRole('region', { name: 'Timesheets awaiting your signature' });
    expect(
      await within(panel).findByText(
        'Timesheets awaiting your signature could not be loaded just now. Check your connection, then try again.',
      ),
    ).toBeInTheDocument();
    // The other panels are not held up by it.
    expect(await screen.findByText('Booked: Ioana Nowak')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(await within(panel).findByText('TS-00002')).toBeInTheDocument();
  });

  it('one site’s dashboard narrows every list to the site', async () => {
    serve();
    renderAt('/client/clientDashboard/2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard: North Wing' })).toBeInTheDocument();
    await screen.findByText('TS-00002');
    await screen.findByText('£635.40');
    await screen.findByText('£900.00 on 5 shifts, 7 Sep 2026 – 29 Nov 2026');
    const lists = seen.filter((u) =>
      ['/api/shifts', '/api/timesheets', '/api/invoices', '/api/reports/client_spend'].includes(u.pathname),
    );
    expect(lists.length).toBe(7);
    expect(lists.every((u) => u.searchParams.get('site_id') === '2')).toBe(true);
    const nav = screen.getByRole('navigation', { name: 'Your sites' });
    expect(within(nav).getByRole('link', { name: 'North Wing' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'All sites' })).toHaveAttribute('href', '/client/clientDashboard');
    const unfilled = screen.getByRole('link', { name: '1 unfilled shift' });
    expect(JSON.parse(new URL(unfilled.getAttribute('href')!, 'http://x').searchParams.get('filter')!).site_id).toBe(2);
  });

  it('a site that is not the client’s is not found, and nothing of it is read', async () => {
    serve();
    renderAt('/client/clientDashboard/99');
    expect(await screen.findByText(/This site was not found/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute(
      'href',
      '/client/clientDashboard',
    );
    expect(screen.queryByRole('region', { name: 'Shifts in the next 7 days' })).toBeNull();
    expect(seen.some((u) => u.pathname === '/api/shifts')).toBe(false);
  });
});
