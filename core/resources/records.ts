// Written by `npm run engine:records` from the declarations (core/engine/recordTypes.ts): do not edit by hand.

/** Role (agency_roles), as stored. */
export type RoleRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  description: string | null;
  privileges: string[];
  business_unit_ids: number[];
};

/** Agency settings (agency_settings), as stored. */
export type AgencySettingsRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  company_name: string;
  legal_name: string | null;
  address: unknown;
  company_number: string | null;
  vat_number: string | null;
  time_zone: string;
  default_region: 'england_wales' | 'scotland' | 'northern_ireland';
  slug: string | null;
  plan: string | null;
  profile_photo: string | null;
  favicon: string | null;
};

/** History entry (audit_entries), as stored. */
export type HistoryEntryRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  user_name: string | null;
  login_type: string | null;
  user_id: number | null;
  event: 'create' | 'update' | 'delete' | 'action' | null;
  action: string | null;
  resource: string | null;
  record_id: number | null;
  subject_resource: string | null;
  subject_id: number | null;
  changes: unknown;
  input: unknown;
};

/** Availability (availability), as stored. */
export type AvailabilityRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  date: string;
  status: 'available' | 'day' | 'night' | 'long_day' | 'unavailable';
};

/** Business unit (business_units), as stored. */
export type BusinessUnitRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  manager_id: number | null;
  active: boolean;
};

/** Document (candidate_documents), as stored. */
export type DocumentRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  candidate_id: number;
  document_category_id: number;
  number: string | null;
  issue_date: string | null;
  expiry_date: string | null;
  file: string;
  category_name?: string | null;
  file_name?: string | null;
  status: 'awaiting' | 'verified' | 'rejected';
  rejection_reason: string | null;
  expiry_state?: 'valid' | 'due' | 'expired' | 'no_expiry' | null;
  days_left?: number | string | null;
  current: boolean;
  booked_soon?: boolean | null;
};

/** Preferences (candidate_preferences), as stored. */
export type PreferencesRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  preferred_client_ids: number[];
  avoided_client_ids: number[];
  preferred_site_ids: number[];
  avoided_site_ids: number[];
  job_role_ids: number[];
  prefers_day: boolean;
  prefers_night: boolean;
  prefers_long_day: boolean;
  prefers_weekend: boolean;
  max_hours_per_week: number | null;
  travel_radius_miles: number | null;
  opted_out_48h: boolean;
  opt_out_signed_on: string | null;
};

/** Pay rate (candidate_rates), as stored. */
export type PayRateRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  job_role_id: number | null;
  effective_from: string;
  wage_flag?: string | null;
  pay_weekday_day: number | null;
  pay_weekday_night: number | null;
  pay_saturday: number | null;
  pay_sunday: number | null;
  pay_bank_holiday: number | null;
  notes: string | null;
};

/** Restriction (candidate_restrictions), as stored. */
export type RestrictionRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  client_id: number;
  site_id: number | null;
  reason: string;
  restricted_on: string;
  recorded_by: string | null;
  affected_shifts?: unknown;
};

/** Staff member (candidates), as stored. */
export type StaffMemberRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  custom_fields: Record<string, unknown>;
  profile_photo: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  date_of_birth: string | null;
  address: unknown;
  job_role_id: number | null;
  employment_type_id: number | null;
  staff_status_id: number | null;
  staff_profile_ids: number[];
  ni_number: string | null;
  tax_code: string | null;
  tax_week1: boolean;
  ni_category: 'A' | 'B' | 'C' | 'H' | 'J' | 'M' | 'V' | 'X' | 'Z' | null;
  student_loan_plans: string[];
  pension_opted_out: boolean;
  pension_employee_percent: number | string | null;
  pension_employer_percent: number | string | null;
  company_name: string | null;
  company_number: string | null;
  company_address: string | null;
  company_vat_number: string | null;
  bank_details_sealed: string | null;
  bank_details_masked: string | null;
  holiday_balance_hours?: number | string | null;
  start_date: string | null;
  status: 'pending' | 'approved' | 'rejected';
  activated: boolean;
  notes: string | null;
  compliance?: 'compliant' | 'expiring' | 'not_compliant' | null;
  compliance_complete: boolean;
  compliance_valid_until: string | null;
};

