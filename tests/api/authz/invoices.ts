import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, row, type Outcome } from './principals';
import { fixtureWrite } from '../helpers';

/*
 * Client invoices (issue 32): agency admins draft, issue and void; consultants read and export; a client's users read
 * their own client's issued invoices (the shared one is issued, so an admin's edit of it is refused 409: issued
 * invoices are locked); staff nothing; the other agency finds nothing (404).
 */
const post = async (ctx: AuthzContext, url: string, body: unknown) =>
  ctx.must(
    await ctx.t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${ctx.setup}` },
      payload: body as Record<string, unknown>,
    }),
    url.includes('/actions/') ? 200 : 201,
  );

const lineOf = (invoiceId: number) => ({
  invoice_id: invoiceId,
  work_date: '2030-01-07',
  description: 'Authz line',
  quantity: 1,
  unit_price: 1000,
});

/** A new draft of client A with one line; answers the invoice's and the line's ids. */
async function draft(ctx: AuthzContext) {
  const inv = await post(ctx, '/api/invoices', { client_id: ctx.ids.clientA });
  const line = await post(ctx, '/api/invoice_lines', lineOf(inv.id));
  return { id: inv.id as number, line: line.id as number };
}

const paymentOf = (ctx: AuthzContext) => ({ client_id: ctx.ids.clientA, paid_on: '2030-01-08', amount: 1 });

type Cols = [Outcome, Outcome, Outcome, Outcome, Outcome];
const actionRows = (name: string, [admin, consultant, clientA, clientB, other]: Cols, bulk: boolean) => [
  row('POST', `/api/invoices/:id/actions/${name}`, A, admin, consultant, clientA, clientB, other, F, A),
  ...(bulk ? [row('POST', `/api/invoices/actions/${name}`, A, admin, consultant, clientA, clientB, other, F, A)] : []),
];

export const invoices: AuthzArea = {
  get rows() {
    return [
      row('GET', '/api/invoices', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/invoices/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('POST', '/api/invoices', A, 201, F, F, F, 422, F, A),
      // The create form's starting layout: whoever may create an invoice.
      row('GET', '/api/invoices/defaults', A, 'ok', F, F, F, 'ok', F, A),
      row('PUT', '/api/invoices/:id', A, 409, F, F, F, N, F, A),
      row('DELETE', '/api/invoices/:id', A, F, F, F, F, F, F, A),
      row('GET', '/api/invoices/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('POST', '/api/invoices/actions/generate', A, 'ok', F, F, F, 'ok', F, A),
      ...actionRows('issue', ['ok', F, F, F, N], true),
      ...actionRows('void', ['ok', F, F, F, N], false),
      ...actionRows('send', ['ok', F, F, F, N], true),
      ...actionRows('credit', ['ok', F, F, F, N], false),
      row('GET', '/api/invoices/:id/pdf', A, 'ok', 'ok', 'ok', N, N, F, A),
      // Accounting exports are the agency's, as the invoices' export grant says: consultants too, client users never.
      // Agency B's only issued document is a credit note, which QuickBooks' import cannot take: nothing to export.
      row('GET', '/api/invoices/export/xero', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/invoices/export/quickbooks', A, 'ok', 'ok', F, F, 409, F, A),
      // E-invoices: whoever reads the document, in their row scope (another client's: 404).
      row('GET', '/api/invoices/:id/ubl', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('GET', '/api/credit_notes/:id/ubl', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('GET', '/api/invoice_export_batches', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/invoice_export_batches/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('POST', '/api/invoice_export_batches', A, F, F, F, F, F, F, A),
      row('PUT', '/api/invoice_export_batches/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/invoice_export_batches/:id', A, F, F, F, F, F, F, A),

      row('GET', '/api/invoice_lines', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/invoice_lines/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('POST', '/api/invoice_lines', A, 201, F, F, F, 422, F, A),
      row('PUT', '/api/invoice_lines/:id', A, 409, F, F, F, N, F, A),
      row('DELETE', '/api/invoice_lines/:id', A, 'ok', F, F, F, N, F, A),
      row('GET', '/api/invoice_lines/export', A, 'ok', F, F, F, 'ok', F, A),

      row('GET', '/api/credit_notes', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/credit_notes/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('POST', '/api/credit_notes', A, F, F, F, F, F, F, A),
      row('PUT', '/api/credit_notes/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/credit_notes/:id', A, F, F, F, F, F, F, A),
      row('GET', '/api/credit_notes/export', A, 'ok', F, F, F, 'ok', F, A),
      // The credit note's declared document, kept when it was made: as its show, another client's answers 404.
      row('GET', '/api/credit_notes/:id/pdf', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('GET', '/api/credit_note_lines', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/credit_note_lines/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('POST', '/api/credit_note_lines', A, F, F, F, F, F, F, A),
      row('PUT', '/api/credit_note_lines/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/credit_note_lines/:id', A, F, F, F, F, F, F, A),

      row('GET', '/api/payments', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/payments/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('POST', '/api/payments', A, 201, F, F, F, 422, F, A),
      row('PUT', '/api/payments/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/payments/:id', A, F, F, F, F, F, F, A),
      row('GET', '/api/payments/export', A, 'ok', F, F, F, 'ok', F, A),
      row('POST', '/api/payments/:id/actions/reverse', A, 'ok', F, F, F, N, F, A),
      // A client's users read what was put against their own invoices (the shared payment is client A's).
      row('GET', '/api/payment_allocations', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/payment_allocations/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('POST', '/api/payment_allocations', A, F, F, F, F, F, F, A),
      row('PUT', '/api/payment_allocations/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/payment_allocations/:id', A, F, F, F, F, F, F, A),

      row('GET', '/api/invoice_runs', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/invoice_runs/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('POST', '/api/invoice_runs', A, F, F, F, F, F, F, A),
      row('PUT', '/api/invoice_runs/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/invoice_runs/:id', A, F, F, F, F, F, F, A),
      // The shared run has no job: Resume is allowed (it has not finished) and has nothing to give back.
      row('POST', '/api/invoice_runs/:id/actions/resume', A, 'ok', F, F, F, N, F, A),

      // The agency's invoice settings (issue 32): its admins change them, its consultants read them, each agency its
      // own one row.
      row('GET', '/api/invoice_settings', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('PUT', '/api/invoice_settings', A, 'ok', F, F, F, 'ok', F, A),
    ];
  },
  async prepare(ctx) {
    const shared = await draft(ctx);
    await post(ctx, `/api/invoices/${shared.id}/actions/issue`, {});
    ctx.shared.invoices = shared.id;
    await post(ctx, `/api/invoices/${shared.id}/actions/credit`, { kind: 'amount', amount: 1, reason: 'Authz' });
    const [note] = await ctx.t.db.query<{ id: number }>('select id from credit_notes where invoice_id = $1', [
      shared.id,
    ]);
    const [noteLine] = await ctx.t.db.query<{ id: number }>(
      'select id from credit_note_lines where credit_note_id = $1',
      [note.id],
    );
    ctx.shared.credit_notes = note.id;
    const payment = await post(ctx, '/api/payments', paymentOf(ctx));
    ctx.shared.payments = payment.id;
    const [alloc] = await ctx.t.db.query<{ id: number }>('select id from payment_allocations where payment_id = $1', [
      payment.id,
    ]);
    ctx.shared.payment_allocations = alloc.id;
    ctx.shared.credit_note_lines = noteLine.id;
    ctx.shared.invoice_lines = shared.line;
    const [run] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into invoice_runs (merchant_id, mode, period_start, period_end, started_by) values ($1, 'Weekly', '2030-01-07', '2030-01-13', 'Authz') returning id`,
      [ctx.ids.merchantA],
    );
    ctx.shared.invoice_runs = run.id;
    const [batch] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into invoice_export_batches (merchant_id, package, invoice_ids) values ($1, 'xero', $2) returning id`,
      [ctx.ids.merchantA, [shared.id]],
    );
    ctx.shared.invoice_export_batches = batch.id;
    // The agency's VAT number, which every e-invoice carries as its Peppol address.
    await fixtureWrite(ctx.t.db, `update agency_settings set vat_number = 'GB123456789' where merchant_id = $1`, [
      ctx.ids.merchantA,
    ]);

    const [ib] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into invoices (merchant_id, client_id, state, template) values ($1, $2, 'draft', 'template1') returning id`,
      [ctx.ids.merchantB, ctx.sharedB.clients],
    );
    ctx.sharedB.invoices = ib.id;
    const [lb] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into invoice_lines (merchant_id, invoice_id, description, work_date, quantity, unit_price, vat_treatment)
       values ($1, $2, 'Authz B', '2030-01-07', 1, 1000, 'standard') returning id`,
      [ctx.ids.merchantB, ib.id],
    );
    ctx.sharedB.invoice_lines = lb.id;
    const [nb] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into credit_notes (merchant_id, number, invoice_id, client_id, kind, reason, issue_date, net, vat, total)
       values ($1, 'CN-B', $2, $3, 'amount', 'Authz B', '2030-01-07', -1, 0, -1) returning id`,
      [ctx.ids.merchantB, ib.id, ctx.sharedB.clients],
    );
    ctx.sharedB.credit_notes = nb.id;
    const [nlb] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into credit_note_lines (merchant_id, credit_note_id, description, vat_treatment, vat_rate, net, vat)
       values ($1, $2, 'Authz B', 'standard', 2000, -1, 0) returning id`,
      [ctx.ids.merchantB, nb.id],
    );
    ctx.sharedB.credit_note_lines = nlb.id;
    const [pb] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into payments (merchant_id, client_id, paid_on, amount, method, state) values ($1, $2, '2030-01-07', 1, 'other', 'recorded') returning id`,
      [ctx.ids.merchantB, ctx.sharedB.clients],
    );
    ctx.sharedB.payments = pb.id;
    const [ab] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into payment_allocations (merchant_id, payment_id, invoice_id, amount) values ($1, $2, $3, 1) returning id`,
      [ctx.ids.merchantB, pb.id, ib.id],
    );
    ctx.sharedB.payment_allocations = ab.id;
    const [rb] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into invoice_runs (merchant_id, mode, period_start, period_end) values ($1, 'Weekly', '2030-01-07', '2030-01-13') returning id`,
      [ctx.ids.merchantB],
    );
    ctx.sharedB.invoice_runs = rb.id;
    const [bb] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into invoice_export_batches (merchant_id, package) values ($1, 'xero') returning id`,
      [ctx.ids.merchantB],
    );
    ctx.sharedB.invoice_export_batches = bb.id;
  },
  createBody: {
    invoices: async (ctx) => ({ client_id: ctx.ids.clientA }),
    invoice_runs: async () => ({}),
    invoice_export_batches: async () => ({}),
    credit_notes: async () => ({}),
    payment_allocations: async () => ({}),
    // A penny against client A's open invoices (the setup issues one for each payment).
    payments: async (ctx) => {
      const { id } = await draft(ctx);
      await post(ctx, `/api/invoices/${id}/actions/issue`, {});
      return paymentOf(ctx);
    },
    credit_note_lines: async () => ({}),
    invoice_lines: async (ctx) => lineOf((await post(ctx, '/api/invoices', { client_id: ctx.ids.clientA })).id),
  },
  fresh: {
    invoices: async (ctx) => (await draft(ctx)).id,
    invoice_lines: async (ctx) => (await draft(ctx)).line,
    invoice_runs: async (ctx) => Number(ctx.shared.invoice_runs),
    invoice_export_batches: async (ctx) => Number(ctx.shared.invoice_export_batches),
    credit_notes: async (ctx) => Number(ctx.shared.credit_notes),
    payment_allocations: async (ctx) => Number(ctx.shared.payment_allocations),
    payments: async (ctx) => {
      const { id } = await draft(ctx);
      await post(ctx, `/api/invoices/${id}/actions/issue`, {});
      return (await post(ctx, '/api/payments', paymentOf(ctx))).id as number;
    },
    credit_note_lines: async (ctx) => Number(ctx.shared.credit_note_lines),
    'invoices send': async (ctx) => {
      const { id } = await draft(ctx);
      await post(ctx, `/api/invoices/${id}/actions/issue`, {});
      return id;
    },
    // An issued invoice of client A, for its credit note.
    'invoices credit': async (ctx) => {
      const { id } = await draft(ctx);
      await post(ctx, `/api/invoices/${id}/actions/issue`, {});
      return id;
    },
  },
  actionInput: {
    'invoices void': { reason: 'Authz test' },
    'invoices credit': { kind: 'full', reason: 'Authz test' },
    'payments reverse': { reason: 'Authz test' },
  },
  requests: {
    'PUT /api/invoice_settings': () => ({
      method: 'PUT',
      url: '/api/invoice_settings',
      payload: { footer: 'Authz footer' },
    }),
    // A week long past and of no client's work: the run answers what it made (nothing), within the caller's agency.
    'POST /api/invoices/actions/generate': () => ({
      method: 'POST',
      url: '/api/invoices/actions/generate',
      payload: { mode: 'Weekly', from: '2020-01-06', to: '2020-01-12' },
    }),
    // Every document again (an earlier row's export has them in its batch): what each principal may export.
    'GET /api/invoices/export/xero': () => ({ method: 'GET', url: '/api/invoices/export/xero?include_exported=true' }),
    'GET /api/invoices/export/quickbooks': () => ({
      method: 'GET',
      url: '/api/invoices/export/quickbooks?include_exported=true',
    }),
    'GET /api/invoices/:id/ubl': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/invoices/${otherAgency ? ctx.sharedB.invoices : ctx.shared.invoices}/ubl`,
    }),
    'GET /api/credit_notes/:id/ubl': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/credit_notes/${otherAgency ? ctx.sharedB.credit_notes : ctx.shared.credit_notes}/ubl`,
    }),
    'GET /api/invoices/:id/pdf': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/invoices/${otherAgency ? ctx.sharedB.invoices : ctx.shared.invoices}/pdf`,
    }),
    'GET /api/credit_notes/:id/pdf': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/credit_notes/${otherAgency ? ctx.sharedB.credit_notes : ctx.shared.credit_notes}/pdf`,
    }),
  },
};
