import { expect } from 'vitest';
import { call, fixtureWrite, type TestApp } from './helpers';
import { at, monday, timesheetKit, type DemoIds } from './timesheetKit';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

/**
 * Staff and payable lines of a pay run test's own, so it never depends on which demo lines are payable (the demo's
 * own pay runs hold some weeks, and which staff worked two weeks changes with the day the demo is made). The helpers
 * read the app, the admin's token and the demo's ids when called (the test file sets them in its beforeAll).
 */
export function payrollKit(ctx: () => { t: TestApp; admin: string; ids: DemoIds }) {
  const kit = timesheetKit(ctx);
  const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  /** A new approved staff member of the demo agency on `typeId`, with nothing worked. */
  async function newStaff(name: string, typeId: number | null, companyName: string | null = null) {
    const { t, ids } = ctx();
    const [c] = await fixtureWrite<{ id: number }>(
      t.db,
      `insert into candidates (merchant_id, first_name, last_name, email, status, employment_type_id, company_name)
       values ($1, 'Pay', $2, $3, 'approved', $4, $5) returning id`,
      [ids.merchantId, name, `${name.replace(/\W/g, '')}@lines.test`, typeId, companyName],
    );
    return c.id;
  }
  return {
    newStaff,
    /** A new staff member of the demo agency on an employment type of the test's own, with nothing worked. */
    async staffOn(type: { name: string; paye: boolean; holiday_pay: string }, companyName: string | null = null) {
      const { t, admin } = ctx();
      const made = await ok(await call(t.app, admin, 'POST', '/api/employment_types', type), 201);
      return newStaff(type.name, made.id, companyName);
    },
    /** A verified timesheet line of `candidate` for a shift on the Monday `weeksBack` weeks ago (8:00–18:00). */
    async verifiedShift(candidate: number, weeksBack: number, sleepIn = false) {
      const { t, admin, ids } = ctx();
      const day = monday(weeksBack);
      const res = await call(t.app, admin, 'POST', '/api/shifts', {
        client_id: ids.clientId,
        site_id: ids.siteId,
        job_role_id: ids.roleId,
        start_at: sleepIn ? at(day, '22:00') : at(day, '08:00'),
        end_at: sleepIn ? at(addDaysToDate(day, 1), '07:00') : at(day, '18:00'),
        sleep_in: sleepIn,
      });
      const shift = (await ok(res, 201)).id;
      await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = $2`, [
        candidate,
        shift,
      ]);
      const g = await ok(await kit.generate({ shift_ids: [shift] }));
      await ok(await kit.act(g.timesheets[0], 'verify', { reason: 'Pay lines test', all_lines: 1 }));
      const [line] = await t.db.query<{ id: number; pay: string; paid_minutes: number }>(
        'select id, pay, paid_minutes from timesheet_lines where shift_id = $1',
        [shift],
      );
      return line;
    },
  };
}
