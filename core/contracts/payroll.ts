// POST /api/payroll/calculate (issue 33.1): gross to net for one pay period of a PAYE staff member, in pence.
import Type, { type Static } from 'typebox';

/** What is sent: read field by field by readCalculationRequest (core/domain/payroll/request.ts), which answers 422 in
 * words for each field it cannot take, so the schema itself only asks for an object. */
export const PayrollCalculationRequest = Type.Unsafe<{
  tax_year: string;
  frequency: 'weekly' | 'monthly';
  period: number;
  gross: number;
  tax_code: string;
  week1: boolean;
  ytd_gross: number;
  ytd_tax: number;
  ni_category: string;
  student_loan_plans?: ('plan1' | 'plan2' | 'plan4' | 'plan5' | 'postgraduate')[];
  pension?: { employee_percent: number; employer_percent: number; opted_out?: boolean };
}>({ type: 'object' });

const Pence = Type.Integer({ description: 'pence' });

export const PayrollCalculation = Type.Object({
  tax_year: Type.String(),
  gross: Pence,
  tax: Type.Integer({ description: 'pence; negative is a refund' }),
  employee_ni: Pence,
  employer_ni: Pence,
  student_loan: Pence,
  student_loans: Type.Record(Type.String(), Pence, { description: 'each plan asked for, in pence' }),
  pension_employee: Pence,
  pension_employer: Pence,
  net: Type.Integer({ description: 'gross − tax − employee_ni − student_loan − pension_employee' }),
  week1: Type.Boolean({
    description: 'worked on a week 1 / month 1 basis (asked for, the code says W1, M1 or X, or tax week 53)',
  }),
  pay_adjustment: Type.Integer({ description: "the tax code's free pay (or a K code's additional pay) to date" }),
  taxable_pay: Type.Integer({ description: 'taxable pay to date, whole pounds, in pence' }),
  tax_due: Type.Integer({ description: 'tax due on taxable_pay' }),
  regulatory_limit_applied: Type.Boolean({ description: "a K code's tax was held at half the period's pay" }),
  qualifying_earnings: Pence,
  ytd_gross: Type.Integer({ description: 'gross pay to date after this period' }),
  ytd_tax: Type.Integer({ description: 'tax to date after this period' }),
});

/**
 * GET /api/staff_bank_details: the signed-in staff member's own bank details, masked as the profile shows them
 * ("Sort code ending 56, account ending 5678"), or null when the agency holds none. Never in full.
 */
export const OwnBankDetailsAnswer = Type.Object({
  data: Type.Object({ masked: Type.Union([Type.String(), Type.Null()]) }),
});
export type OwnBankDetailsAnswer = Static<typeof OwnBankDetailsAnswer>;

/** GET /api/candidates/:id/bank_details: a staff member's bank details in full (admins; each view is audited). */
export const BankDetailsAnswer = Type.Object({
  data: Type.Object({
    sort_code: Type.String({ description: '12-34-56' }),
    account_number: Type.String({ description: '8 digits' }),
    account_name: Type.String(),
    roll_number: Type.Union([Type.String(), Type.Null()]),
  }),
});
