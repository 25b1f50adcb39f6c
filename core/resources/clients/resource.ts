import type { ResourceDeclaration } from '../../engine/types';

export const STATUS_CHOICES = [
  { id: 'active', name: 'Active' },
  { id: 'inactive', name: 'Inactive' },
];

export const clients: ResourceDeclaration = {
  name: 'clients',
  table: 'clients',
  label: { one: 'Client', many: 'Clients' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name', 'code', 'contact_name', 'email', 'billing_email'],
  delete: 'soft',
  // A client user sees their own client only.
  access: { admin: ['list', 'show', 'create', 'edit', 'delete', 'export'], consultant: ['list', 'show', 'create', 'edit', 'export'], manager: ['show'] },
  clientScope: 'id',
  routes: { list: '/client/client-list', show: '/client/view/:id', edit: '/client/edit/:id', create: '/client/create' },
  tabs: [
    { id: 'allClient', label: 'All', filter: {}, path: '/client/client-list/allClient' },
    { id: 'activeClient', label: 'Active', filter: { status: 'active' }, path: '/client/client-list/activeClient' },
    { id: 'Inactive-Client', label: 'Inactive', filter: { status: 'inactive' }, path: '/client/client-list/Inactive-Client' },
  ],
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 150, sortable: true },
    { source: 'code', type: 'text', label: 'Client code', maxLength: 20, unique: true, sortable: true, pattern: { regex: '^[A-Za-z0-9_-]+$', message: 'engine.validation.code' } },
    { source: 'client_type', type: 'choice', label: 'Type', filter: true, sortable: true, choices: [
      { id: 'Care home', name: 'Care home' }, { id: 'Nursing home', name: 'Nursing home' }, { id: 'Hospital', name: 'Hospital' },
      { id: 'Supported living', name: 'Supported living' }, { id: 'Other', name: 'Other' },
    ] },
    { source: 'contact_name', type: 'text', label: 'Contact name', maxLength: 120, views: ['show', 'edit', 'create', 'list'] },
    { source: 'email', type: 'email', label: 'E-mail', views: ['show', 'edit', 'create'] },
    { source: 'billing_email', type: 'email', label: 'Billing e-mail', required: true, views: ['show', 'edit', 'create'] },
    { source: 'phone', type: 'phone', label: 'Phone', views: ['list', 'show', 'edit', 'create'] },
    { source: 'address', type: 'address', label: 'Address', views: ['show', 'edit', 'create'] },
    { source: 'vat_number', type: 'text', label: 'VAT number', maxLength: 20, views: ['show', 'edit', 'create'], pattern: { regex: '^[A-Za-z]{0,2}[0-9A-Za-z ]{5,15}$', message: 'engine.validation.vat' } },
    { source: 'payment_terms_days', type: 'number', label: 'Payment terms (days)', integer: true, min: 0, max: 365, defaultValue: 30, views: ['show', 'edit', 'create'] },
    { source: 'status', type: 'choice', label: 'Status', required: true, choices: STATUS_CHOICES, defaultValue: 'active', filter: true, sortable: true },
    { source: 'logo', type: 'image', label: 'Logo', views: ['show', 'edit', 'create'] },
    { source: 'notes', type: 'longtext', label: 'Notes', maxLength: 5000, views: ['show', 'edit', 'create'], readableBy: ['admin', 'consultant'] },
    { source: 'created_at', type: 'datetime', label: 'Added', readOnly: true, sortable: true, views: ['list', 'show'] },
  ],
};
