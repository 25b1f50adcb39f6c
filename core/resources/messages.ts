import { declarationMessages, engineMessages } from '../engine/messages';
import { declarations } from './declarations';

/**
 * English labels generated from the resource declarations (resources.<name>.name / .fields.<source>) and the engine's
 * texts.
 */
export const resourceMessages: Record<string, unknown> = { ...engineMessages, ...declarationMessages(declarations) };

// Texts of the resources' own screens (staff decisions, profiles), deep-merged into the catalogue.
Object.assign(resourceMessages, {
  app: {
    payroll: {
      adjustments: 'Pay adjustments',
      adjust_hint:
        'Add an adjustment changes this payslip while its pay run is a draft. Once the run is approved, a correction is paid in the staff member’s next run:',
      next_run_correction: 'add a correction for the next run',
    },
    timesheets: {
      signature_png: 'Draw your signature (a PNG image).',
      pin_rule: 'Type a PIN of 6 to 8 digits.',
      // Issue 29.5: the Submit and Resend confirmations say who receives the signing link.
      link_to: 'The signing link is e-mailed to %{signing_recipient}; links sent before stop working.',
      link_to_nobody:
        'The client has no timesheet approver or e-mail address, so no signing link is sent: add one on the client to send one. The client’s users still see the timesheet in their panel.',
    },
    staff: {
      active: 'Active',
      inactive: 'Inactive',
      guard: {
        already_active: 'Already active',
        not_active: 'Not active',
      },
      profile_tabs: 'Staff profile sections',
      tabs: {
        overview: 'Overview',
        document: 'Documents',
        profiles: 'Profiles',
        restricted: 'Restricted',
        'rate-card': 'Rate card',
        notes: 'Notes',
        'staff-id': 'Staff ID',
        'candidate-history': 'History',
        'candidate-preference': 'Preferences',
        deductions: 'Deductions',
        holiday: 'Holiday',
      },
      no_notes: 'No notes yet.',
      no_profiles: 'No staff profiles assigned. Edit the staff member to add one.',
      staff_number: 'Staff no.',
    },
    availability: {
      states: {
        none: 'Not set',
        available: 'Available',
        day: 'Day',
        night: 'Night',
        long_day: 'Long day',
        unavailable: 'Unavailable',
      },
      weekdays: { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' },
      filters: { all: 'All staff', active: 'Active', inactive: 'Inactive', pending: 'Pending', rejected: 'Rejected' },
      job_role: 'Job role',
      all_roles: 'All job roles',
      staff_filter: 'Staff',
      search: 'Search staff',
      staff: 'Staff member',
      previous_week: 'Previous week',
      this_week: 'This week',
      next_week: 'Next week',
      week_of: 'Week of %{date}',
      grid_label: 'Availability for the week of %{date}',
      empty: 'No staff match these filters.',
      saving: 'Saving…',
      saved: 'Saved',
      not_saved: 'Not saved',
      failed: 'Not saved: %{message}',
      save_failed: 'The change could not be saved.',
      load_failed: 'The availability could not be loaded.',
      already_set: 'This day already has an availability entry.',
      copy_week: 'Copy this week to next week',
      copy_title: 'Copy this week to next week?',
      copy_confirm:
        'Each day set in the week of %{week} will be copied to the same day in the week of %{next}, replacing what is set there. Days not set this week are left as they are.',
      copied:
        'Copied %{smart_count} day to the week of %{week}. |||| Copied %{smart_count} days to the week of %{week}.',
      nothing_to_copy: 'Nothing to copy: no days are set this week.',
      help: 'Click a day, or press Enter or Space, to move to the next state (Shift goes back); Delete clears it. Arrow keys move between days. Each change is saved at once.',
    },
    documents: {
      guard: {
        replaced: 'This document has been replaced by a newer one',
      },
      expiry_before_issue: 'The expiry date cannot be before the issue date',
      rejected_because: 'Because: %{reason}',
    },
    restrictions: {
      site_of_other_client: 'This site belongs to another client',
      on_client: 'Staff restricted here',
      none_on_client: 'No staff are restricted from this client.',
      // The future bookings a restriction covers, and the offer to unassign them (issue 14.7).
      covered: {
        none: 'None',
        review: '1 booked shift |||| %{smart_count} booked shifts',
        title: 'This restriction covers 1 booked shift |||| This restriction covers %{smart_count} booked shifts',
        explain:
          '%{name} is still booked for this shift, which the restriction covers. If you unassign it, %{name} is told and the shift is open again. |||| %{name} is still booked for these %{smart_count} shifts, which the restriction covers. If you unassign them, %{name} is told and the shifts are open again.',
        list: 'Booked shifts the restriction covers',
        keep: 'Keep it |||| Keep them',
        unassign: 'Unassign this shift |||| Unassign these %{smart_count} shifts',
        unassigned:
          '1 shift unassigned; %{name} has been told. |||| %{smart_count} shifts unassigned; %{name} has been told.',
        none_left: '%{name} is no longer booked for any shift this restriction covers.',
      },
    },
    preferences: {
      overlap: 'A client or site cannot be both preferred and avoided',
      opt_out_date: 'Give the date the opt-out was signed',
    },
    compliance: {
      title: 'Compliance',
      compliant: 'Compliant',
      not_compliant: 'Not compliant',
      unavailable: 'Compliance cannot be shown right now.',
      valid_until: 'Compliant until %{date}',
      missing: 'Missing',
      expired: 'Expired',
      expiring: 'Expiring',
      expired_on: '%{name} (expired %{date})',
      days_left: '%{name} (expires %{date}, in 1 day) |||| %{name} (expires %{date}, in %{smart_count} days)',
    },
    edit: {
      stale:
        'This record was changed by someone else while you were editing it. Reload it to see their changes (your unsaved changes here will be lost), then make yours again.',
      reload: 'Reload',
    },
    reports_page: {
      clients: {
        title: 'Client Report',
        text: 'Per client, site and job role: shifts requested and filled, fill rate, hours, charge, margin and late cancellations.',
      },
      staff: {
        title: 'Staff Report',
        text: 'Per staff member: shifts, hours, charge, pay, margin and cancellations.',
      },
      business_units: {
        title: 'Business Unit Report',
        text: 'Per business unit and its clients: shifts requested and filled, fill rate, hours, charge and margin.',
      },
      invoices: {
        title: 'Invoice Report',
        text: 'Aged debt per client (current to over 90 days) and what was invoiced, credited, paid and is owed.',
      },
      documents: {
        title: 'Document Report',
        text: 'Staff compliance documents: all, active, due, due in 60 days and expired.',
      },
      rate_cards: { title: 'Rate Cards', text: 'Every rate card with its charge and pay rates and margins.' },
      email: { title: 'Email Report', text: 'Every e-mail the product sent or queued, and the mailbox.' },
      payroll: {
        title: 'Payroll Report',
        text: 'Payslips by run, pay day, staff member, employment type and client, with their totals.',
      },
    },
    history: {
      title: 'History',
      empty: 'No history yet.',
      person: 'Person',
      everyone: 'Everyone',
      from: 'From',
      to: 'To',
      system: 'System',
      file: 'a file',
      // A drawn signature (a PNG data URL) is said, never printed as its text.
      image: 'signature recorded',
      events: { create: 'Created', update: 'Changed', delete: 'Deleted', action: 'Action' },
      // What an entry's input was, where no action declares it (a shift created with others at once).
      input: { bulk: 'Created in bulk' },
    },
    children: {
      add: 'Add %{name}',
      actions: 'Actions',
      actions_for: 'Actions for %{name}',
    },
    clients: {
      contacts: 'Contacts',
      no_sites: 'This client has no sites yet.',
      add_site: 'Add site',
    },
  },
});