/** Pricing rules (client_rules), as stored. */
export type PricingRulesRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  applies_to?: string | null;
  client_id: number | null;
  night_start: string;
  night_end: string;
  weekend_start_day: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
  weekend_start_time: string;
  weekend_end_day: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
  weekend_end_time: string;
  split_at_boundaries: boolean;
  break_rules: unknown;
  minimum_charge_hours: number | string | null;
  sleep_in_pay: number | null;
  sleep_in_charge: number | null;
  late_cancel_within_hours: number | string | null;
  late_cancel_charge_hours: number | string | null;
  late_cancel_pay_hours: number | string | null;
  max_shift_requests_per_day: number | null;
};

/** Client settings (client_settings), as stored. */
export type ClientSettingsRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  invoice_mode: 'Weekly' | 'daily' | 'monthly' | 'shift_staff' | 'staff_weekly' | null;
  split_by_po: boolean;
  split_by_site: boolean;
  po_required: boolean;
  timesheet_per: 'client' | 'site';
  signing_methods: string[];
  shift_request_approval: 'agency' | 'automatic';
  client_emails: string[];
};

/** Client (clients), as stored. */
export type ClientRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  name: string;
  code: string | null;
  client_type: 'Care home' | 'Nursing home' | 'Hospital' | 'Supported living' | 'Other' | null;
  business_unit_id: number | null;
  contact_name: string | null;
  email: string | null;
  billing_email: string;
  phone: string | null;
  address: unknown;
  vat_number: string | null;
  payment_terms_days: number | null;
  billing_address: unknown;
  po_required: boolean;
  split_by_po: boolean;
  split_by_site: boolean;
  invoice_mode: 'Weekly' | 'daily' | 'monthly' | 'shift_staff' | 'staff_weekly' | null;
  status: 'active' | 'inactive';
  timesheet_per: 'client' | 'site';
  signing_methods: string[];
  shift_request_approval: 'agency' | 'automatic';
  timesheet_approver_email: string | null;
  timesheet_link_days: number | null;
  timesheet_reminder_days: number | null;
  timesheet_early_minutes: number | null;
  timesheet_late_minutes: number | null;
  timesheet_short_break_minutes: number | null;
  logo: string | null;
  notes: string | null;
};

/** Credit note line (credit_note_lines), as stored. */
export type CreditNoteLineRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  credit_note_id: number;
  invoice_line_id: number | null;
  description: string;
  vat_treatment: 'standard' | 'exempt';
  vat_rate: number;
  net: number;
  vat: number;
};

/** Credit note (credit_notes), as stored. */
export type CreditNoteRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  number: string | null;
  invoice_id: number;
  client_id: number;
  kind: 'full' | 'lines' | 'amount';
  reason: string;
  rebill: boolean;
  issue_date: string;
  net: number;
  vat: number;
  total: number;
};

/** Diary note (diary_notes), as stored. */
export type DiaryNoteRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  title: string;
  note_at: string;
  body: string | null;
  candidate_id: number | null;
  client_id: number | null;
  shift_id: number | null;
  remind_at: string | null;
  reminded_at: string | null;
  user_id: number | null;
  owner_name: string | null;
};

/** Document category (document_categories), as stored. */
export type DocumentCategoryRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  description: string | null;
  mandatory: boolean;
  validity_months: number | null;
  job_role_ids: number[];
};

/** E-mail (email_outbox), as stored. */
export type EMailRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  recipient: string | null;
  recipient_name: string | null;
  event:
    | 'document.due'
    | 'document.expired'
    | 'staff.registered'
    | 'shift.requested'
    | 'shift.filled'
    | 'shift.moved'
    | 'timesheet.submitted'
    | 'timesheet.signed'
    | 'timesheet.phone_signed'
    | 'timesheet.disputed'
    | 'timesheet.reminder'
    | 'shift.cancelled'
    | 'message.received'
    | 'note.reminder'
    | 'support.request'
    | 'invoice.issued'
    | 'invoice.payment_due'
    | 'application.screening'
    | 'application.interview'
    | 'application.offer'
    | 'application.rejected'
    | 'application.custom_1'
    | 'application.custom_2'
    | 'application.custom_3'
    | 'application.custom_4'
    | 'application.custom_5'
    | 'application.custom_6'
    | null;
  subject: string | null;
  status: 'queued' | 'sent' | 'failed' | null;
  attempts: number | null;
  sent_at: string | null;
  next_attempt_at: string | null;
  last_error: string | null;
  message_id: string | null;
  text: string | null;
  html: string | null;
  secret_kind: string | null;
  secret_ref: number | null;
  attachments: number[];
};

