import foundation from './001_foundation.js';
import resources from './002_resources.js';
import workflow from './003_workflow.js';
import files from './004_files.js';
import sharedState from './005_shared_state.js';
import compliance from './006_compliance.js';
import rates from './007_rates.js';
import shifts from './008_shifts.js';
import communication from './009_communication.js';
import notesSupport from './010_notes_support.js';
import inputHygiene from './011_input_hygiene.js';
import staffSessions from './012_staff_sessions.js';
import rateLimits from './013_rate_limits.js';
import fairCancellation from './015_fair_cancellation.js';
import userInvitations from './016_user_invitations.js';
import inviteLinks from './017_invite_links.js';
import jobs from './018_jobs.js';
import numberSeries from './020_number_series.js';
import capabilityLinks from './030_capability_links.js';
import notificationSettingsEngine from './040_notification_settings_engine.js';
import timesheets from './041_timesheets.js';
import invitationsAsLinks from './045_invitations_as_links.js';
import shiftListIndex from './046_shift_list_index.js';
import shiftRequests from './055_shift_requests.js';
import shiftTemplatesSoft from './075_shift_templates_soft.js';
import timesheetIntegrity from './060_timesheet_integrity.js';
import timesheetsDrafts from './061_timesheets_drafts.js';
import lineRepricingNote from './062_line_repricing_note.js';
import merchantVersion from './070_merchant_version.js';
import timesheetStates from './071_timesheet_states.js';
import phoneSignoff from './076_phone_signoff.js';
import numberedUnique from './079_numbered_unique.js';
import notificationPreferences from './080_notification_preferences.js';
import issuedDocuments from './081_issued_documents.js';
import invoices from './090_invoices.js';
import creditNotes from './091_credit_notes.js';
import payments from './092_payments.js';
import outboxAttachments from './094_outbox_attachments.js';
import auditLogIndexes from './095_audit_log_indexes.js';
import invoiceRunJobs from './096_invoice_run_jobs.js';
import invoiceExportBatches from './097_invoice_export_batches.js';
import invoiceSettings from './098_invoice_settings.js';
import payrollRuns from './100_payroll_runs.js';
import filterIndexes from './101_filter_indexes.js';
import agencyAddress from './102_agency_address.js';
import payrollDeductions from './108_payroll_deductions.js';
import payRunJobs from './114_pay_run_jobs.js';
import bankDetails from './115_bank_details.js';
import payslipDelivery from './116_payslip_delivery.js';
import needsDoingIndexes from './119_needs_doing_indexes.js';
import auditSets from './120_audit_sets.js';
import auditSetRanges from './121_audit_set_ranges.js';
import agencySettings from './122_agency_settings.js';
import invoicesSiteFilter from './125_invoices_site_filter.js';
import careers from './123_careers.js';
import agencySlug from './131_agency_slug.js';
import agencyPlan from './133_agency_plan.js';
import roleFieldGroups from './134_role_field_groups.js';
import clientSettings from './126_client_settings.js';
import recruitmentSettings from './132_recruitment_settings.js';
import interviewDates from './135_interview_dates.js';
import selfBilledVat from './136_self_billed_vat.js';
import timesheetLinesStatus from './137_timesheet_lines_status.js';
import roleBusinessUnits from './138_role_business_units.js';
import auditErasure from './139_audit_erasure.js';
import choiceFilterIndexes from './140_choice_filter_indexes.js';
import selfBillingAgreements from './141_self_billing_agreements.js';
import selfBillingAgreementReference from './142_self_billing_agreement_reference.js';
import shiftDays from './143_shift_days.js';
import shiftMonths from './147_shift_months.js';
import shiftStaffMonths from './148_shift_staff_months.js';
import noShows from './149_no_shows.js';
import auditSetsUncompressed from './150_audit_sets_uncompressed.js';
import recruitmentStages from './144_recruitment_stages.js';
import applicationFields from './145_application_fields.js';
import approverColleagues from './146_approver_colleagues.js';
import agencyRoles from './127_agency_roles.js';
import recruitment from './129_recruitment.js';
import businessUnitMembers from './130_business_unit_members.js';
import payrollLines from './113_payroll_lines.js';

