import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { PNG } from './timesheetKit';
import { clientDashboardReads, UPCOMING_DAYS } from '../../core/resources/clientDashboard';
import { shifts } from '../../core/resources/shifts/resource';
import { timesheets } from '../../core/resources/timesheets/resource';
import { invoices } from '../../core/resources/invoices/resource';
import { sites } from '../../core/resources/sites/resource';
import type { ResourceDeclaration } from '../../core/engine/types';
import { declarationByName } from '../../core/resources/declarations';
import { agencyToday } from '../../core/domain/time/agencyTime';

// Issue 34, the client dashboard: every list it reads (core/resources/clientDashboard.ts, the same paths the screen
// reads) answers a client user their own client's rows only, with no pay or margin anywhere in the answer; one site's
// dashboard narrows each list to that site, and a site of another client is not found; a timesheet signed from the
// dashboard (the timesheets' own approve) leaves its "awaiting signature" list.

let t: TestApp;
const tok = {} as Record<'admin' | 'client' | 'client2', string>;
let merchant: number;
let clientA: number;
let clientB: number;
const now = new Date();

const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body.slice(0, 600)).toBe(status);
  return res.json();
};
const get = (who: keyof typeof tok, path: string) => call(t.app, tok[who], 'GET', `/api${path}`);

/** Every key, at any depth, of an answer: its records, references, totals. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  return out;
}
/** A field of pay or margin by its name (payable_lines counts lines signed or verified: no money). */
const PAY_OR_MARGIN = /(^|_)(pay|pays|margin|margins|wage|wages|pay_rate|on_costs)(_|$)|margin/;
/** The declared fields a client user may not read (pay, margin, on-costs, the agency's notes…). */
const hiddenFrom = (decl: ResourceDeclaration) =>
  decl.fields.filter((f) => f.readableBy && !f.readableBy.includes('manager')).map((f) => f.source);

/**
 * What a client user must never receive in an answer: a pay or margin field by name anywhere, or a field of the
 * records' (or of a referenced record's) declaration that clients may not read.
 */
function forbidden(answer: any, decl?: ResourceDeclaration) {
  const found = [...keysOf(answer)].filter((k) => PAY_OR_MARGIN.test(k));
  const rows = answer?.data === undefined ? [] : Array.isArray(answer.data) ? answer.data : [answer.data];
  const hidden = (d: ResourceDeclaration | undefined, records: Record<string, unknown>[]) =>
    d ? records.flatMap((r) => Object.keys(r).filter((k) => hiddenFrom(d).includes(k))) : [];
  found.push(...hidden(decl, rows));
  for (const [name, records] of Object.entries(answer?.references ?? {}))
    found.push(...hidden(declarationByName.get(name), records as Record<string, unknown>[]));
  return [...new Set(found)];
}

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  const [admin, client, client2] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'client2'),
  ]);
  Object.assign(tok, { admin, client, client2 });
  const [a] = await t.db.query<{ merchant_id: number; client_id: number }>(
    `select merchant_id, client_id from users where email = 'client@demo.test'`,
  );
  const [b] = await t.db.query<{ client_id: number }>(`select client_id from users where email = 'client2@demo.test'`);
  merchant = a.merchant_id;
  clientA = a.client_id;
  clientB = b.client_id;
});
afterAll(async () => {
  await t?.close();
});

/** The client's shifts of a state in the dashboard's window, counted in SQL apart from the engine. */
async function recountShifts(clientId: number, status: string, siteId?: number) {
  const reads = clientDashboardReads(now);
  const [{ n }] = await t.db.query<{ n: number }>(
    `select count(*)::int as n from shifts where merchant_id = $1 and client_id = $2 and status = $3
       and deleted_at is null and start_at >= $4 and start_at <= $5 and ($6::int is null or site_id = $6)`,
    [merchant, clientId, status, reads.window.start_at_gte, reads.window.start_at_lte, siteId ?? null],
  );
  return n;
}