/** Employment type (employment_types), as stored. */
export type EmploymentTypeRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  description: string | null;
  paye: boolean;
  holiday_pay: 'rolled_up' | 'accrued';
};

/** Holiday change (holiday_overrides), as stored. */
export type HolidayChangeRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  region: 'england_wales' | 'scotland' | 'northern_ireland';
  date: string;
  name: string;
  kind: 'add' | 'remove';
};

/** Invoice export (invoice_export_batches), as stored. */
export type InvoiceExportRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  package: 'xero' | 'quickbooks';
  period_from: string | null;
  period_to: string | null;
  client_id: number | null;
  include_exported: boolean;
  invoice_ids: number[];
  credit_note_ids: number[];
  document_count: number | null;
  file_count: number | null;
  excluded_count: number | null;
  skipped: unknown;
  exported_by: string | null;
};

/** Invoice line (invoice_lines), as stored. */
export type InvoiceLineRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  invoice_id: number;
  timesheet_line_id: number | null;
  cancelled_shift_id: number | null;
  description: string;
  work_date: string;
  quantity: number | string;
  unit_price: number;
  net: number | null;
  vat_treatment: 'standard' | 'exempt';
  vat_reason: string | null;
  vat_rate: number | null;
  vat: number | null;
  total: number | null;
  time_of_supply: string | null;
  released_at: string | null;
};

/** Overdue reminder (invoice_reminders), as stored. */
export type OverdueReminderRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  invoice_id: number;
  step: number;
  due_date: string;
  recipient: string;
};

/** Invoice run (invoice_runs), as stored. */
export type InvoiceRunRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  mode: 'Weekly' | 'daily' | 'monthly' | 'shift_staff' | 'staff_weekly';
  period_start: string;
  period_end: string;
  client_ids: number[];
  started_by: string | null;
  state?: 'running' | 'done' | 'failed' | null;
  clients: number[];
  clients_done: number | null;
  clients_total?: number | null;
  job_id: number | null;
  finished_at: string | null;
  invoice_count: number | null;
  line_count: number | null;
  total: number | null;
};

/** Invoice settings (invoice_settings), as stored. */
export type InvoiceSettingsRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  nursing_concession_from: string | null;
  default_payment_terms_days: number;
  bank_account_name: string | null;
  bank_sort_code: string | null;
  bank_account_number: string | null;
  footer: string | null;
  default_template: 'template1' | 'template2';
  reminder_days: string | null;
};

/** Invoice (invoices), as stored. */
export type InvoiceRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  number: string | null;
  label?: string | null;
  state: 'draft' | 'issued' | 'sent' | 'part_paid' | 'paid' | 'void';
  client_id: number;
  site_id: number | null;
  period_start: string | null;
  period_end: string | null;
  mode: 'Weekly' | 'daily' | 'monthly' | 'shift_staff' | 'staff_weekly' | null;
  issue_date: string | null;
  time_of_supply: string | null;
  due_date: string | null;
  sent_at: string | null;
  po_number: string | null;
  template: 'template1' | 'template2';
  notes: string | null;
  line_count: number | null;
  exempt_net: number | null;
  standard_net: number | null;
  net: number | null;
  vat: number | null;
  total: number | null;
  paid: number | null;
  credited: number | null;
  balance?: number | null;
  overdue?: boolean | null;
  run_id: number | null;
  void_reason: string | null;
  issued_by: string | null;
};

