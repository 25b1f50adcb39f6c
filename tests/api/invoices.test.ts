import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKind, loginAs, makeTestApp, type TestApp } from './helpers';
import { at, demoIds, monday, timesheetKit, type DemoIds } from './timesheetKit';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { systemContext } from '../../server/engine/routes';
import { createHash } from 'node:crypto';
import { formatPounds } from '../../core/engine/money';
import { deliverMail } from './mail';
import { startEmbeddedSmtp } from '../../server/notifications/smtp';
import { createMailer } from '../../server/notifications/mailer';

// Client invoices on the engine (issue 32): a draft with lines totalled by rollups (exempt and standard apart),
// numbered only at issue and gapless, locked once issued for every write, read by a client only once issued and
// only its own, and voided (a draft only) with its lines released.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let client2: string;
let ids: DemoIds;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, client2] = await Promise.all(
    ['admin', 'consultant', 'client', 'client2'].map((w) => loginAs(t.app, w as 'admin')),
  );
  ids = await demoIds(t);
});
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};

/** A draft of client A with a standard line (8 h at £20) and an exempt one (7.5 h at £30.01). */
async function draft(clientId = ids.clientId) {
  const inv = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: clientId }), 201);
  const line = (body: Record<string, unknown>) =>
    call(t.app, admin, 'POST', '/api/invoice_lines', { invoice_id: inv.id, work_date: '2030-01-07', ...body });
  await ok(await line({ description: 'Care assistant, 7 Jan', quantity: 8, unit_price: 2000 }), 201);
  await ok(await line({ description: 'Nurse, 7 Jan', quantity: 7.5, unit_price: 3001, vat_treatment: 'exempt' }), 201);
  return inv.id as number;
}

const read = async (id: number, token = admin) => ok(await call(t.app, token, 'GET', `/api/invoices/${id}`));
const issue = (id: number) => call(t.app, admin, 'POST', `/api/invoices/${id}/actions/issue`, {});

// First: the later tests issue, pay and credit invoices of the demo's clients.
describe('the demo agency', () => {
  it('has runs, drafts, issued, sent, part-paid, paid, overdue and credited invoices in both layouts, and one with exempt and standard lines', async () => {
    const rows = await t.db.query<{
      state: string;
      credited: string;
      exempt_net: string;
      standard_net: string;
      run_id: number | null;
      template: string;
      client_id: number;
    }>(
      `select state, credited, exempt_net, standard_net, run_id, template, client_id from invoices
        where merchant_id = $1 and run_id is not null`,
      [ids.merchantId],
    );
    const states = new Set(rows.map((r) => r.state));
    for (const s of ['draft', 'issued', 'sent', 'part_paid', 'paid']) expect(states).toContain(s);
    expect(rows.some((r) => Number(r.credited) < 0)).toBe(true);
    expect(rows.some((r) => Number(r.exempt_net) > 0 && Number(r.standard_net) > 0)).toBe(true);
    expect(new Set(rows.filter((r) => r.state !== 'draft').map((r) => r.template))).toEqual(
      new Set(['template1', 'template2']),
    );
    expect(new Set(rows.map((r) => r.run_id)).size).toBe(2);
    // The panel's client (client@demo.test) has one overdue by the agency's date, and sees its issued invoices.
    const late = await ok(await call(t.app, client, 'GET', '/api/invoices?overdue=true'));
    expect(late.length).toBeGreaterThan(0);
    const seen = await ok(await call(t.app, client, 'GET', '/api/invoices?per_page=100'));
    expect(new Set(seen.map((i: { state: string }) => i.state))).toEqual(
      new Set(rows.filter((r) => r.client_id === ids.clientId && r.state !== 'draft').map((r) => r.state)),
    );
  });
});

