import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_NAME_MESSAGE,
  ACCOUNT_NUMBER_MESSAGE,
  ROLL_NUMBER_MESSAGE,
  SORT_CODE_MESSAGE,
  bacsRow,
  bacsText,
  maskedBankDetails,
  readBankDetails,
  type BankDetails,
} from '../../../core/domain/payroll/bankDetails';
import {
  bankPayments,
  bureauRows,
  selfBillingRows,
  type PayslipForExport,
  type RunForExport,
} from '../../../core/domain/payroll/exports';

const ok = { sort_code: '12-34-56', account_number: '12345678', account_name: 'Ann Lee' };

describe('readBankDetails', () => {
  it.each([
    [{ ...ok }, { sortCode: '123456', accountNumber: '12345678', accountName: 'Ann Lee', rollNumber: null }],
    [{ ...ok, sort_code: '123456' }, { sortCode: '123456' }],
    [{ ...ok, sort_code: ' 12 34 56 ' }, { sortCode: '123456' }],
    [{ ...ok, account_number: '1234 5678' }, { accountNumber: '12345678' }],
    [{ ...ok, account_name: '  Zoë   O’Brien ' }, { accountName: 'Zoë O’Brien' }],
    [{ ...ok, roll_number: 'RN 123/45-A' }, { rollNumber: 'RN 123/45-A' }],
    [{ ...ok, roll_number: '' }, { rollNumber: null }],
  ])('takes %j', (input, expected) => {
    const read = readBankDetails(input);
    expect('value' in read && read.value).toMatchObject(expected);
  });

  it.each([
    [{ ...ok, sort_code: '12-34-5' }, { sort_code: SORT_CODE_MESSAGE }],
    [{ ...ok, sort_code: '12-34-567' }, { sort_code: SORT_CODE_MESSAGE }],
    [{ ...ok, sort_code: 'ab-cd-ef' }, { sort_code: SORT_CODE_MESSAGE }],
    [{ ...ok, sort_code: '' }, { sort_code: SORT_CODE_MESSAGE }],
    [{ ...ok, account_number: '1234567' }, { account_number: ACCOUNT_NUMBER_MESSAGE }],
    [{ ...ok, account_number: '123456789' }, { account_number: ACCOUNT_NUMBER_MESSAGE }],
    [{ ...ok, account_number: '1234-5678' }, { account_number: ACCOUNT_NUMBER_MESSAGE }],
    [{ ...ok, account_name: '' }, { account_name: ACCOUNT_NAME_MESSAGE }],
    [{ ...ok, account_name: '1234' }, { account_name: ACCOUNT_NAME_MESSAGE }],
    [{ ...ok, account_name: '=HYPERLINK("x")' }, { account_name: ACCOUNT_NAME_MESSAGE }],
    [{ ...ok, roll_number: 'R'.repeat(19) }, { roll_number: ROLL_NUMBER_MESSAGE }],
    [
      { sort_code: '1', account_number: '2', account_name: '' },
      { sort_code: SORT_CODE_MESSAGE, account_number: ACCOUNT_NUMBER_MESSAGE, account_name: ACCOUNT_NAME_MESSAGE },
    ],
  ])('refuses %j in words next to the field', (input, errors) => {
    expect(readBankDetails(input)).toEqual({ errors });
  });
});

const bank: BankDetails = { sortCode: '012345', accountNumber: '00123456', accountName: 'Ann Lee', rollNumber: null };

describe('masked bank details', () => {
  it.each([
    [bank, 'Sort code ending 45, account ending 3456'],
    [{ ...bank, rollNumber: 'R1' }, 'Sort code ending 45, account ending 3456, building society roll number held'],
  ])('show only the last digits: %j', (d, shown) => {
    expect(maskedBankDetails(d)).toBe(shown);
    expect(shown).not.toContain('012345');
    expect(shown).not.toContain('00123456');
  });
});

describe('BACS Standard 18 rows', () => {
  it.each([
    ['Ann Lee', 'ANN LEE'],
    ['Zoë O’Brien-Smith & Co.', 'ZOE O BRIEN-SMITH'],
    ['Łukasz Nowak', 'LUKASZ NOWAK'],
    ['Søren Æble Straße', 'SOREN AEBLE STRASS'],
    ['  -=SUM(A1)', 'SUM A1'],
    ['Abcdefghij Klmnopqrstu', 'ABCDEFGHIJ KLMNOPQ'],
    ['a/b.c&d', 'A/B.C&D'],
  ])('writes %j in BACS characters, at most 18: %j', (text, expected) => {
    expect(bacsText(text)).toBe(expected);
    expect(bacsText(text).length).toBeLessThanOrEqual(18);
  });

  it.each([
    [bank, 12345, 'PAY 2026-11-08', ['012345', '00123456', 'ANN LEE', '123.45', 'PAY 2026-11-08']],
    [bank, 5, 'PAY 2026-11-08', ['012345', '00123456', 'ANN LEE', '0.05', 'PAY 2026-11-08']],
    [
      { ...bank, rollNumber: 'rn 99/1' },
      100000,
      'PAY 2026-11-08',
      ['012345', '00123456', 'ANN LEE', '1000.00', 'RN 99/1'],
    ],
  ])('pays %j %i pence, reference %s', (d, pence, reference, row) => {
    expect(bacsRow(d, pence, reference)).toEqual(row);
  });

  it.each([0, -100, 10.5])('refuses an amount of %d pence', (pence) => {
    expect(() => bacsRow(bank, pence, 'X')).toThrow(/whole number of pence above 0/);
  });
});

