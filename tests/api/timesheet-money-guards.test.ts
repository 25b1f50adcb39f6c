import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { at, demoIds, monday, PNG, timesheetKit, type DemoIds } from './timesheetKit';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

// The money integrity of timesheet lines: a line paid by a finalised pay run, held by a draft or approved one, or
// billed by an invoice (draft or issued) refuses, in words, every action that would change whether it is payable or
// billable (a client's dispute, the agency's verification withdrawn); a draft run cancelled releases it. And whoever is
// paid for hours never approves them: an agency user who is the staff member never verifies them, a client user who
// is the staff member never signs them, nor does a signing link sent to the staff member's own address.
let t: TestApp;
let admin: string;
let client: string;
let ids: DemoIds;
let typeId: number;
const kit = timesheetKit(() => ({ t, admin, ids }));

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const refused = (res: { statusCode: number; body: string; json(): any }, words: string | RegExp) => {
  expect(res.statusCode, res.body).toBe(409);
  expect(res.json().message).toMatch(words);
};
const lineStatus = async (id: number) =>
  (await t.db.query<{ status: string }>('select status from timesheet_lines where id = $1', [id]))[0].status;

let staffCount = 0;
/** A new PAYE staff member of the demo agency, with nothing worked; `email` their record's address. */
async function newStaff(email = `guards${++staffCount}@money.test`) {
  const [c] = await fixtureWrite<{ id: number }>(
    t.db,
    `insert into candidates (merchant_id, first_name, last_name, email, status, employment_type_id)
     values ($1, 'Guard', $2, $3, 'approved', $4) returning id`,
    [ids.merchantId, String(++staffCount), email, typeId],
  );
  return c.id;
}

/**
 * A timesheet of `who` with two lines (Monday and Tuesday `weeksBack` weeks ago), sent to the client: the first line
 * signed by the client's manager, the second still awaiting signature (so the timesheet still awaits it).
 */
async function halfSigned(who: number, weeksBack: number) {
  const day = monday(weeksBack);
  const shifts = [
    await kit.workedShift(at(day, '08:00'), at(day, '16:00'), who),
    await kit.workedShift(at(addDaysToDate(day, 1), '08:00'), at(addDaysToDate(day, 1), '16:00'), who),
  ];
  const g = await ok(await kit.generate({ shift_ids: shifts }));
  const ts = g.timesheets[0] as number;
  await ok(await kit.act(ts, 'submit'));
  const lines = (await kit.linesOf(ts)).map((l) => Number(l.id)).sort((a, b) => a - b);
  await ok(await kit.act(ts, 'approve', { line_ids: [lines[0]], signer_name: 'Ward Manager', signature: PNG }, client));
  return { ts, signed: lines[0], pending: lines[1], from: day, to: addDaysToDate(day, 6) };
}

/** A timesheet of `who` with one line on the Monday `weeksBack` weeks ago, verified by the agency. */
async function verifiedLine(who: number, weeksBack: number) {
  const day = monday(weeksBack);
  const shift = await kit.workedShift(at(day, '08:00'), at(day, '16:00'), who);
  const g = await ok(await kit.generate({ shift_ids: [shift] }));
  await ok(await kit.act(g.timesheets[0], 'verify', { reason: 'Money guards test', all_lines: 1 }));
  const [line] = await kit.linesOf(g.timesheets[0]);
  return { id: Number(line.id), from: day, to: addDaysToDate(day, 6) };
}

const payRun = async (who: number, period: { from: string; to: string }) =>
  (
    await ok(
      await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
        frequency: 'weekly',
        from: period.from,
        to: period.to,
        candidate_ids: [who],
      }),
    )
  ).run_id as number;
const runAct = (id: number, name: string, body: unknown = {}) =>
  call(t.app, admin, 'POST', `/api/pay_runs/${id}/actions/${name}`, body);
const dispute = (ts: number, ...lines: number[]) =>
  kit.act(ts, 'dispute', { line_ids: lines, reason: 'Not here that day' }, client);
const CLIENT_WORDS = 'This line is already on the staff member’s pay: ask the agency to correct it.';

beforeAll(async () => {
  t = await makeTestApp();
  [admin, client] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'client')]);
  ids = await demoIds(t);
  typeId = (
    await ok(
      await call(t.app, admin, 'POST', '/api/employment_types', {
        name: 'Guards PAYE',
        paye: true,
        holiday_pay: 'rolled_up',
      }),
      201,
    )
  ).id;
});
afterAll(() => t?.close());

