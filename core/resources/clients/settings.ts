import type { ResourceDeclaration } from '../../engine/types';
import { clients } from './resource';
import { CLIENT_EMAIL_EVENTS, signingMethodsProblem } from '../../domain/clients/settings';

// The agency's client settings (issue 35, /appsetting/ClientSettings): one row per agency, whose id is the agency's
// (migration 126), served by hand-written routes (server/routes/clientSettings.ts) and written by the engine all the
// same: validated by this declaration, versioned and audited. No row: the defaults below.

/** A client field's declaration, taken as it is: the default for new clients reads and checks as the client's does. */
const asClient = (source: string) => {
  const f = clients.fields.find((x) => x.source === source)!;
  return { ...f, views: undefined, readableBy: undefined, helperText: undefined };
};

export const clientSettings: ResourceDeclaration = {
  name: 'client_settings',
  table: 'client_settings',
  label: { one: 'Client settings', many: 'Client settings' },
  recordRepresentation: 'Client settings',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  served: false,
  // The agency's admins set them; its consultants read them (as they read the invoice settings).
  access: { admin: ['list', 'show', 'create', 'edit'], consultant: ['list', 'show'] },
  rules: (r): Record<string, string> => {
    const signing = signingMethodsProblem(r.signing_methods);
    return signing ? { signing_methods: signing } : {};
  },
  fields: [
    asClient('invoice_mode'),
    asClient('split_by_po'),
    asClient('split_by_site'),
    asClient('po_required'),
    asClient('timesheet_per'),
    asClient('signing_methods'),
    asClient('shift_request_approval'),
    {
      source: 'client_emails',
      type: 'choices',
      label: 'E-mails a client’s users get',
      defaultValue: CLIENT_EMAIL_EVENTS.map((e) => e.id),
      choices: CLIENT_EMAIL_EVENTS.map((e) => ({ id: e.id, name: e.name })),
      helperText: 'Unless a client user is set otherwise below.',
    },
  ],
};
