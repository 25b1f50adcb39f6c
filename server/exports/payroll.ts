// A pay run's files (issue 33, output): GET /api/pay_runs/:id/files/{bureau,bank,self-billing}. The rows are the
// domain's (core/domain/payroll/exports.ts) from the payslips as stored; the files are written by the list exports'
// CSV writer (csvBuffer: CSV_OPTIONS, formulas neutralised) and take their turn with the other exports
// (exportSlots). Only for whoever may export pay runs (admins), within their agency (another's run: 404), of an
// approved or finalised run (a draft may still change, a cancelled run pays nothing: 409 in words). Each file is an
// entry of the run's audit trail; the bank file also one of each staff member whose bank details it opened.
// docs/decisions.md, "Issue 33 — bank details and a pay run's files".
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http.js';
import { route } from '../routes/route.js';
import type { EngineContext } from '../engine/context.js';
import { writeAudit } from '../engine/audit.js';
import { csvBuffer, EXPORT_FORMATS, exportTurn, sendDownload } from './routes.js';
import { fileAnswer } from '../../core/contracts/documents.js';
import { IdParams } from '../../core/contracts/common.js';
import { formatPounds } from '../../core/engine/money.js';
import { formatAddress } from '../../core/engine/exportFormat.js';
import {
  BUREAU_HEADER,
  bankPayments,
  bureauRows,
  SELF_BILLING_HEADER,
  selfBillingRows,
  type Cell,
  type SelfBillingCustomer,
  type PayslipForExport,
  type RunForExport,
} from '../../core/domain/payroll/exports.js';
import type { Frequency } from '../../core/domain/payroll/rates.js';
import { bankDetailsOf, recordBankDetailsRead } from '../services/bankDetails.js';
import { selfBillingAgreementsOf } from '../services/payrollLines.js';

export const PAY_RUN_FILES = {
  bureau: { label: 'Payroll bureau CSV', summary: "The payroll bureau's gross-to-net CSV (FPS-ready figures)" },
  bank: { label: 'Bank payments file', summary: 'The bank payments file (BACS Standard 18, CSV layout)' },
  'self-billing': {
    label: 'Self-billing export',
    summary: 'Self-billed invoices of umbrella and limited-company workers (CSV)',
  },
} as const;
export type PayRunFile = keyof typeof PAY_RUN_FILES;

/** The entry each file leaves in its run's trail (a declared action of no role: core/resources/payroll/resource.ts). */
export const FILE_EXPORTED = 'file_exported';

/** Why a run has no files yet, or none at all; null when it has. */
export function filesRefusal(run: Record<string, unknown>): string | null {
  if (run.state === 'draft')
    return 'This pay run is a draft: its payslips may still change. Approve it, then export its files.';
  if (run.state === 'cancelled') return 'This pay run is cancelled: it pays nothing, so it has no files.';
  return null;
}

/** The run's payslips with their staff members, as stored (amounts in pence). One query. */
async function payslipsOf(ctx: EngineContext, runId: number): Promise<PayslipForExport[]> {
  const rows = await ctx.db.query<Record<string, unknown>>(
    `select p.id, p.candidate_id, c.first_name, c.last_name, c.ni_number, to_char(c.date_of_birth, 'YYYY-MM-DD') as dob,
            p.paye, p.tax_code, p.week1, p.ni_category, p.paid_to, p.company_number, p.company_address, p.vat_number,
            p.vat_rate, p.vat, p.amount_paid,
            (select coalesce(sum(l.hours), 0) from payslip_lines l where l.merchant_id = p.merchant_id
                and l.payslip_id = p.id and l.kind = 'pay' and l.released_at is null) as hours,
            p.gross, p.holiday_pay, p.taxable_pay, p.tax, p.employee_ni, p.employer_ni, p.student_loan,
            p.pension_employee, p.pension_employer, p.deductions, p.net, p.ytd_gross, p.ytd_tax, p.ytd_employee_ni
       from payslips p join candidates c on c.merchant_id = p.merchant_id and c.id = p.candidate_id
      where p.merchant_id = $1 and p.pay_run_id = $2 order by p.id`,
    [ctx.principal.merchantId, runId],
  );
  const n = (v: unknown) => Number(v ?? 0);
  const t = (v: unknown) => (v == null || v === '' ? null : String(v));
  return rows.map((r) => ({
    payslipId: n(r.id),
    candidateId: n(r.candidate_id),
    firstName: String(r.first_name ?? ''),
    lastName: String(r.last_name ?? ''),
    niNumber: t(r.ni_number)?.replace(/\s/g, '').toUpperCase() ?? null,
    dateOfBirth: t(r.dob),
    paye: r.paye !== false,
    taxCode: t(r.tax_code),
    week1: r.week1 === true,
    niCategory: t(r.ni_category),
    paidTo: t(r.paid_to),
    companyNumber: t(r.company_number),
    companyAddress: t(r.company_address),
    vatNumber: t(r.vat_number),
    vatRate: r.vat_rate == null ? null : n(r.vat_rate),
    vat: n(r.vat),
    amountPaid: n(r.amount_paid),
    hours: n(r.hours),
    gross: n(r.gross),
    holidayPay: n(r.holiday_pay),
    taxablePay: n(r.taxable_pay),
    tax: n(r.tax),
    employeeNi: n(r.employee_ni),
    employerNi: n(r.employer_ni),
    studentLoan: n(r.student_loan),
    pensionEmployee: n(r.pension_employee),
    pensionEmployer: n(r.pension_employer),
    deductions: n(r.deductions),
    net: n(r.net),
    ytdGross: n(r.ytd_gross),
    ytdTax: n(r.ytd_tax),
    ytdEmployeeNi: n(r.ytd_employee_ni),
  }));
}