const run: RunForExport = {
  id: 7,
  frequency: 'weekly',
  taxYear: '2026-27',
  taxPeriod: 31,
  periodStart: '2026-11-02',
  periodEnd: '2026-11-08',
};
const slip = (over: Partial<PayslipForExport>): PayslipForExport => ({
  payslipId: 1,
  candidateId: 10,
  firstName: 'Ann',
  lastName: 'Lee',
  niNumber: 'QQ123456C',
  dateOfBirth: '1990-01-02',
  paye: true,
  taxCode: '1257L',
  week1: false,
  niCategory: 'A',
  paidTo: null,
  companyNumber: null,
  companyAddress: null,
  vatNumber: null,
  vatRate: null,
  vat: 0,
  amountPaid: 46734,
  hours: 37.5,
  gross: 50000,
  holidayPay: 5000,
  taxablePay: 49000,
  tax: -1234,
  employeeNi: 2000,
  employerNi: 3000,
  studentLoan: 0,
  pensionEmployee: 1000,
  pensionEmployer: 600,
  deductions: 500,
  net: 46734,
  ytdGross: 900000,
  ytdTax: 80000,
  ytdEmployeeNi: 40000,
  ...over,
});

describe("a pay run's files", () => {
  const paye = slip({});
  // A VAT-registered umbrella company, paid VAT on top at 20%, and a limited company that is not registered.
  const umbrella = slip({
    payslipId: 2,
    candidateId: 11,
    firstName: 'Bo',
    lastName: 'Able',
    paye: false,
    paidTo: 'Brolly Payroll Services Ltd',
    companyNumber: '09876543',
    companyAddress: '1 High Street, Leeds, LS1 1AA',
    vatNumber: 'GB123456789',
    vatRate: 2000,
    vat: 16000,
    gross: 80000,
    net: 80000,
    amountPaid: 96000,
    tax: 0,
  });
  const limited = slip({
    payslipId: 4,
    candidateId: 13,
    firstName: 'Cy',
    lastName: 'Moss',
    paye: false,
    paidTo: 'Moss Care Services Ltd',
    companyNumber: '10000013',
    gross: 30001,
    net: 30001,
    amountPaid: 30001,
    hours: 12,
    tax: 0,
  });
  const unpaid = slip({ payslipId: 3, candidateId: 12, lastName: 'Zed', net: 0, amountPaid: 0 });
  const agency = { name: 'Acme Staffing Ltd', address: '2 Low Road, York, YO1 2BB' };

  it('the bureau CSV has each PAYE payslip’s figures in pounds, a refund negative, none of the others', () => {
    const rows = bureauRows(run, [umbrella, paye]);
    expect(rows).toEqual([
      [
        10,
        'Lee',
        'Ann',
        'QQ123456C',
        '1990-01-02',
        '1257L',
        'N',
        'A',
        '2026-27',
        'W1',
        31,
        '',
        '2026-11-08',
        500,
        50,
        490,
        -12.34,
        20,
        30,
        0,
        10,
        6,
        5,
        467.34,
        9000,
        800,
        400,
      ],
    ]);
  });

  it('the bank file pays each net (with a VAT-registered company’s VAT) above nothing, by surname, and names who has no bank details', () => {
    const banks = new Map([[11, { ...bank, accountName: 'Brolly Payroll' }]]);
    const out = bankPayments(run, [paye, umbrella, unpaid], (id) => banks.get(id) ?? null);
    expect(out.rows).toEqual([['012345', '00123456', 'BROLLY PAYROLL', '960.00', 'PAY 2026-11-08']]);
    expect(out.missing).toEqual([{ payslipId: 1, candidateId: 10, name: 'Ann Lee', amount: 46734 }]);
  });

  it('the self-billing export bills each company its gross, with VAT and the statement when it is registered', () => {
    // The umbrella company's agreement is in force on the pay day (2026-11-08); the limited company's ended the day
    // before: the export says so rather than leaving the invoice out.
    const agreements = new Map([
      [umbrella.candidateId, [{ start_date: '2026-01-01', end_date: '2026-12-31', reference: 'SBA-7' }]],
      [limited.candidateId, [{ start_date: '2025-11-08', end_date: '2026-11-07', reference: null }]],
    ]);
    expect(selfBillingRows(run, [paye, umbrella, limited], agency, (id) => agreements.get(id) ?? [])).toEqual([
      [
        'SB-000002',
        '2026-11-08',
        '2026-11-08',
        'Acme Staffing Ltd',
        '2 Low Road, York, YO1 2BB',
        'Brolly Payroll Services Ltd',
        '1 High Street, Leeds, LS1 1AA',
        '09876543',
        'GB123456789',
        'Bo Able',
        '2026-11-02',
        '2026-11-08',
        37.5,
        'Services of Bo Able, 2026-11-02 to 2026-11-08',
        800,
        '20%',
        160,
        960,
        'The VAT shown is your output tax due to HMRC.',
        'SBA-7, 2026-01-01 to 2026-12-31',
      ],
      [
        'SB-000004',
        '2026-11-08',
        '2026-11-08',
        'Acme Staffing Ltd',
        '2 Low Road, York, YO1 2BB',
        'Moss Care Services Ltd',
        '',
        '10000013',
        '',
        'Cy Moss',
        '2026-11-02',
        '2026-11-08',
        12,
        'Services of Cy Moss, 2026-11-02 to 2026-11-08',
        300.01,
        '',
        0,
        300.01,
        'No VAT is charged: the supplier is not registered for VAT.',
        'None in force on the pay day',
      ],
    ]);
  });
});