describe('an invoice draft', () => {
  it('is totalled from its lines, exempt and standard apart, VAT on the standard lines only', async () => {
    const inv = await read(await draft());
    // 8 × £20 = £160 standard (VAT £32); 7.5 × £30.01 = £225.075 → £225.08 exempt.
    expect(inv).toMatchObject({
      state: 'draft',
      number: null,
      line_count: 2,
      standard_net: 16000,
      exempt_net: 22508,
      net: 38508,
      vat: 3200,
      total: 41708,
      balance: 41708,
      overdue: false,
    });
  });

  it('is never shown to a client user, even its own', async () => {
    const id = await draft();
    expect((await call(t.app, client, 'GET', `/api/invoices/${id}`)).statusCode).toBe(404);
    const list = await ok(await call(t.app, client, 'GET', '/api/invoices'));
    expect(list.map((r: { id: number }) => r.id)).not.toContain(id);
    const lines = await ok(await call(t.app, client, 'GET', `/api/invoice_lines?invoice_id=${id}`));
    expect(lines).toEqual([]);
  });

  it('is read by a consultant, who may not issue it', async () => {
    const id = await draft();
    expect((await read(id, consultant)).id).toBe(id);
    expect((await call(t.app, consultant, 'POST', `/api/invoices/${id}/actions/issue`, {})).statusCode).toBe(403);
  });

  it('cannot be issued without lines, in words', async () => {
    const inv = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId }), 201);
    const res = await issue(inv.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This invoice has no lines to issue.');
    expect((await read(inv.id)).number).toBeNull();
  });
});