/** Application (job_applications), as stored. */
export type ApplicationRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  custom_fields: Record<string, unknown>;
  job_id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  right_to_work: 'yes' | 'share_code' | 'no';
  cv: string | null;
  cv_name?: string | null;
  consent: boolean;
  stage:
    | 'applied'
    | 'screening'
    | 'interview'
    | 'offer'
    | 'hired'
    | 'rejected'
    | 'custom_1'
    | 'custom_2'
    | 'custom_3'
    | 'custom_4'
    | 'custom_5'
    | 'custom_6';
  stage_note: string | null;
  interview_at: string | null;
  interview_with: string | null;
  interview_where: string | null;
  interview_note_id: number | null;
  candidate_id: number | null;
};

/** Job role (job_roles), as stored. */
export type JobRoleRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  code: string | null;
  description: string | null;
  default_pay_rate: number | null;
  wage_flag?: string | null;
  default_charge_rate: number | null;
  vat_concession: 'nurse' | 'supervised_auxiliary' | 'auxiliary' | 'none';
  active: boolean;
};

/** Payment reminder setting (notification_payment_settings), as stored. */
export type PaymentReminderSettingRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  enabled: boolean;
  days_before_due: number | null;
  days_after_due: number | null;
};

/** Notification preference (notification_preferences), as stored. */
export type NotificationPreferenceRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  user_id: number;
  event:
    | 'document.due'
    | 'document.expired'
    | 'staff.registered'
    | 'shift.requested'
    | 'shift.filled'
    | 'shift.moved'
    | 'timesheet.submitted'
    | 'timesheet.signed'
    | 'timesheet.phone_signed'
    | 'timesheet.disputed'
    | 'timesheet.reminder'
    | 'shift.cancelled'
    | 'message.received'
    | 'note.reminder'
    | 'support.request'
    | 'invoice.issued'
    | 'invoice.payment_due'
    | 'application.screening'
    | 'application.interview'
    | 'application.offer'
    | 'application.rejected'
    | 'application.custom_1'
    | 'application.custom_2'
    | 'application.custom_3'
    | 'application.custom_4'
    | 'application.custom_5'
    | 'application.custom_6';
  in_app: boolean;
  email: 'now' | 'digest' | 'off';
};

/** Notification setting (notification_settings), as stored. */
export type NotificationSettingRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  event:
    | 'document.due'
    | 'document.expired'
    | 'staff.registered'
    | 'shift.requested'
    | 'shift.filled'
    | 'shift.moved'
    | 'timesheet.submitted'
    | 'timesheet.signed'
    | 'timesheet.phone_signed'
    | 'timesheet.disputed'
    | 'timesheet.reminder'
    | 'shift.cancelled'
    | 'message.received'
    | 'note.reminder'
    | 'support.request'
    | 'invoice.issued'
    | 'invoice.payment_due'
    | 'application.screening'
    | 'application.interview'
    | 'application.offer'
    | 'application.rejected'
    | 'application.custom_1'
    | 'application.custom_2'
    | 'application.custom_3'
    | 'application.custom_4'
    | 'application.custom_5'
    | 'application.custom_6';
  channels: string[];
  recipients: string[];
};

/** E-mail template (notification_templates), as stored. */
export type EMailTemplateRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  event:
    | 'document.due'
    | 'document.expired'
    | 'staff.registered'
    | 'shift.requested'
    | 'shift.filled'
    | 'shift.moved'
    | 'timesheet.submitted'
    | 'timesheet.signed'
    | 'timesheet.phone_signed'
    | 'timesheet.disputed'
    | 'timesheet.reminder'
    | 'shift.cancelled'
    | 'message.received'
    | 'note.reminder'
    | 'support.request'
    | 'invoice.issued'
    | 'invoice.payment_due'
    | 'application.screening'
    | 'application.interview'
    | 'application.offer'
    | 'application.rejected'
    | 'application.custom_1'
    | 'application.custom_2'
    | 'application.custom_3'
    | 'application.custom_4'
    | 'application.custom_5'
    | 'application.custom_6';
  subject: string;
  body: string;
};

/** On-cost rates (on_cost_rates), as stored. */
export type OnCostRatesRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  effective_from: string;
  employer_ni_percent: number | string;
  ni_threshold_weekly: number | null;
  holiday_pay_percent: number | string;
};

