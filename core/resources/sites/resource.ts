import type { ResourceDeclaration } from '../../engine/types';
import { STATUS_CHOICES } from '../clients/resource';
import { CARE_TYPES, type CareType } from '../../domain/invoicing/vatTreatment';

const CARE_TYPE_NAMES: Record<CareType, string> = {
  hospital: 'Hospital',
  hospice: 'Hospice',
  care_home_nursing: 'Care home with nursing',
  care_home: 'Care home without nursing',
  other: 'Other',
};

/** The UK's bank-holiday regions (as the pricing domain names them). */
export const SITE_REGIONS = [
  { id: 'england_wales', name: 'England & Wales' },
  { id: 'scotland', name: 'Scotland' },
  { id: 'northern_ireland', name: 'Northern Ireland' },
];

export const sites: ResourceDeclaration = {
  name: 'sites',
  table: 'sites',
  label: { one: 'Site', many: 'Sites' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name', 'business_unit', 'contact_name'],
  delete: 'soft',
  // A client user sees the sites of their own client; deleting a client hides its sites with it.
  access: {
    admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
    consultant: ['list', 'show', 'create', 'edit', 'export'],
    manager: ['list', 'show'],
  },
  clientScope: 'client_id',
  parent: { resource: 'clients', field: 'client_id', onDelete: 'hide' },
  routes: { list: '/site/siteLists', show: '/site/site-profile/:id', edit: '/site/edit/:id', create: '/site/create' },
  tabs: [
    { id: 'allSite', label: 'All', filter: {}, path: '/site/allSite' },
    { id: 'activeSite', label: 'Active', filter: { status: 'active' }, path: '/site/activeSite' },
    { id: 'Inactive-Site', label: 'Inactive', filter: { status: 'inactive' }, path: '/site/Inactive-Site' },
  ],
  fields: [
    { source: 'name', type: 'text', label: 'Site name', required: true, maxLength: 150, sortable: true },
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      required: true,
      filter: true,
      sortable: true,
    },
    { source: 'business_unit', type: 'text', label: 'Business unit', maxLength: 100, sortable: true, filter: true },
    { source: 'address', type: 'address', label: 'Address', required: true, views: ['show', 'edit', 'create'] },
    // Bank holidays differ by region; the site's region prices its shifts.
    {
      source: 'region',
      type: 'choice',
      label: 'Region (bank holidays)',
      required: true,
      choices: SITE_REGIONS,
      defaultValue: 'england_wales',
      filter: true,
      views: ['show', 'edit', 'create'],
    },
    // Where an unsupervised nursing auxiliary's work is exempt (vatTreatmentOf): empty takes the client's type.
    {
      source: 'care_type',
      type: 'choice',
      label: 'Care type (VAT)',
      choices: CARE_TYPES.map((id) => ({ id, name: CARE_TYPE_NAMES[id] })),
      helperText: 'Leave empty to follow the client’s type.',
      readableBy: ['admin', 'consultant'],
      views: ['show', 'edit', 'create'],
    },
    { source: 'contact_name', type: 'text', label: 'Site contact', maxLength: 120 },
    { source: 'contact_phone', type: 'phone', label: 'Contact phone', views: ['show', 'edit', 'create'] },
    { source: 'contact_email', type: 'email', label: 'Contact e-mail', views: ['show', 'edit', 'create'] },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      required: true,
      choices: STATUS_CHOICES,
      defaultValue: 'active',
      filter: true,
      sortable: true,
    },
    {
      source: 'notes',
      type: 'longtext',
      label: 'Notes',
      views: ['show', 'edit', 'create'],
      readableBy: ['admin', 'consultant'],
    },
  ],
};