/** Every schema change, in order. Append only: an applied migration is never edited. */
export const migrations: { id: string; sql: string }[] = [
  { id: '001_foundation', sql: foundation },
  { id: '002_resources', sql: resources },
  { id: '003_workflow', sql: workflow },
  { id: '004_files', sql: files },
  { id: '005_shared_state', sql: sharedState },
  { id: '006_compliance', sql: compliance },
  { id: '007_rates', sql: rates },
  { id: '008_shifts', sql: shifts },
  { id: '009_communication', sql: communication },
  { id: '010_notes_support', sql: notesSupport },
  { id: '011_input_hygiene', sql: inputHygiene },
  { id: '012_staff_sessions', sql: staffSessions },
  { id: '013_rate_limits', sql: rateLimits },
  { id: '015_fair_cancellation', sql: fairCancellation },
  { id: '016_user_invitations', sql: userInvitations },
  { id: '017_invite_links', sql: inviteLinks },
  { id: '018_jobs', sql: jobs },
  { id: '020_number_series', sql: numberSeries },
  { id: '030_capability_links', sql: capabilityLinks },
  { id: '040_notification_settings_engine', sql: notificationSettingsEngine },
  { id: '041_timesheets', sql: timesheets },
  { id: '045_invitations_as_links', sql: invitationsAsLinks },
  { id: '046_shift_list_index', sql: shiftListIndex },
  { id: '055_shift_requests', sql: shiftRequests },
  { id: '060_timesheet_integrity', sql: timesheetIntegrity },
  { id: '061_timesheets_drafts', sql: timesheetsDrafts },
  { id: '062_line_repricing_note', sql: lineRepricingNote },
  { id: '070_merchant_version', sql: merchantVersion },
  { id: '071_timesheet_states', sql: timesheetStates },
  { id: '075_shift_templates_soft', sql: shiftTemplatesSoft },
  { id: '076_phone_signoff', sql: phoneSignoff },
  { id: '079_numbered_unique', sql: numberedUnique },
  { id: '080_notification_preferences', sql: notificationPreferences },
  { id: '081_issued_documents', sql: issuedDocuments },
  { id: '090_invoices', sql: invoices },
  { id: '091_credit_notes', sql: creditNotes },
  { id: '092_payments', sql: payments },
  { id: '094_outbox_attachments', sql: outboxAttachments },
  { id: '095_audit_log_indexes', sql: auditLogIndexes },
  { id: '096_invoice_run_jobs', sql: invoiceRunJobs },
  { id: '097_invoice_export_batches', sql: invoiceExportBatches },
  { id: '098_invoice_settings', sql: invoiceSettings },
  { id: '100_payroll_runs', sql: payrollRuns },
  { id: '101_filter_indexes', sql: filterIndexes },
  { id: '102_agency_address', sql: agencyAddress },
  { id: '108_payroll_deductions', sql: payrollDeductions },
  { id: '113_payroll_lines', sql: payrollLines },
  { id: '114_pay_run_jobs', sql: payRunJobs },
  { id: '115_bank_details', sql: bankDetails },
  { id: '116_payslip_delivery', sql: payslipDelivery },
  { id: '119_needs_doing_indexes', sql: needsDoingIndexes },
  { id: '120_audit_sets', sql: auditSets },
  { id: '121_audit_set_ranges', sql: auditSetRanges },
  { id: '122_agency_settings', sql: agencySettings },
  { id: '125_invoices_site_filter', sql: invoicesSiteFilter },
  { id: '126_client_settings', sql: clientSettings },
  { id: '127_agency_roles', sql: agencyRoles },
  { id: '129_recruitment', sql: recruitment },
  // Numbered before 129 as assigned, applied after it: it adds the CV to 129's job_applications.
  { id: '123_careers', sql: careers },
  { id: '130_business_unit_members', sql: businessUnitMembers },
  { id: '131_agency_slug', sql: agencySlug },
  { id: '132_recruitment_settings', sql: recruitmentSettings },
  { id: '133_agency_plan', sql: agencyPlan },
  { id: '134_role_field_groups', sql: roleFieldGroups },
  { id: '135_interview_dates', sql: interviewDates },
  { id: '136_self_billed_vat', sql: selfBilledVat },
  { id: '137_timesheet_lines_status', sql: timesheetLinesStatus },
  { id: '138_role_business_units', sql: roleBusinessUnits },
  { id: '139_audit_erasure', sql: auditErasure },
  { id: '140_choice_filter_indexes', sql: choiceFilterIndexes },
  { id: '141_self_billing_agreements', sql: selfBillingAgreements },
  { id: '142_self_billing_agreement_reference', sql: selfBillingAgreementReference },
  { id: '143_shift_days', sql: shiftDays },
  { id: '144_recruitment_stages', sql: recruitmentStages },
  { id: '145_application_fields', sql: applicationFields },
  { id: '146_approver_colleagues', sql: approverColleagues },
  { id: '147_shift_months', sql: shiftMonths },
  { id: '148_shift_staff_months', sql: shiftStaffMonths },
  { id: '149_no_shows', sql: noShows },
  { id: '150_audit_sets_uncompressed', sql: auditSetsUncompressed },
];