/** Pay run (pay_runs), as stored. */
export type PayRunRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  period_start: string;
  period_end: string;
  frequency: 'weekly' | 'monthly';
  tax_year: string | null;
  tax_period: number | null;
  state: 'draft' | 'approved' | 'finalised' | 'cancelled';
  staff_count: number | null;
  gross: number | null;
  net: number | null;
  employer_costs: number | null;
  vat: number | null;
  started_by: string | null;
  progress?: 'running' | 'done' | 'failed' | null;
  candidates: number[];
  candidates_done: number | null;
  staff_total?: number | null;
  job_id: number | null;
  finished_at: string | null;
  cancel_reason: string | null;
};

/** Payment allocation (payment_allocations), as stored. */
export type PaymentAllocationRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  payment_id: number;
  invoice_id: number;
  amount: number;
  paid_on?: string | null;
  reference?: string | null;
  method?: 'bank_transfer' | 'card' | 'cheque' | 'other' | null;
};

/** Payment (payments), as stored. */
export type PaymentRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  client_id: number;
  paid_on: string;
  amount: number;
  reference: string | null;
  method: 'bank_transfer' | 'card' | 'cheque' | 'other';
  split: unknown;
  state: 'recorded' | 'reversed';
  reversed_reason: string | null;
};

/** Pay adjustment (payroll_adjustments), as stored. */
export type PayAdjustmentRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  kind: 'addition' | 'deduction';
  amount: number;
  reason: string;
  payslip_id: number | null;
};

/** Payslip line (payslip_lines), as stored. */
export type PayslipLineRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  payslip_id: number;
  kind: 'pay' | 'holiday' | 'sleep_in' | 'late_cancellation' | 'adjustment' | 'deduction';
  description: string;
  work_date: string | null;
  hours: number | string | null;
  rate: number | null;
  amount: number;
  timesheet_line_id: number | null;
  staff_deduction_id: number | null;
  payroll_adjustment_id: number | null;
  cancelled_shift_id: number | null;
  staff_holiday_id: number | null;
  released_at: string | null;
};

/** Payslip (payslips), as stored. */
export type PayslipRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  pay_run_id: number;
  candidate_id: number;
  state: 'draft' | 'finalised';
  period_start: string | null;
  period_end: string | null;
  run_state?: 'draft' | 'approved' | 'finalised' | 'cancelled' | null;
  employment_type_id?: number | null;
  client_ids?: number[] | null;
  clients?: string | null;
  hours?: number | string | null;
  paye: boolean;
  tax_code: string | null;
  tax_period?: number | null;
  week1: boolean;
  ni_category: string | null;
  paid_to: string | null;
  company_number: string | null;
  company_address: string | null;
  vat_number: string | null;
  vat_rate: number | null;
  gross: number | null;
  holiday_pay: number | null;
  holiday_hours_accrued: number | string | null;
  holiday_hours_taken: number | string | null;
  tax: number | null;
  employee_ni: number | null;
  employer_ni: number | null;
  student_loan: number | null;
  pension_employee: number | null;
  pension_employer: number | null;
  deductions: number | null;
  net: number | null;
  vat: number | null;
  amount_paid: number | null;
  taxable_pay: number | null;
  employer_cost: number | null;
  ytd_gross: number | null;
  ytd_tax: number | null;
  ytd_employee_ni: number | null;
  email_status?: 'queued' | 'sent' | 'failed' | 'not_sent' | null;
  emailed_to: string | null;
};

/** Rate card (rate_cards), as stored. */
export type RateCardRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  client_id: number;
  site_id: number | null;
  job_role_id: number;
  effective_from: string;
  effective_to: string | null;
  in_force_on?: string | null;
  wage_flag?: string | null;
  pay_weekday_day: number;
  charge_weekday_day: number;
  margin_weekday_day?: number | null;
  pay_weekday_night: number;
  charge_weekday_night: number;
  margin_weekday_night?: number | null;
  pay_saturday: number;
  charge_saturday: number;
  margin_saturday?: number | null;
  pay_sunday: number;
  charge_sunday: number;
  margin_sunday?: number | null;
  pay_bank_holiday: number;
  charge_bank_holiday: number;
  margin_bank_holiday?: number | null;
  notes: string | null;
};