describe('issuing', () => {
  it('numbers it from the invoice series, dates it and keeps the chosen layout', async () => {
    const id = await draft();
    const before = await t.db.query<{ next_number: number }>(
      `select next_number from number_series where merchant_id = $1 and series = 'INV'`,
      [ids.merchantId],
    );
    await ok(await issue(id));
    const inv = await read(id);
    const n = before[0]?.next_number ?? 1;
    expect(inv.number).toBe(`INV-${String(n).padStart(5, '0')}`);
    expect(inv.state).toBe('issued');
    expect(inv.issue_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The client's payment terms from the issue date.
    const [c] = await t.db.query<{ payment_terms_days: number }>(
      'select payment_terms_days from clients where id = $1',
      [ids.clientId],
    );
    const due = new Date(`${inv.issue_date}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + (c.payment_terms_days ?? 30));
    expect(inv.due_date).toBe(due.toISOString().slice(0, 10));
    const kept = await t.db.query<{ template: string; role: string }>(
      `select template, role from issued_documents where resource = 'invoices' and record_id = $1 order by template, role`,
      [id],
    );
    expect(new Set(kept.map((k) => k.template))).toEqual(new Set(['template1', 'template2']));
    const pdf = await call(t.app, admin, 'GET', `/api/invoices/${id}/pdf?template=template2`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });

  it('refuses every write of the issued invoice and its lines, in words', async () => {
    const id = await draft();
    await ok(await issue(id));
    const put = await call(t.app, admin, 'PUT', `/api/invoices/${id}`, { notes: 'Changed' });
    expect(put.statusCode).toBe(409);
    expect(put.json().message).toMatch(/issued and locked/);
    const [line] = await ok(await call(t.app, admin, 'GET', `/api/invoice_lines?invoice_id=${id}`));
    const lineEdit = await call(t.app, admin, 'PUT', `/api/invoice_lines/${line.id}`, { description: 'Other' });
    expect(lineEdit.statusCode).toBe(409);
    expect(lineEdit.json().message).toMatch(/can be changed only while it is draft/);
    const added = await call(t.app, admin, 'POST', '/api/invoice_lines', {
      invoice_id: id,
      work_date: '2030-01-08',
      description: 'Extra',
      quantity: 1,
      unit_price: 100,
    });
    expect(added.statusCode).toBe(409);
    expect((await call(t.app, admin, 'DELETE', `/api/invoice_lines/${line.id}`)).statusCode).toBe(409);
    const again = await issue(id);
    expect(again.statusCode).toBe(409);
    const voided = await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/void`, { reason: 'Wrong' });
    expect(voided.statusCode).toBe(409);
    expect((await read(id)).total).toBe(41708);
  });

  it('shows the issued invoice to its own client only, without the agency’s fields', async () => {
    const id = await draft();
    await ok(await issue(id));
    const seen = await read(id, client);
    expect(seen.total).toBe(41708);
    expect(seen).not.toHaveProperty('issued_by');
    expect(seen).not.toHaveProperty('run_id');
    const lines = await ok(await call(t.app, client, 'GET', `/api/invoice_lines?invoice_id=${id}`));
    expect(lines).toHaveLength(2);
    expect(lines[0]).not.toHaveProperty('timesheet_line_id');
    expect((await call(t.app, client2, 'GET', `/api/invoices/${id}`)).statusCode).toBe(404);
    expect((await call(t.app, client2, 'GET', `/api/invoices/${id}/pdf`)).statusCode).toBe(404);
    expect((await call(t.app, client, 'GET', `/api/invoices/${id}/pdf`)).statusCode).toBe(200);
  });

  it(
    dbKind === 'postgres'
      ? 'gives concurrent issues contiguous numbers'
      : 'gives issues one after another contiguous numbers',
    async () => {
      const n = dbKind === 'postgres' ? 200 : 20;
      const drafts: number[] = [];
      for (let i = 0; i < n; i++) {
        const inv = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId }), 201);
        await ok(
          await call(t.app, admin, 'POST', '/api/invoice_lines', {
            invoice_id: inv.id,
            work_date: '2030-01-07',
            description: `Line ${i}`,
            quantity: 1,
            unit_price: 1000,
          }),
          201,
        );
        drafts.push(inv.id);
      }
      const answers = await Promise.all(drafts.map((id) => issue(id)));
      expect(answers.map((a) => a.statusCode)).toEqual(drafts.map(() => 200));
      const rows = await t.db.query<{ number: string }>('select number from invoices where id = any($1::int[])', [
        drafts,
      ]);
      const numbers = rows.map((r) => Number(r.number.slice(4))).sort((a, b) => a - b);
      expect(numbers.at(-1)! - numbers[0]).toBe(n - 1);
      expect(new Set(numbers).size).toBe(n);
    },
    300_000,
  );

  it('takes no number when the issue is refused', async () => {
    const [before] = await t.db.query<{ next_number: number }>(
      `select next_number from number_series where merchant_id = $1 and series = 'INV'`,
      [ids.merchantId],
    );
    const empty = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId }), 201);
    // Refused (no lines): the series is where it was, and the next issue takes the number it would have.
    expect((await issue(empty.id)).statusCode).toBe(409);
    const [after] = await t.db.query<{ next_number: number }>(
      `select next_number from number_series where merchant_id = $1 and series = 'INV'`,
      [ids.merchantId],
    );
    expect(after.next_number).toBe(before.next_number);
    const id = await draft();
    await ok(await issue(id));
    expect((await read(id)).number).toBe(`INV-${String(before.next_number).padStart(5, '0')}`);
  });

  it('takes no number when the issue rolls back after taking one (its PDFs too): the next issue takes it', async () => {
    const series = async () =>
      (
        await t.db.query<{ next_number: number }>(
          `select next_number from number_series where merchant_id = $1 and series = 'INV'`,
          [ids.merchantId],
        )
      )[0].next_number;
    const before = await series();
    const expected = `INV-${String(before).padStart(5, '0')}`;
    const rolledBack = await draft();
    // Issued inside a larger write that then fails (a bulk step or a job after it): the number and the kept PDFs
    // were taken in its transaction, so the rollback gives them back.
    const failure = await t.db
      .transaction(async (tx) => {
        const ctx = await systemContext(t.app, tx, ids.merchantId);
        const issued = await ctx.engine.act('invoices', rolledBack, 'issue');
        expect(issued.number).toBe(expected);
        throw new Error('The step after the issue failed');
      })
      .catch((e: Error) => e.message);
    expect(failure).toBe('The step after the issue failed');
    expect(await read(rolledBack)).toMatchObject({ number: null, state: 'draft' });
    const kept = await t.db.query('select 1 from issued_documents where resource = $1 and record_id = $2', [
      'invoices',
      rolledBack,
    ]);
    expect(kept).toHaveLength(0);
    expect(await series()).toBe(before);
    const next = await draft();
    await ok(await issue(next));
    expect((await read(next)).number).toBe(expected);
    // And the one rolled back takes the number after it: the series has no gap.
    await ok(await issue(rolledBack));
    expect((await read(rolledBack)).number).toBe(`INV-${String(before + 1).padStart(5, '0')}`);
  });
});