/**
 * The customer of every self-billed invoice: the agency, by its legal name (its trading name when it gave none) and
 * its address, from its settings as they are now (its own details, not the supplier's). One query.
 */
async function customerOf(ctx: EngineContext): Promise<SelfBillingCustomer> {
  const [row] = await ctx.db.query<{ name: string; legal_name: string | null; address: unknown }>(
    `select m.company_name as name, a.legal_name, a.address
       from merchants m left join agency_settings a on a.merchant_id = m.id where m.id = $1`,
    [ctx.principal.merchantId],
  );
  return { name: row?.legal_name?.trim() || row?.name || '', address: formatAddress(row?.address) };
}

const runOf = (r: Record<string, unknown>): RunForExport => ({
  id: Number(r.id),
  frequency: r.frequency as Frequency,
  taxYear: String(r.tax_year ?? ''),
  taxPeriod: Number(r.tax_period ?? 0),
  periodStart: String(r.period_start),
  periodEnd: String(r.period_end),
});

/** The file's header and rows, in the run's transaction (the bank file's reads of bank details audited in it). */
async function fileOf(ctx: EngineContext, file: PayRunFile, run: RunForExport) {
  const slips = await payslipsOf(ctx, run.id);
  if (file === 'bureau') return { header: BUREAU_HEADER, rows: bureauRows(run, slips) as Cell[][] };
  if (file === 'self-billing') {
    const agreements = await selfBillingAgreementsOf(ctx, [...new Set(slips.map((s) => s.candidateId))]);
    const rows = selfBillingRows(run, slips, await customerOf(ctx), (id) => agreements.get(id) ?? []);
    return { header: SELF_BILLING_HEADER, rows };
  }
  const paying = [...new Set(slips.filter((s) => s.amountPaid > 0).map((s) => s.candidateId))];
  const banks = await bankDetailsOf(ctx, paying);
  const payments = bankPayments(run, slips, (id) => banks.get(id) ?? null);
  if (payments.missing.length) {
    const who = payments.missing.map((m) => `${m.name} (${formatPounds(m.amount)})`).join(', ');
    const n = payments.missing.length;
    throw new HttpError(
      409,
      `The bank payments file was not made: ${n} staff member${n === 1 ? '' : 's'} paid by this run ${n === 1 ? 'has' : 'have'} no bank details: ${who}. Enter them on ${n === 1 ? 'their profile' : 'their profiles'} (Bank details), then export again.`,
    );
  }
  await recordBankDetailsRead(ctx, [...banks.keys()], `Bank payments file of pay run ${run.id}`);
  return { header: payments.header, rows: payments.rows as Cell[][] };
}

function registerFile(app: FastifyInstance, file: PayRunFile) {
  route(app, {
    method: 'GET',
    url: `/api/pay_runs/:id/files/${file}`,
    may: { pay_runs: 'export' },
    record: 'pay_runs',
    schema: {
      tags: ['Pay runs'],
      summary: PAY_RUN_FILES[file].summary,
      description:
        'Of an approved or finalised run (409 in words for a draft or a cancelled run). ' +
        (file === 'bureau'
          ? "One row per PAYE payslip: the figures the bureau's software needs for its FPS (real-time submission to HMRC is the bureau's, not the product's)."
          : file === 'bank'
            ? 'One payment per payslip paying more than nothing (net pay, with the VAT of a VAT-registered company): sort code, account number, name, amount, reference. 409 naming every staff member paid without bank details (nothing is left out silently); each staff member whose details it holds has an entry in their history.'
            : 'One self-billed invoice per umbrella or limited-company payslip: the gross paid to the company as its net, the VAT rate, VAT and total of a VAT-registered company (with the statement VAT Notice 700/62 requires), as the run paid them.'),
      params: IdParams,
      response: { 200: fileAnswer([EXPORT_FORMATS.csv], PAY_RUN_FILES[file].label) },
    },
    handler: async ({ req, reply, record, transaction }) => {
      const refusal = filesRefusal(record);
      if (refusal) throw new HttpError(409, refusal);
      const release = await exportTurn(req.auth!, reply);
      if (!release) return reply;
      try {
        const run = runOf(record);
        const { header, rows } = await transaction(async (tx) => {
          const out = await fileOf(tx, file, run);
          await writeAudit(tx.db, tx.principal, {
            resource: 'pay_runs',
            recordId: run.id,
            event: 'action',
            action: FILE_EXPORTED,
            input: { file: PAY_RUN_FILES[file].label, rows: out.rows.length },
            at: tx.now,
          });
          return out;
        });
        const body = await csvBuffer(header, rows);
        reply.header('x-export-rows', String(rows.length));
        reply.raw.once('close', release);
        return sendDownload(reply, body, EXPORT_FORMATS.csv, `pay-run-${run.id}-${run.periodEnd}-${file}.csv`);
      } catch (e) {
        release();
        throw e;
      }
    },
  });
}

/** The pay runs' files. */
export async function payRunFileRoutes(app: FastifyInstance) {
  for (const file of Object.keys(PAY_RUN_FILES) as PayRunFile[]) registerFile(app, file);
}