/** Recruitment settings (recruitment_settings), as stored. */
export type RecruitmentSettingsRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  retention_months: number;
  stages: unknown;
};

/** Self-billing agreement (self_billing_agreements), as stored. */
export type SelfBillingAgreementRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  start_date: string;
  end_date: string;
  reference: string | null;
  file: string | null;
  file_name?: string | null;
  recorded_by: string | null;
};

/** Staff request (shift_requests), as stored. */
export type StaffRequestRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  shift_id: number;
  candidate_id: number;
  candidate_name?: string | null;
  note: string | null;
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn';
};

/** Shift template (shift_templates), as stored. */
export type ShiftTemplateRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  name: string;
  start_time: string;
  end_time: string;
  break_minutes: number;
  sleep_in: boolean;
  colour: 'green' | 'amber' | 'red' | 'blue' | 'grey' | 'purple' | null;
};

/** Shift (shifts), as stored. */
export type ShiftRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  client_id: number;
  site_id: number;
  job_role_id: number;
  template_id: number | null;
  start_at: string;
  end_at: string;
  break_minutes: number | null;
  sleep_in: boolean;
  status: 'open' | 'assigned' | 'closed' | 'cancelled';
  state?: 'open' | 'assigned' | 'closed' | 'cancelled' | 'unfilled' | 'deleted' | null;
  candidate_id: number | null;
  candidate_name?: string | null;
  summary?: string | null;
  site_name?: string | null;
  site_address?: unknown;
  job_role_name?: string | null;
  notes: string | null;
  po_number: string | null;
  hours?: number | string | null;
  paid_minutes: number | null;
  charge: number | null;
  pay: number | null;
  on_costs: number | null;
  margin: number | null;
  price_lines: unknown;
  rate_card_id: number | null;
  requested_by_client: boolean;
  cancelled_at: string | null;
  cancelled_by: string | null;
  cancel_requested_by: 'client' | 'agency' | 'worker' | 'no_show' | null;
  cancel_reason: string | null;
  cancellation_minutes: number | null;
  cancellation_hours?: number | string | null;
  cancellation_charge: number | null;
  cancellation_pay: number | null;
  cancellation_pay_hours: number | string | null;
  cancellation_rule_charge: number | null;
  cancellation_charge_reason: string | null;
  cancellation_charge_changed_by: string | null;
  deleted_at: string | null;
  deleted_by: string | null;
  deleted_reason: string | null;
  override_reason: string | null;
  booking_checks: unknown;
  created_by: string | null;
};

/** Site (sites), as stored. */
export type SiteRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  name: string;
  client_id: number;
  business_unit: string | null;
  address: unknown;
  region: 'england_wales' | 'scotland' | 'northern_ireland';
  care_type: 'hospital' | 'hospice' | 'care_home_nursing' | 'care_home' | 'other' | null;
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  status: 'active' | 'inactive';
  notes: string | null;
};

/** Staff deduction (staff_deductions), as stored. */
export type StaffDeductionRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  description: string;
  method: 'fixed' | 'percent';
  amount: number | null;
  percent: number | string | null;
  before_tax: boolean;
  recurring: boolean;
  start_date: string;
  end_date: string | null;
  cap: number | null;
  taken?: number | null;
};

/** Staff detail field (staff_detail_fields), as stored. */
export type StaffDetailFieldRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  label: string;
  key: string;
  field_type: 'text' | 'number' | 'date' | 'boolean' | 'choice';
  options: string | null;
  required: boolean;
  show_in_list: boolean;
  on_application: boolean;
  position: number | null;
};

/** Holiday taken (staff_holidays), as stored. */
export type HolidayTakenRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  candidate_id: number;
  starts_on: string;
  ends_on: string;
  hours: number | string;
  note: string | null;
  state: 'booked' | 'paid' | 'cancelled';
  recorded_by: string | null;
};