describe('the client dashboard’s reads', () => {
  const reads = clientDashboardReads(now);
  const paths = [
    ['unfilled', reads.unfilled, shifts],
    ['filled', reads.filled, shifts],
    ['awaiting signature', reads.awaitingSignature, timesheets],
    ['invoices due', reads.invoicesDue, invoices],
    ['invoices overdue', reads.invoicesOverdue, invoices],
  ] as const;

  it.each(paths)('%s: the client’s own rows, with no pay or margin', async (_name, path, decl) => {
    const [a, b, admin] = await Promise.all([get('client', path), get('client2', path), get('admin', path)]);
    const [mine, theirs, all] = [ok(a), ok(b), ok(admin)];
    expect(mine.data.every((r: { client_id: number }) => r.client_id === clientA)).toBe(true);
    expect(theirs.data.every((r: { client_id: number }) => r.client_id === clientB)).toBe(true);
    // The agency lists both clients' rows: the client's answer is narrowed by its scope, not by the data.
    expect(all.total_count).toBeGreaterThanOrEqual(mine.total_count + theirs.total_count);
    expect(forbidden(mine, decl)).toEqual([]);
    expect(forbidden(theirs, decl)).toEqual([]);
  });

  it('spend: the declared report of the client’s own charge, by week and by site; never pay or margin', async () => {
    const [weeks, bySite, theirs] = await Promise.all([
      get('client', reads.spendByWeek).then((r) => ok(r)),
      get('client', reads.spendBySite).then((r) => ok(r)),
      get('client2', reads.spendBySite).then((r) => ok(r)),
    ]);
    for (const answer of [weeks, bySite, theirs]) {
      expect(answer.measures.map((m: { id: string }) => m.id)).toEqual(['shifts', 'hours', 'charge']);
      expect(forbidden(answer)).toEqual([]);
    }
    // The charge of the client's booked and worked shifts in the period, recounted in SQL on the agency's clock.
    const [{ charge, shifts: count }] = await t.db.query<{ charge: number; shifts: number }>(
      `select coalesce(sum(charge), 0)::int as charge, count(*)::int as shifts from shifts
        where merchant_id = $1 and client_id = $2 and deleted_at is null and status in ('assigned', 'closed')
          and start_at >= ($3::date::timestamp at time zone 'Europe/London')
          and start_at < (($4::date + 1)::timestamp at time zone 'Europe/London')`,
      [merchant, clientA, weeks.period.from, weeks.period.to],
    );
    expect(count).toBeGreaterThan(0);
    expect(weeks.totals.charge).toBe(charge);
    expect(weeks.totals.shifts).toBe(count);
    expect(bySite.totals.charge).toBe(charge);
    // Only the client's own sites; the other client's are theirs alone.
    const mine = new Set(ok(await get('client', '/sites?per_page=100')).data.map((x: { id: number }) => x.id));
    expect(bySite.data.length).toBeGreaterThan(0);
    expect(bySite.data.every((r: { site_id: number }) => mine.has(r.site_id))).toBe(true);
    expect(theirs.data.some((r: { site_id: number }) => mine.has(r.site_id))).toBe(false);
  });

  it('the agency’s answer of the same shifts carries pay and margin (what the scope leaves out)', async () => {
    const all = ok(await get('admin', reads.filled));
    expect(all.data.length).toBeGreaterThan(0);
    expect(forbidden(all, shifts)).toEqual(expect.arrayContaining(['pay', 'margin']));
  });

  it('the demo client has something in every panel; the counts are a recount of their own shifts', async () => {
    const [unfilled, filled, awaiting, due, overdue, inbox] = await Promise.all(
      [reads.unfilled, reads.filled, reads.awaitingSignature, reads.invoicesDue, reads.invoicesOverdue].map((p) =>
        get('client', p).then((r) => ok(r)),
      ),
    ).then(async (r) => [...r, ok(await get('client', '/client_notifications?page=1&per_page=10'))]);
    expect(unfilled.total_count).toBe(await recountShifts(clientA, 'open'));
    expect(filled.total_count).toBe(await recountShifts(clientA, 'assigned'));
    expect(unfilled.total_count + filled.total_count).toBeGreaterThan(0);
    expect(filled.data[0].candidate_name).toEqual(expect.any(String));
    expect(filled.references.job_roles.length).toBeGreaterThan(0);
    expect(awaiting.total_count).toBeGreaterThan(0);
    expect(due.total_count).toBeGreaterThan(0);
    expect(overdue.total_count).toBeGreaterThan(0);
    // The balances are summed in SQL over every matching invoice (the list's totals), not over the page.
    const [owed] = await t.db.query<{ balance: number; overdue: number }>(
      `select coalesce(sum(total + credited - paid), 0)::int as balance,
              coalesce(sum(total + credited - paid) filter (where total + credited - paid > 0 and due_date < $3::date), 0)::int as overdue
         from invoices where merchant_id = $1 and client_id = $2 and state in ('issued', 'sent', 'part_paid')`,
      [merchant, clientA, agencyToday('Europe/London')],
    );
    expect(due.totals.balance).toBe(owed.balance);
    expect(overdue.totals.balance).toBe(owed.overdue);
    expect(overdue.totals.balance).toBeGreaterThan(0);
    expect(inbox.notifications.length).toBeGreaterThan(0);
    expect(forbidden(inbox)).toEqual([]);
  });

  it(`the upcoming shifts are those of the next ${UPCOMING_DAYS} days`, async () => {
    const list = ok(await get('client', reads.filled));
    for (const s of list.data) {
      expect(Date.parse(s.start_at)).toBeGreaterThanOrEqual(Date.parse(reads.window.start_at_gte));
      expect(Date.parse(s.start_at)).toBeLessThanOrEqual(Date.parse(reads.window.start_at_lte));
    }
  });
});

