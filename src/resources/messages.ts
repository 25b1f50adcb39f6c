import { declarationMessages, engineMessages } from '../engine/messages';
import { declarations } from './declarations';

/** English labels generated from the resource declarations (resources.<name>.name / .fields.<source>) and the engine's texts. */
export const resourceMessages: Record<string, unknown> = { ...engineMessages, ...declarationMessages(declarations) };

// Texts of the resources' own screens (staff decisions, profiles), deep-merged into the catalogue.
Object.assign(resourceMessages, {
  app: {
    staff: {
      approve: 'Approve',
      reject: 'Reject',
      activate: 'Activate',
      deactivate: 'Deactivate',
      active: 'Active',
      inactive: 'Inactive',
      nothing_to_change: 'None of the selected staff can take that change.',
      done: {
        approve: 'Approved |||| %{smart_count} staff approved',
        reject: 'Rejected |||| %{smart_count} staff rejected',
        activate: 'Activated |||| %{smart_count} staff activated',
        deactivate: 'Deactivated |||| %{smart_count} staff deactivated',
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
      },
      no_notes: 'No notes yet.',
      no_profiles: 'No staff profiles assigned. Edit the staff member to add one.',
      staff_number: 'Staff no.',
    },
    clients: {
      contacts: 'Contacts',
      no_sites: 'This client has no sites yet.',
      add_site: 'Add site',
    },
  },
});