/** Staff sign-in (staff_logins), as stored. */
export type StaffSignInRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  email: string;
  candidate_id: number | null;
  active: boolean;
  password_hash: string | null;
  kind: 'staff' | null;
  role: 'staff' | null;
  client_id: number | null;
  agency_role_id: number | null;
  business_unit_id: number | null;
};

/** Staff profile (staff_profiles), as stored. */
export type StaffProfileRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  description: string | null;
  job_role_id: number | null;
  document_category_ids: number[];
};

/** Staff status (staff_statuses), as stored. */
export type StaffStatusRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  description: string | null;
  bookable: boolean;
  colour: 'green' | 'amber' | 'red' | 'blue' | 'grey' | null;
};

/** Reply (support_replies), as stored. */
export type ReplyRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  support_request_id: number;
  body: string;
  author_id: number | null;
  author_name: string | null;
};

/** Support request (support_requests), as stored. */
export type SupportRequestRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  subject: string;
  description: string;
  screenshot: string | null;
  status: 'open' | 'answered' | 'closed';
  requester_id: number | null;
  requester_name: string | null;
};

/** Phone approver (timesheet_approvers), as stored. */
export type PhoneApproverRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  client_id: number;
  name: string;
  job_title: string | null;
  site_id: number | null;
  user_id: number | null;
  pin_hash: string | null;
  pin_set_at: string | null;
};

/** Timesheet line (timesheet_lines), as stored. */
export type TimesheetLineRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  timesheet_id: number;
  shift_id: number | null;
  candidate_id: number;
  candidate_name?: string | null;
  site_id: number;
  job_role_id: number;
  site_name?: string | null;
  job_role_name?: string | null;
  summary?: string | null;
  billed_on?: string | null;
  paid_in_run: number | null;
  held_by_run?: string | null;
  timesheet_status?: 'draft' | 'submitted' | 'signed' | 'verified' | 'disputed' | 'amended' | 'locked' | null;
  work_date: string | null;
  scheduled_start: string | null;
  scheduled_end: string | null;
  scheduled_break: number | null;
  actual_start: string | null;
  actual_end: string | null;
  break_minutes: number | null;
  paid_minutes: number | null;
  hours?: number | string | null;
  charge: number | null;
  pay: number | null;
  on_costs: number | null;
  margin: number | null;
  price_lines: unknown;
  repricing_note: string | null;
  rate_card_id: number | null;
  status: 'pending' | 'signed' | 'disputed' | 'verified';
  payable?: boolean | null;
  dispute_reason: string | null;
  outside_tolerance: string | null;
  signed_by?: string | null;
  approvers?: unknown;
  amendment_note: string | null;
  amended_at: string | null;
  amended_by: string | null;
  times_recorded_at: string | null;
  signature_id: number | null;
  signed_at: string | null;
  verified_reason: string | null;
  verified_evidence: string | null;
  verified_by: string | null;
  verified_at: string | null;
};

/** Timesheet signature (timesheet_signatures), as stored. */
export type TimesheetSignatureRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  timesheet_id: number;
  signer_name: string;
  signature: string;
  signed_via: 'panel' | 'link' | 'phone';
  approver_id: number | null;
  ip_address: string | null;
  signed_at: string;
  line_count: number | null;
};

/** Timesheet (timesheets), as stored. */
export type TimesheetRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  number: string | null;
  client_id: number;
  site_id: number | null;
  kind: 'weekly' | 'custom';
  supplement_of: number | null;
  period_start: string;
  period_end: string;
  status: 'draft' | 'submitted' | 'signed' | 'verified' | 'disputed' | 'amended' | 'locked';
  revision: number | null;
  client_name?: string | null;
  site_name?: string | null;
  signing_recipient?: string | null;
  review_lines?: unknown;
  line_count: number | null;
  payable_lines: number | null;
  unsigned_lines?: number | null;
  paid_minutes: number | null;
  hours?: number | string | null;
  charge: number | null;
  pay: number | null;
  on_costs: number | null;
  margin: number | null;
  submitted_at: string | null;
  signed_at: string | null;
  disputed_at: string | null;
  reminded_at: string | null;
  amendment_note: string | null;
  locked_by: 'agency' | null;
  verified_evidence: string | null;
  notes: string | null;
  signers?: string | null;
  staff_ids?: number[] | null;
  was_disputed?: boolean | null;
  was_amended?: boolean | null;
};

