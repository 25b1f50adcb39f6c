import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// What a newcomer finds in the demo (issue 30.19): every screen filled, here every staff member's History tab.
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
});
afterAll(async () => {
  await t?.close();
});

describe('the demo', () => {
  it("gives every staff member of both agencies a history (their profile's History tab)", async () => {
    const without = await t.db.query<{ name: string }>(
      `select first_name || ' ' || last_name as name from candidates c
        where not exists (select 1 from audit_log a where a.merchant_id = c.merchant_id
                            and a.subject_resource = 'candidates' and a.subject_id = c.id)`,
    );
    expect(without).toEqual([]);
    // As the tab reads it: the entries filed under the staff member.
    const staff = (await call(t.app, admin, 'GET', '/api/candidates?q=Adeyemi&per_page=1')).json().data[0];
    const history = (
      await call(t.app, admin, 'GET', `/api/audit_entries?subject_resource=candidates&subject_id=${staff.id}`)
    ).json();
    expect(history.total_count).toBeGreaterThan(0);
  });
});
