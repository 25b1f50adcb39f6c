import { expect } from 'vitest';
import { call, type TestApp } from './helpers';
import type { ReportAnswer } from '../../core/contracts/reports';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

/** The declared reports' API tests share these: today in the agency's zone, a report asked for, a period over all. */

/** Today (yyyy-MM-dd) in the agency's own time zone, as the reports' presets count it. */
export async function agencyToday(t: TestApp, merchantId: number): Promise<string> {
  const [{ today }] = await t.db.query<{ today: string }>(
    `select to_char((now() at time zone time_zone)::date, 'YYYY-MM-DD') as today from merchants where id = $1`,
    [merchantId],
  );
  return today;
}

/** GET /api/reports/{name}?{query}, which must answer 200. */
export async function askReport(t: TestApp, token: string, name: string, query: string): Promise<ReportAnswer> {
  const res = await call(t.app, token, 'GET', `/api/reports/${name}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Wide enough for all the demo's shifts: a year either side of today. */
export const wideAround = (today: string) =>
  `period=custom&from=${addDaysToDate(today, -400)}&to=${addDaysToDate(today, 400)}`;