describe('sending', () => {
  it('e-mails the issued invoice to the client’s billing address through the outbox and marks it sent', async () => {
    const id = await draft();
    const early = await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/send`, {});
    expect(early.statusCode).toBe(409);
    await ok(await issue(id));
    await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/send`, {}));
    const inv = await read(id);
    expect(inv.state).toBe('sent');
    expect(inv.sent_at).toBeTruthy();
    const [c] = await t.db.query<{ to: string }>(
      'select coalesce(billing_email, email) as to from clients where id = $1',
      [ids.clientId],
    );
    const mails = await t.db.query<{ recipient: string; subject: string; text: string }>(
      `select recipient, subject, text from email_outbox where event = 'invoice.sent' and subject like $1`,
      [`Invoice ${inv.number} %`],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].recipient).toBe(c.to);
    expect(mails[0].text).toContain(`/client/invoice/${id}`);
    expect(mails[0].text).toContain('£417.08');
  });

  it('attaches the client’s kept PDF of the chosen layout, read by reference when the mail goes', async () => {
    const id = await draft();
    await ok(await call(t.app, admin, 'PUT', `/api/invoices/${id}`, { template: 'template2' }));
    await ok(await issue(id));
    await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/send`, {}));
    // The outbox and the job name the kept document; neither holds the PDF's bytes.
    const [queued] = await t.db.query<{ id: number; attachments: number[] }>(
      `select id, attachments from email_outbox where event = 'invoice.sent' and text like $1`,
      [`%/client/invoice/${id}%`],
    );
    const [doc] = await t.db.query<{ id: number; role: string; template: string; sha256: string; data: Uint8Array }>(
      `select d.id, d.role, d.template, d.sha256, f.data from issued_documents d join files f on f.id = d.file_id
        where d.id = $1`,
      [queued.attachments[0]],
    );
    expect(queued.attachments).toHaveLength(1);
    expect(doc).toMatchObject({ role: 'manager', template: 'template2' });
    const [job] = await t.db.query<{ payload: unknown }>(
      `select payload from jobs where kind = 'email.deliver' and payload->'ids' @> $1::jsonb`,
      [JSON.stringify([queued.id])],
    );
    expect(JSON.stringify(job.payload).length).toBeLessThan(200);
    // Delivered through the embedded mail server: the message carries the kept bytes, and the mailbox says so.
    await t.db.query(`update email_outbox set status = 'sent' where status = 'queued' and id <> $1`, [queued.id]);
    const smtp = await startEmbeddedSmtp(t.db);
    const transport = createMailer(smtp.url);
    const carried: Buffer[] = [];
    try {
      const result = await deliverMail(t, {
        sendMail: (message) => {
          for (const a of message.attachments ?? []) carried.push(a.content as Buffer);
          return transport.sendMail(message);
        },
      });
      expect(result).toMatchObject({ sent: 1, failed: 0 });
    } finally {
      transport.close();
      await smtp.close();
    }
    const kept = Buffer.from(doc.data);
    expect(carried).toHaveLength(1);
    expect(carried[0].equals(kept)).toBe(true);
    const [mail] = await t.db.query<{ id: number; attachments: { filename: string; sha256: string; size: number }[] }>(
      'select id, attachments from mailbox where outbox_id = $1',
      [queued.id],
    );
    expect(mail.attachments).toEqual([
      {
        filename: expect.stringMatching(/^template2-INV-\d+\.pdf$/),
        content_type: 'application/pdf',
        size: kept.length,
        sha256: doc.sha256,
      },
    ]);
    expect(createHash('sha256').update(kept).digest('hex')).toBe(doc.sha256);
    const shown = await ok(await call(t.app, admin, 'GET', `/api/mailbox/${mail.id}`));
    expect(shown.attachments).toEqual(mail.attachments);
  });
});

describe('voiding a draft', () => {
  it('needs a reason and releases its lines', async () => {
    const id = await draft();
    expect((await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/void`, {})).statusCode).toBe(422);
    await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/void`, { reason: 'Client disputes' }));
    const inv = await read(id);
    expect(inv).toMatchObject({ state: 'void', void_reason: 'Client disputes', number: null });
    const lines = await ok(await call(t.app, admin, 'GET', `/api/invoice_lines?invoice_id=${id}`));
    expect(lines.every((l: { released_at: string | null }) => l.released_at)).toBe(true);
  });
});

describe('an invoice run', () => {
  const kit = timesheetKit(() => ({ t, admin, ids }));
  let week = 30;
  /** A verified timesheet line of client A worked on the Monday of a week long past; answers it and its week. */
  async function verifiedLine() {
    const day = monday(++week);
    const shift = await kit.workedShift(at(day, '08:00'), at(day, '16:00'));
    const g = await ok(await kit.generate({ shift_ids: [shift] }));
    await ok(await kit.act(g.timesheets[0], 'verify', { reason: 'Run test', all_lines: 1 }));
    const [line] = await t.db.query<{ id: number; charge: number }>(
      'select id, charge::int as charge from timesheet_lines where shift_id = $1',
      [shift],
    );
    return { line, from: day, to: addDaysToDate(day, 6) };
  }
  const run = (body: Record<string, unknown>) =>
    call(t.app, admin, 'POST', '/api/invoices/actions/generate', {
      mode: 'Weekly',
      client_ids: [ids.clientId],
      ...body,
    });
  const billed = async (lineId: number) =>
    t.db.query<{ invoice_id: number }>(
      'select invoice_id from invoice_lines where timesheet_line_id = $1 and released_at is null',
      [lineId],
    );

  it('previews the invoices with their lines and totals, taking nothing', async () => {
    const { line, from, to } = await verifiedLine();
    const preview = await ok(await run({ from, to, preview: true }));
    expect(preview.invoices).toHaveLength(1);
    expect(preview.invoices[0]).toMatchObject({ client_id: ids.clientId, from, to, net: line.charge });
    expect(preview.invoices[0].vat).toBe(Math.round(line.charge * 0.2));
    expect(preview.invoices[0].lines[0]).toMatchObject({ timesheet_line_id: line.id, net: line.charge });
    expect(await billed(line.id)).toEqual([]);
  });

  it('drafts the invoices of a run, and a repeated run bills nothing twice', async () => {
    const { line, from, to } = await verifiedLine();
    const made = await ok(await run({ from, to }));
    expect(made.invoices).toHaveLength(1);
    const inv = await read(made.invoices[0]);
    expect(inv).toMatchObject({ state: 'draft', run_id: made.run_id, net: line.charge, mode: 'Weekly' });
    const runRow = await ok(await call(t.app, admin, 'GET', `/api/invoice_runs/${made.run_id}`));
    expect(runRow).toMatchObject({ invoice_count: 1, line_count: 1, total: inv.total, mode: 'Weekly' });
    const again = await ok(await run({ from, to }));
    expect(again).toEqual({ run_id: null, invoices: [], lines: 0 });
    expect(await billed(line.id)).toHaveLength(1);
  });

  it('bills a line once when two runs race', async () => {
    const { line, from, to } = await verifiedLine();
    const answers = await Promise.all([run({ from, to }), run({ from, to }), run({ from, to, mode: 'daily' })]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.json().data.lines).sort()).toEqual([0, 0, 1]);
    expect(await billed(line.id)).toHaveLength(1);
  });

  it('bills a line again once its draft is voided', async () => {
    const { line, from, to } = await verifiedLine();
    const first = await ok(await run({ from, to }));
    await ok(
      await call(t.app, admin, 'POST', `/api/invoices/${first.invoices[0]}/actions/void`, { reason: 'Wrong week' }),
    );
    const second = await ok(await run({ from, to }));
    expect(second.invoices).toHaveLength(1);
    expect((await billed(line.id)).map((b) => b.invoice_id)).toEqual(second.invoices);
  });

  it('does not bill a credited line again unless the credit note says re-bill', async () => {
    const { line, from, to } = await verifiedLine();
    const first = await ok(await run({ from, to }));
    const id = first.invoices[0];
    await ok(await issue(id));
    await ok(
      await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/credit`, { kind: 'full', reason: 'Waived' }),
    );
    expect((await ok(await run({ from, to }))).lines).toBe(0);
    expect((await billed(line.id)).map((b) => b.invoice_id)).toEqual([id]);
  });

  it('re-bills a credited line on the next run', async () => {
    const { line, from, to } = await verifiedLine();
    const first = await ok(await run({ from, to }));
    const id = first.invoices[0];
    await ok(await issue(id));
    await ok(
      await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/credit`, {
        kind: 'full',
        reason: 'Wrong rate',
        rebill: true,
      }),
    );
    const second = await ok(await run({ from, to }));
    expect(second.lines).toBe(1);
    expect((await billed(line.id)).map((b) => b.invoice_id)).toEqual(second.invoices);
  });

  it('refuses a second unreleased line for the same timesheet line, whatever writes it', async () => {
    const { line, from, to } = await verifiedLine();
    await ok(await run({ from, to }));
    const other = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId }), 201);
    const res = await call(t.app, admin, 'POST', '/api/invoice_lines', {
      invoice_id: other.id,
      timesheet_line_id: line.id,
      work_date: from,
      description: 'Again',
      quantity: 1,
      unit_price: 100,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already on another invoice/);
    expect(await billed(line.id)).toHaveLength(1);
  });
});

describe('credit notes', () => {
  const credit = (id: number, body: Record<string, unknown>) =>
    call(t.app, admin, 'POST', `/api/invoices/${id}/actions/credit`, body);
  const issued = async () => {
    const id = await draft();
    await ok(await issue(id));
    return id;
  };

  it('in full mirror the invoice, in their own series, and settle it', async () => {
    const id = await issued();
    await ok(await credit(id, { kind: 'full', reason: 'Billed in error' }));
    const [note] = await ok(await call(t.app, admin, 'GET', `/api/credit_notes?invoice_id=${id}`));
    expect(note.number).toMatch(/^CN-\d{5}$/);
    expect(note).toMatchObject({ net: -38508, vat: -3200, total: -41708, kind: 'full' });
    expect(await read(id)).toMatchObject({ state: 'paid', credited: -41708, balance: 0 });
    const again = await credit(id, { kind: 'amount', amount: 100, reason: 'More' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/more than the £0.00 \(ex VAT\) left to credit/);
  });

  it('credit chosen lines, or an amount shared over the rates, never more than is left', async () => {
    const id = await issued();
    const lines = await ok(await call(t.app, admin, 'GET', `/api/invoice_lines?invoice_id=${id}`));
    const standard = lines.find((l: { vat_treatment: string }) => l.vat_treatment === 'standard');
    await ok(await credit(id, { kind: 'lines', line_ids: [standard.id], reason: 'Shift not worked' }));
    const twice = await credit(id, { kind: 'lines', line_ids: [standard.id], reason: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/has been credited already/);
    await ok(await credit(id, { kind: 'amount', amount: 508, reason: 'Goodwill' }));
    const inv = await read(id);
    // £192.00 of the standard line, then £5.08 of the exempt rest (no VAT).
    expect(inv).toMatchObject({ state: 'issued', credited: -(19200 + 508), balance: 41708 - 19708 });
    const seen = await ok(await call(t.app, client, 'GET', `/api/credit_notes?invoice_id=${id}`));
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toHaveProperty('rebill');
    expect((await ok(await call(t.app, client2, 'GET', `/api/credit_notes?invoice_id=${id}`))).length).toBe(0);
    expect((await call(t.app, client2, 'GET', `/api/credit_notes/${seen[0].id}`)).statusCode).toBe(404);
  });

  it('are refused on a draft, in words', async () => {
    const res = await credit(await draft(), { kind: 'full', reason: 'No' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Credit note/);
  });
});

describe('payments', () => {
  const pay = (body: Record<string, unknown>) =>
    call(t.app, admin, 'POST', '/api/payments', {
      client_id: ids.client2Id,
      paid_on: '2030-02-01',
      reference: 'BACS 1',
      ...body,
    });
  /** An issued invoice of client B, total £417.08. */
  const issuedB = async () => {
    const id = await draft(ids.client2Id);
    await ok(await issue(id));
    return id;
  };
  /** What client B owes on invoices other than these (the demo's, and earlier tests'). */
  const owedBesides = async (mine: number[]) => {
    const [row] = await t.db.query<{ owed: string }>(
      `select coalesce(sum(total + credited - paid), 0) as owed from invoices
        where client_id = $1 and state in ('issued', 'sent', 'part_paid') and id <> all($2::int[])`,
      [ids.client2Id, mine],
    );
    return Number(row.owed);
  };

  it('split over a client’s invoices settle each; an overpayment is refused in words', async () => {
    const [a, b] = [await issuedB(), await issuedB()];
    const before = await owedBesides([a, b]);
    const over = await pay({ amount: before + 41708 * 2 + 1 });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.amount).toContain(`more than the ${formatPounds(before + 41708 * 2)} the client owes`);
    const split = await ok(
      await pay({
        amount: 41708 + 100,
        split: [
          { invoice_id: a, amount: 41708 },
          { invoice_id: b, amount: 100 },
        ],
      }),
      201,
    );
    expect(await read(a)).toMatchObject({ state: 'paid', paid: 41708, balance: 0 });
    expect(await read(b)).toMatchObject({ state: 'part_paid', paid: 100, balance: 41608 });
    const tooMuch = await pay({ amount: 41609, split: [{ invoice_id: b, amount: 41609 }] });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount).toMatch(/would overpay/);
    // Reversed with a reason, never deleted: both invoices owe again what they did.
    expect((await call(t.app, admin, 'POST', `/api/payments/${split.id}/actions/reverse`, {})).statusCode).toBe(422);
    await ok(await call(t.app, admin, 'POST', `/api/payments/${split.id}/actions/reverse`, { reason: 'Bounced' }));
    expect(await read(a)).toMatchObject({ state: 'issued', paid: 0, balance: 41708 });
    expect(await read(b)).toMatchObject({ state: 'issued', paid: 0 });
    const again = await call(t.app, admin, 'POST', `/api/payments/${split.id}/actions/reverse`, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect((await call(t.app, admin, 'DELETE', `/api/payments/${split.id}`)).statusCode).toBe(403);
    // Without a split, oldest due first (the demo's older invoices of client B before these two); nothing is left
    // open of client B's afterwards.
    await ok(await pay({ amount: before + 41708 * 2 }), 201);
    expect((await read(a)).state).toBe('paid');
    expect((await read(b)).state).toBe('paid');
  });

  it('are the agency’s books: a client user reads none, only what was put against its own invoices', async () => {
    expect((await call(t.app, client, 'GET', '/api/payments')).statusCode).toBe(403);
    const id = await draft();
    await ok(await issue(id));
    const payment = await ok(
      await call(t.app, admin, 'POST', '/api/payments', {
        client_id: ids.clientId,
        paid_on: '2030-02-03',
        reference: 'BACS 77',
        amount: 1000,
        split: [{ invoice_id: id, amount: 1000 }],
      }),
      201,
    );
    await ok(await call(t.app, admin, 'POST', `/api/payments/${payment.id}/actions/reverse`, { reason: 'Bounced' }));
    const seen = await ok(await call(t.app, client, 'GET', `/api/payment_allocations?invoice_id=${id}`));
    expect(seen).toEqual([
      expect.objectContaining({ invoice_id: id, amount: 1000, paid_on: '2030-02-03', reference: 'BACS 77' }),
      expect.objectContaining({ invoice_id: id, amount: -1000, paid_on: '2030-02-03', reference: 'BACS 77' }),
    ]);
    expect(seen[0]).not.toHaveProperty('payment_id');
    const other = await ok(await call(t.app, client2, 'GET', `/api/payment_allocations?invoice_id=${id}`));
    expect(other).toEqual([]);
    expect((await call(t.app, client2, 'GET', `/api/payment_allocations/${seen[0].id}`)).statusCode).toBe(404);
  });
});
