// A pay run's files (issue 33, output): the payroll bureau's gross-to-net CSV (the figures an FPS needs, for the
// bureau's software: RTI submission itself is out of scope), the bank payments file (BACS Standard 18, CSV layout)
// and the self-billing export of umbrella and limited-company workers. Rows are arrays (text as strings, amounts in
// pounds as numbers, the BACS amount as its two-decimal text); the server writes them with the list exports' CSV
// writer (CSV_OPTIONS: formulas neutralised). Every figure is the payslip's as stored: these rules only lay it out.
import { penceToPounds } from '../../engine/money';
import { BACS_HEADER, bacsRow, type BankDetails } from './bankDetails';
import { isWeek53 } from './paye';
import type { Frequency } from './rates';
import { percentOfBasisPoints } from './payslip';
import {
  agreementCell,
  agreementInForce,
  SELF_BILLING_NO_VAT,
  SELF_BILLING_VAT_STATEMENT,
  type Agreement,
} from './selfBilling';

export type Cell = string | number;

/** A pay run as its files name it. */
export interface RunForExport {
  id: number;
  frequency: Frequency;
  taxYear: string;
  taxPeriod: number;
  periodStart: string;
  /** The pay day. */
  periodEnd: string;
}

/** A payslip with its staff member, as stored (amounts in pence). */
export interface PayslipForExport {
  payslipId: number;
  candidateId: number;
  firstName: string;
  lastName: string;
  niNumber: string | null;
  dateOfBirth: string | null;
  paye: boolean;
  taxCode: string | null;
  week1: boolean;
  niCategory: string | null;
  /** The company an umbrella or limited-company worker was paid to, its details as they were when paid. */
  paidTo: string | null;
  companyNumber: string | null;
  companyAddress: string | null;
  /** Null when the company was not VAT-registered when paid: no VAT was charged. */
  vatNumber: string | null;
  /** Basis points; null without VAT. */
  vatRate: number | null;
  vat: number;
  /** What the run pays: net pay, with the VAT of a VAT-registered company. */
  amountPaid: number;
  hours: number;
  gross: number;
  holidayPay: number;
  taxablePay: number;
  tax: number;
  employeeNi: number;
  employerNi: number;
  studentLoan: number;
  pensionEmployee: number;
  pensionEmployer: number;
  deductions: number;
  net: number;
  ytdGross: number;
  ytdTax: number;
  ytdEmployeeNi: number;
}

const name = (s: PayslipForExport) => `${s.firstName} ${s.lastName}`.trim();
const pounds = penceToPounds;
/** HMRC's pay frequency codes in an FPS: W1 weekly, M1 monthly. */
const FPS_FREQUENCY: Record<Frequency, string> = { weekly: 'W1', monthly: 'M1' };
/**
 * The FPS's week 53 indicator: 53 on a weekly payment in tax week 53 (54 and 56 are the fortnightly and four-weekly
 * ones, which the product does not pay), empty otherwise.
 */
const week53Indicator = (run: RunForExport) => (isWeek53(run.frequency, run.taxPeriod) ? '53' : '');

export const BUREAU_HEADER = [
  'Payroll ID',
  'Surname',
  'Forenames',
  'NI number',
  'Date of birth',
  'Tax code',
  'Week 1 / month 1',
  'NI category',
  'Tax year',
  'Pay frequency',
  'Tax period',
  'Week 53',
  'Payment date',
  'Gross pay',
  'Holiday pay',
  'Taxable pay',
  'Tax',
  'Employee NI',
  'Employer NI',
  'Student loan',
  'Employee pension',
  'Employer pension',
  'Other deductions',
  'Net pay',
  'Taxable pay to date',
  'Tax to date',
  'Employee NI to date',
];

/**
 * The payroll bureau's CSV: one row per PAYE payslip (an umbrella or limited-company worker is not on the agency's
 * payroll: they are in the self-billing export), by surname.
 */
export function bureauRows(run: RunForExport, slips: readonly PayslipForExport[]): Cell[][] {
  return bySurname(slips.filter((s) => s.paye)).map((s) => [
    s.candidateId,
    s.lastName,
    s.firstName,
    s.niNumber ?? '',
    s.dateOfBirth ?? '',
    s.taxCode ?? '',
    s.week1 ? 'Y' : 'N',
    s.niCategory ?? '',
    run.taxYear,
    FPS_FREQUENCY[run.frequency],
    run.taxPeriod,
    week53Indicator(run),
    run.periodEnd,
    pounds(s.gross),
    pounds(s.holidayPay),
    pounds(s.taxablePay),
    pounds(s.tax),
    pounds(s.employeeNi),
    pounds(s.employerNi),
    pounds(s.studentLoan),
    pounds(s.pensionEmployee),
    pounds(s.pensionEmployer),
    pounds(s.deductions),
    pounds(s.net),
    pounds(s.ytdGross),
    pounds(s.ytdTax),
    pounds(s.ytdEmployeeNi),
  ]);
}