/** User (users), as stored. */
export type UserRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  email: string;
  role: 'admin' | 'consultant' | 'custom' | 'manager' | 'viewer';
  agency_role_id: number | null;
  client_id: number | null;
  business_unit_id: number | null;
  kind: 'admin' | 'client' | 'staff' | null;
  status?: 'invited' | 'active' | 'inactive' | null;
  invited_until?: string | null;
  phone_approver?: 'pin' | 'no_pin' | null;
  active: boolean;
  password_hash: string | null;
  candidate_id: number | null;
};

/** Job (vacancies), as stored. */
export type JobRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  title: string;
  job_role_id: number | null;
  location: string;
  pay_min: number | null;
  pay_max: number | null;
  hours: string | null;
  description: string | null;
  closing_date: string | null;
  status: 'draft' | 'open' | 'closed';
};

/** Minimum wage (wage_floors), as stored. */
export type MinimumWageRecord = {
  id: number;
  merchant_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  name: string;
  effective_from: string;
  min_age: number;
  hourly: number;
};

/** Every declared resource's record type, by resource name. */
export interface Records {
  agency_roles: RoleRecord;
  agency_settings: AgencySettingsRecord;
  audit_entries: HistoryEntryRecord;
  availability: AvailabilityRecord;
  business_units: BusinessUnitRecord;
  candidate_documents: DocumentRecord;
  candidate_preferences: PreferencesRecord;
  candidate_rates: PayRateRecord;
  candidate_restrictions: RestrictionRecord;
  candidates: StaffMemberRecord;
  client_rules: PricingRulesRecord;
  client_settings: ClientSettingsRecord;
  clients: ClientRecord;
  credit_note_lines: CreditNoteLineRecord;
  credit_notes: CreditNoteRecord;
  diary_notes: DiaryNoteRecord;
  document_categories: DocumentCategoryRecord;
  email_outbox: EMailRecord;
  employment_types: EmploymentTypeRecord;
  holiday_overrides: HolidayChangeRecord;
  invoice_export_batches: InvoiceExportRecord;
  invoice_lines: InvoiceLineRecord;
  invoice_reminders: OverdueReminderRecord;
  invoice_runs: InvoiceRunRecord;
  invoice_settings: InvoiceSettingsRecord;
  invoices: InvoiceRecord;
  job_applications: ApplicationRecord;
  job_roles: JobRoleRecord;
  notification_payment_settings: PaymentReminderSettingRecord;
  notification_preferences: NotificationPreferenceRecord;
  notification_settings: NotificationSettingRecord;
  notification_templates: EMailTemplateRecord;
  on_cost_rates: OnCostRatesRecord;
  pay_runs: PayRunRecord;
  payment_allocations: PaymentAllocationRecord;
  payments: PaymentRecord;
  payroll_adjustments: PayAdjustmentRecord;
  payslip_lines: PayslipLineRecord;
  payslips: PayslipRecord;
  rate_cards: RateCardRecord;
  recruitment_settings: RecruitmentSettingsRecord;
  self_billing_agreements: SelfBillingAgreementRecord;
  shift_requests: StaffRequestRecord;
  shift_templates: ShiftTemplateRecord;
  shifts: ShiftRecord;
  sites: SiteRecord;
  staff_deductions: StaffDeductionRecord;
  staff_detail_fields: StaffDetailFieldRecord;
  staff_holidays: HolidayTakenRecord;
  staff_logins: StaffSignInRecord;
  staff_profiles: StaffProfileRecord;
  staff_statuses: StaffStatusRecord;
  support_replies: ReplyRecord;
  support_requests: SupportRequestRecord;
  timesheet_approvers: PhoneApproverRecord;
  timesheet_lines: TimesheetLineRecord;
  timesheet_signatures: TimesheetSignatureRecord;
  timesheets: TimesheetRecord;
  users: UserRecord;
  vacancies: JobRecord;
  wage_floors: MinimumWageRecord;
}
