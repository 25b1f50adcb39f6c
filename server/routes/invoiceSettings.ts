// /appsetting/invoicesetting (issue 32): the agency's invoice settings, one row per agency written by the engine
// (core/resources/invoices/settings.ts), and its invoice and credit-note series (prefix, next number: forward only,
// by moveSeries, the rule of PUT /api/number_series). One save, one transaction: a refusal of any field changes
// nothing, and every refusal comes back at once, each next to its field.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http.js';
import { route } from './route.js';
import type { Queryable } from '../db/index.js';
import { saveAgencyRow } from '../engine/agencyRows.js';
import { moveSeries } from './numberSeries.js';
import { NEXT_NUMBER_MAX } from '../engine/numbering.js';
import { AnyBody } from '../../core/contracts/notifications.js';
import { InvoiceSettingsAnswer, type InvoiceSettings } from '../../core/contracts/invoiceSettings.js';

const DEFAULTS = {
  nursing_concession_from: null,
  default_payment_terms_days: 30,
  bank_account_name: null,
  bank_sort_code: null,
  bank_account_number: null,
  footer: null,
  default_template: 'template1',
  reminder_days: '7, 14, 30',
  version: 0,
};

/** The two series the screen moves: the field names it shows them under, and the declaration that numbers each. */
const SERIES = [
  { resource: 'invoices', prefix: 'invoice_prefix', next: 'invoice_next_number' },
  { resource: 'credit_notes', prefix: 'credit_note_prefix', next: 'credit_note_next_number' },
] as const;

const PREFIX = /^[A-Za-z0-9/_-]{1,10}$/;
const PREFIX_WORDS = 'Use 1 to 10 letters, digits, -, / or _ (such as INV-).';
const NEXT_WORDS = `Give the next number as a whole number from 1 to ${NEXT_NUMBER_MAX.toLocaleString('en-GB')}.`;

/** The agency's settings (the defaults where nothing is saved), with its series as they are. */
export async function invoiceSettingsOf(
  db: Queryable,
  merchantId: number,
  numbering: (resource: string) => { series: string; prefix?: string },
): Promise<InvoiceSettings> {
  const [row] = await db.query<Omit<InvoiceSettings, (typeof SERIES)[number]['prefix' | 'next']>>(
    `select nursing_concession_from::text as nursing_concession_from, default_payment_terms_days,
            bank_account_name, bank_sort_code, bank_account_number, footer, default_template, reminder_days, version
       from invoice_settings where merchant_id = $1`,
    [merchantId],
  );
  const series = await db.query<{ series: string; prefix: string; next_number: number }>(
    'select series, prefix, next_number from number_series where merchant_id = $1',
    [merchantId],
  );
  const out: Record<string, unknown> = { ...(row ?? DEFAULTS) };
  for (const s of SERIES) {
    const n = numbering(s.resource);
    const stored = series.find((r) => r.series === n.series);
    out[s.prefix] = stored?.prefix ?? n.prefix ?? '';
    out[s.next] = stored?.next_number ?? 1;
  }
  return out as InvoiceSettings;
}

export async function invoiceSettingsRoutes(app: FastifyInstance) {
  const numbering = (resource: string) => app.engine.get(resource)!.decl.numbering!;

  route(app, {
    method: 'GET',
    url: '/api/invoice_settings',
    may: { invoice_settings: 'show' },
    schema: {
      tags: ['invoices'],
      summary: "The agency's invoice settings, with its invoice and credit-note number series",
      response: { 200: InvoiceSettingsAnswer },
    },
    handler: async ({ ctx }) => ({ data: await invoiceSettingsOf(ctx.db, ctx.principal.merchantId, numbering) }),
  });

  route(app, {
    method: 'PUT',
    url: '/api/invoice_settings',
    may: { invoice_settings: ['create', 'edit'] },
    schema: {
      tags: ['invoices'],
      summary: 'Save the invoice settings (admins); next numbers move forward only',
      body: AnyBody,
      response: { 200: InvoiceSettingsAnswer },
    },
    handler: async ({ req, transaction }) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const c = app.engine.get('invoice_settings')!;
      const data = await transaction(async (ctx) => {
        const m = ctx.principal.merchantId;
        const problems: Record<string, string> = {};
        try {
          // Saved first, so the engine checks every field; a refused series below still rolls it back.
          await saveAgencyRow(ctx, c, body);
        } catch (e) {
          if (!(e instanceof HttpError) || e.status !== 422 || !e.errors) throw e;
          Object.assign(problems, e.errors);
        }
        for (const s of SERIES) {
          const prefix = body[s.prefix];
          const next = body[s.next];
          const change: { prefix?: string; next_number?: number } = {};
          if (prefix !== undefined) {
            if (typeof prefix === 'string' && PREFIX.test(prefix)) change.prefix = prefix;
            else problems[s.prefix] = PREFIX_WORDS;
          }
          if (next !== undefined) {
            if (typeof next === 'number' && Number.isSafeInteger(next) && next >= 1 && next <= NEXT_NUMBER_MAX)
              change.next_number = next;
            else problems[s.next] = NEXT_WORDS;
          }
          const n = numbering(s.resource);
          const moved = await moveSeries(ctx.db, ctx.principal, n.series, n, change);
          if ('problems' in moved) {
            if (moved.problems.prefix) problems[s.prefix] = moved.problems.prefix;
            if (moved.problems.next_number) problems[s.next] = moved.problems.next_number;
          }
        }
        if (Object.keys(problems).length) throw new HttpError(422, 'Some fields need your attention.', problems);
        return invoiceSettingsOf(ctx.db, m, numbering);
      });
      return { data, message: 'Invoice settings saved' };
    },
  });
}