describe('one site’s dashboard', () => {
  it('narrows every list to the site; a site of another client is not found', async () => {
    const mySites = ok(await get('client', '/sites?per_page=100')).data as { id: number; client_id: number }[];
    const theirSites = ok(await get('client2', '/sites?per_page=100')).data as { id: number }[];
    expect(mySites.length).toBeGreaterThan(1);
    expect(theirSites.length).toBeGreaterThan(0);
    for (const site of mySites) {
      const reads = clientDashboardReads(now, site.id);
      const one = ok(await get('client', reads.site!));
      expect(one.data.id).toBe(site.id);
      expect(forbidden(one, sites)).toEqual([]);
      for (const [path, status] of [
        [reads.unfilled, 'open'],
        [reads.filled, 'assigned'],
      ] as const) {
        const list = ok(await get('client', path));
        expect(list.data.every((s: { site_id: number }) => s.site_id === site.id)).toBe(true);
        expect(list.total_count).toBe(await recountShifts(clientA, status, site.id));
      }
      for (const path of [reads.awaitingSignature, reads.invoicesDue, reads.invoicesOverdue]) {
        const list = ok(await get('client', path));
        expect(list.data.every((r: { site_id: number }) => r.site_id === site.id)).toBe(true);
      }
      const spend = ok(await get('client', reads.spendBySite));
      expect(spend.data.every((r: { site_id: number }) => r.site_id === site.id)).toBe(true);
    }
    // Another client's site: not found, and the lists narrowed to it hold nothing of anyone's.
    for (const other of theirSites) {
      const reads = clientDashboardReads(now, other.id);
      expect((await get('client', reads.site!)).statusCode).toBe(404);
      for (const path of [
        reads.unfilled,
        reads.filled,
        reads.awaitingSignature,
        reads.invoicesDue,
        reads.invoicesOverdue,
        reads.spendByWeek,
        reads.spendBySite,
      ]) {
        const res = await get('client', path);
        // Refused as a filter outside their client, or answered empty: never the other client's rows.
        if (res.statusCode === 200) expect(res.json().data).toEqual([]);
        else expect([400, 404, 422]).toContain(res.statusCode);
      }
    }
    // And the other way round.
    expect((await get('client2', `/sites/${mySites[0].id}`)).statusCode).toBe(404);
  });
});

describe('signing from the dashboard', () => {
  it('approves a timesheet awaiting signature with the timesheets’ own action; it leaves the list', async () => {
    const reads = clientDashboardReads(now);
    const before = ok(await get('client', reads.awaitingSignature));
    const ts = before.data[0] as { id: number; number: string };
    // Another client's user cannot sign it: it is not theirs to find.
    const refused = await call(t.app, tok.client2, 'POST', `/api/timesheets/${ts.id}/actions/approve`, {
      signer_name: 'Tom Reilly',
      signature: PNG,
    });
    expect(refused.statusCode).toBe(404);
    ok(
      await call(t.app, tok.client, 'POST', `/api/timesheets/${ts.id}/actions/approve`, {
        signer_name: 'Helen Carter',
        signature: PNG,
      }),
    );
    const after = ok(await get('client', reads.awaitingSignature));
    expect(after.total_count).toBe(before.total_count - 1);
    expect(after.data.map((r: { id: number }) => r.id)).not.toContain(ts.id);
    const signed = ok(await get('client', `/timesheets/${ts.id}`));
    expect(signed.data.status).toBe('signed');
    expect(forbidden(signed, timesheets)).toEqual([]);
  });
});