describe('a line paid, on a pay run or invoiced holds', () => {
  it('refuses the client’s dispute of a signed line a finalised pay run paid, in words', async () => {
    const who = await newStaff();
    const sheet = await halfSigned(who, 20);
    const run = await payRun(who, sheet);
    await ok(await runAct(run, 'approve'));
    await ok(await runAct(run, 'finalise'));
    refused(await dispute(sheet.ts, sheet.signed), CLIENT_WORDS);
    expect(await lineStatus(sheet.signed)).toBe('signed');
    // The line the run did not pay is still the client's to dispute.
    await ok(await dispute(sheet.ts, sheet.pending));
    expect(await lineStatus(sheet.pending)).toBe('disputed');
  });

  it('refuses the client’s dispute of a signed line a draft pay run holds; cancelling the run releases it', async () => {
    const who = await newStaff();
    const sheet = await halfSigned(who, 21);
    const run = await payRun(who, sheet);
    refused(await dispute(sheet.ts, sheet.signed), CLIENT_WORDS);
    expect(await lineStatus(sheet.signed)).toBe('signed');
    await ok(await runAct(run, 'cancel', { reason: 'Made too early' }));
    await ok(await dispute(sheet.ts, sheet.signed));
    expect(await lineStatus(sheet.signed)).toBe('disputed');
  });

  it('refuses to withdraw the verification of a line a draft, then approved, pay run holds, in words', async () => {
    const who = await newStaff();
    const line = await verifiedLine(who, 22);
    const run = await payRun(who, line);
    const withdraw = () => kit.lineAct(line.id, 'withdraw_verification', { reason: 'Wrong hours' });
    refused(
      await withdraw(),
      `This line is on draft pay run ${run}: cancel that run before changing the line, then make the run again.`,
    );
    await ok(await runAct(run, 'approve'));
    refused(
      await withdraw(),
      `This line is on approved pay run ${run}, which pays it as it is: correct the pay with an adjustment in the next pay run.`,
    );
    expect(await lineStatus(line.id)).toBe('verified');
    // A draft run cancelled holds nothing: the verification can be withdrawn.
    const other = await verifiedLine(who, 23);
    await ok(await runAct(await payRun(who, other), 'cancel', { reason: 'Wrong week' }));
    await ok(await kit.lineAct(other.id, 'withdraw_verification', { reason: 'Wrong hours' }));
    expect(await lineStatus(other.id)).toBe('pending');
  });

  it('refuses the client’s dispute of a signed line billed on a draft invoice, and once it is issued', async () => {
    const who = await newStaff();
    const sheet = await halfSigned(who, 24);
    const made = await ok(
      await call(t.app, admin, 'POST', '/api/invoices/actions/generate', {
        mode: 'daily',
        from: sheet.from,
        to: sheet.from,
        client_ids: [ids.clientId],
      }),
    );
    const invoice = made.invoices[0] as number;
    // A draft is the agency's to correct before it is issued (the client does not see drafts: it is not named).
    const draftWords =
      'This line is on an invoice the agency is preparing: ask the agency to correct it before it is issued.';
    refused(await dispute(sheet.ts, sheet.signed), draftWords);
    const issued = await ok(await call(t.app, admin, 'POST', `/api/invoices/${invoice}/actions/issue`, {}));
    refused(
      await dispute(sheet.ts, sheet.signed),
      `This line is on invoice ${issued.number}: ask the agency for a credit note.`,
    );
    // With a line nothing holds, the whole dispute is refused, naming what holds the other: nothing is disputed.
    refused(
      await dispute(sheet.ts, sheet.signed, sheet.pending),
      `1 of the chosen lines is on invoice ${issued.number}: ask the agency for a credit note.`,
    );
    expect(await lineStatus(sheet.signed)).toBe('signed');
    expect(await lineStatus(sheet.pending)).toBe('pending');
    // The line no invoice bills is still the client's to dispute.
    await ok(await dispute(sheet.ts, sheet.pending));
    expect(await lineStatus(sheet.pending)).toBe('disputed');
  });
});

describe('whoever is paid never approves their own hours', () => {
  it('refuses an agency admin’s verification of their own hours, line by line or the timesheet at once', async () => {
    const self = await newStaff('Admin@Demo.test');
    const day = monday(25);
    const shift = await kit.workedShift(at(day, '08:00'), at(day, '16:00'), self);
    const ts = (await ok(await kit.generate({ shift_ids: [shift] }))).timesheets[0] as number;
    const [line] = await kit.linesOf(ts);
    const OWN = 'These are your own hours: someone else must sign or verify them.';
    refused(await kit.act(ts, 'verify', { reason: 'I was there', all_lines: 1 }), OWN);
    refused(await kit.lineAct(Number(line.id), 'verify', { reason: 'I was there' }), OWN);
    expect(await lineStatus(Number(line.id))).toBe('pending');
    // Someone else's hours are verified as ever.
    const other = await verifiedLine(await newStaff(), 28);
    expect(await lineStatus(other.id)).toBe('verified');
  });

  it('refuses a client user’s signature of their own hours, in the panel and through a link sent to them', async () => {
    const OWN = 'These are your own hours: someone else must sign or verify them.';
    const self = await newStaff('client@demo.test');
    const day = monday(26);
    const shift = await kit.workedShift(at(day, '08:00'), at(day, '16:00'), self);
    const ts = (await ok(await kit.generate({ shift_ids: [shift] }))).timesheets[0] as number;
    await ok(await kit.act(ts, 'submit'));
    const [line] = await kit.linesOf(ts);
    refused(await kit.act(ts, 'approve', { signer_name: 'Me', signature: PNG }, client), OWN);
    expect(await lineStatus(Number(line.id))).toBe('pending');
    // The signing link goes to the client's approver: when that address is the staff member's, it signs nothing.
    const [{ recipient }] = await t.db.query<{ recipient: string }>(
      'select coalesce(timesheet_approver_email, email) as recipient from clients where id = $1',
      [ids.clientId],
    );
    const linked = await newStaff(recipient.toUpperCase());
    const day2 = monday(27);
    const shift2 = await kit.workedShift(at(day2, '08:00'), at(day2, '16:00'), linked);
    const ts2 = (await ok(await kit.generate({ shift_ids: [shift2] }))).timesheets[0] as number;
    await ok(await kit.act(ts2, 'submit'));
    const byLink = await kit.byLink(await kit.signingToken(ts2), { signer_name: 'Me', signature: PNG });
    refused(byLink, OWN);
    const [line2] = await kit.linesOf(ts2);
    expect(await lineStatus(Number(line2.id))).toBe('pending');
  });
});