/** What each payment's reference says on the staff member's statement: the run's pay day. */
export const paymentReference = (run: RunForExport) => `PAY ${run.periodEnd}`;

/** A payslip that pays something but cannot go in the bank file, named in words, with what it pays. */
export interface MissingBankDetails {
  payslipId: number;
  candidateId: number;
  name: string;
  amount: number;
}

/**
 * The bank payments file: one BACS payment per payslip paying more than nothing (its net pay, with the VAT of a
 * VAT-registered company), by surname; the payslips whose staff member has no bank details are answered apart
 * (`missing`), never left out silently.
 */
export function bankPayments(
  run: RunForExport,
  slips: readonly PayslipForExport[],
  bankOf: (candidateId: number) => BankDetails | null,
): { header: string[]; rows: string[][]; missing: MissingBankDetails[] } {
  const rows: string[][] = [];
  const missing: MissingBankDetails[] = [];
  for (const s of bySurname(slips.filter((x) => x.amountPaid > 0))) {
    const bank = bankOf(s.candidateId);
    if (bank) rows.push(bacsRow(bank, s.amountPaid, paymentReference(run)));
    else missing.push({ payslipId: s.payslipId, candidateId: s.candidateId, name: name(s), amount: s.amountPaid });
  }
  return { header: BACS_HEADER, rows, missing };
}

export const SELF_BILLING_HEADER = [
  'Self-billing invoice',
  'Invoice date',
  'Time of supply',
  'Customer',
  'Customer address',
  'Supplier',
  'Supplier address',
  'Company number',
  'VAT number',
  'Worker',
  'Period from',
  'Period to',
  'Hours',
  'Description',
  'Net',
  'VAT rate',
  'VAT',
  'Total',
  'VAT statement',
  'Self-billing agreement',
];

/** The agency, which raises each self-billed invoice on its supplier's behalf and is its customer. */
export interface SelfBillingCustomer {
  name: string;
  address: string;
}

/**
 * The self-billing export: one self-billed invoice per umbrella or limited-company payslip (the agency bills itself
 * on the worker's company's behalf), numbered SB-<payslip>, dated the pay day (its time of supply too), for the gross
 * the run paid the company as the net, with the VAT the run paid a VAT-registered company at its rate, the total, and
 * the statement VAT Notice 700/62 requires (or that no VAT is charged). Every figure is the payslip's as stored, so a
 * later change of the company's VAT number changes no invoice. The last column names the self-billing agreement in
 * force on the pay day among the supplier's (`agreementsOf`), or says there is none: the run is not refused for it
 * (docs/decisions.md, "Issue 33 — self-billing agreements").
 */
export function selfBillingRows(
  run: RunForExport,
  slips: readonly PayslipForExport[],
  customer: SelfBillingCustomer,
  agreementsOf: (candidateId: number) => readonly Agreement[],
): Cell[][] {
  return bySurname(slips.filter((s) => !s.paye)).map((s) => [
    `SB-${String(s.payslipId).padStart(6, '0')}`,
    run.periodEnd,
    run.periodEnd,
    customer.name,
    customer.address,
    s.paidTo ?? name(s),
    s.companyAddress ?? '',
    s.companyNumber ?? '',
    s.vatNumber ?? '',
    name(s),
    run.periodStart,
    run.periodEnd,
    s.hours,
    `Services of ${name(s)}, ${run.periodStart} to ${run.periodEnd}`,
    pounds(s.gross),
    s.vatRate == null ? '' : percentOfBasisPoints(s.vatRate),
    pounds(s.vat),
    pounds(s.gross + s.vat),
    s.vatNumber ? SELF_BILLING_VAT_STATEMENT : SELF_BILLING_NO_VAT,
    agreementCell(agreementInForce(agreementsOf(s.candidateId), run.periodEnd)),
  ]);
}

function bySurname<T extends PayslipForExport>(slips: readonly T[]): T[] {
  return [...slips].sort(
    (a, b) =>
      a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName) || a.payslipId - b.payslipId,
  );
}
