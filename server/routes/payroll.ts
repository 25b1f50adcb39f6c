import type { FastifyInstance } from 'fastify';
import { badInput } from '../http.js';
import { route } from './route.js';
import { rolesOf } from '../../core/resources/access.js';
import { PayrollCalculation, PayrollCalculationRequest } from '../../core/contracts/payroll.js';
import { grossToNet } from '../../core/domain/payroll/grossToNet.js';
import { isWeek53 } from '../../core/domain/payroll/paye.js';
import { readCalculationRequest } from '../../core/domain/payroll/request.js';

/**
 * Gross to net for one pay period (issue 33.1): the pure rules of core/domain/payroll with the tax year's figures.
 * Pay and deductions are the agency's: its users only (admins and consultants), never a client user or a staff
 * member. Nothing is read or stored, so there is no record to scope and nothing to audit.
 */
export async function payrollRoutes(app: FastifyInstance) {
  route(app, {
    method: 'POST',
    url: '/api/payroll/calculate',
    roles: rolesOf('agency'),
    schema: {
      tags: ['Payroll'],
      summary: 'Gross to net for one pay period of a PAYE staff member (tax, NI, student loans, pension)',
      description:
        'Body, amounts in pence: { tax_year: "2026-27", frequency: "weekly" | "monthly", period: 1-53 | 1-12 (tax week 53 is taxed on a week 1 basis), gross, tax_code (1257L, S1257L, C1257L, K475, BR, D0, SD2, NT, 0T; W1 or M1 after it for week 1 / month 1), week1, ytd_gross, ytd_tax (the earlier periods of the tax year), ni_category (A, B, C, H, J, M, V, X, Z), student_loan_plans?: ["plan1" | "plan2" | "plan4" | "plan5" | "postgraduate"], pension?: { employee_percent, employer_percent, opted_out } }. ' +
        'Answers tax, employee_ni, employer_ni, student_loan, pension_employee, pension_employer and net = gross − tax − employee_ni − student_loan − pension_employee (a negative tax is a refund), with the figures behind the tax. ' +
        '422 naming each field that cannot be taken, in words (a tax code that is none, a period outside the year). Figures and their sources: docs/payroll-rates.md.',
      body: PayrollCalculationRequest,
      response: { 200: PayrollCalculation },
    },
    handler: async ({ req }) => {
      const read = readCalculationRequest(req.body);
      if ('errors' in read) throw badInput(read.errors);
      const { year, input } = read;
      const r = grossToNet(input, year);
      return {
        tax_year: year.taxYear,
        gross: r.gross,
        tax: r.tax,
        employee_ni: r.employeeNi,
        employer_ni: r.employerNi,
        student_loan: r.studentLoan,
        student_loans: r.studentLoans,
        pension_employee: r.pensionEmployee,
        pension_employer: r.pensionEmployer,
        net: r.net,
        week1: input.week1 || isWeek53(input.frequency, input.period),
        pay_adjustment: r.payAdjustment,
        taxable_pay: r.taxablePay,
        tax_due: r.taxDue,
        regulatory_limit_applied: r.regulatoryLimitApplied,
        qualifying_earnings: r.qualifyingEarnings,
        ytd_gross: r.ytdGross,
        ytd_tax: r.ytdTax,
      };
    },
  });
}
