import type { ResourceDeclaration } from '../../engine/types';
import { INVOICE_MODE_CHOICES } from '../invoices/resource';
import {
  SHIFT_REQUEST_APPROVAL_CHOICES,
  SIGNING_METHOD_CHOICES,
  signingMethodsProblem,
} from '../../domain/clients/settings';

/**
 * What a new client takes from the agency's client settings (/appsetting/ClientSettings/basicClientSettings) unless
 * it is given otherwise (server/behaviours/clients.ts `defaults`); its payment terms from the invoice settings.
 */
export const CLIENT_AGENCY_DEFAULTS = [
  'payment_terms_days',
  'invoice_mode',
  'split_by_po',
  'split_by_site',
  'po_required',
  'timesheet_per',
  'signing_methods',
  'shift_request_approval',
];

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
  // A client created without a code gets the next of the agency's series (issue 30.19); a typed one is kept.
  numbering: { field: 'code', series: 'CL', prefix: 'CL', pad: 3, whenEmpty: true },
  delete: 'soft',
  // Issue 35: a new client starts from the agency's defaults; its profile then keeps its own.
  agencyDefaults: CLIENT_AGENCY_DEFAULTS,
  rules: (r): Record<string, string> => {
    const signing = signingMethodsProblem(r.signing_methods);
    return signing ? { signing_methods: signing } : {};
  },
  // A client user sees their own client only.
  access: {
    admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
    consultant: ['list', 'show', 'create', 'edit', 'export'],
    manager: ['show'],
  },
  clientScope: 'id',
  routes: { list: '/client/client-list', show: '/client/view/:id', edit: '/client/edit/:id', create: '/client/create' },
  tabs: [
    { id: 'allClient', label: 'All', filter: {}, path: '/client/client-list/allClient' },
    { id: 'activeClient', label: 'Active', filter: { status: 'active' }, path: '/client/client-list/activeClient' },
    {
      id: 'Inactive-Client',
      label: 'Inactive',
      filter: { status: 'inactive' },
      path: '/client/client-list/Inactive-Client',
    },
  ],
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 150, sortable: true },
    {
      source: 'code',
      type: 'text',
      label: 'Client code',
      helperText: 'Left empty, the next code of the series is given (CL001, CL002…).',
      maxLength: 20,
      unique: true,
      sortable: true,
      pattern: { regex: '^[A-Za-z0-9_-]+$', message: 'engine.validation.code' },
    },
    {
      source: 'client_type',
      type: 'choice',
      label: 'Type',
      filter: true,
      sortable: true,
      choices: [
        { id: 'Care home', name: 'Care home' },
        { id: 'Nursing home', name: 'Nursing home' },
        { id: 'Hospital', name: 'Hospital' },
        { id: 'Supported living', name: 'Supported living' },
        { id: 'Other', name: 'Other' },
      ],
    },
    {
      source: 'business_unit_id',
      type: 'reference',
      reference: 'business_units',
      label: 'Business unit',
      filter: true,
      sortable: true,
      // The agency's own organisation: not a client user's business. A unit in use is archived, never deleted.
      readableBy: ['admin', 'consultant'],
      onDelete: 'refuse',
      referenceWhere: { values: { active: 'true' }, message: 'Choose a business unit in use.' },
      // Offered by the column chooser (and the filter): an eighth column took the list past a laptop's width.
      listHidden: true,
      helperText: 'The part of the agency that looks after this client: its reports and dashboard figures.',
    },
    {
      source: 'contact_name',
      type: 'text',
      label: 'Contact name',
      maxLength: 120,
      views: ['show', 'edit', 'create', 'list'],
    },
    { source: 'email', type: 'email', label: 'E-mail', views: ['show', 'edit', 'create'] },
    {
      source: 'billing_email',
      type: 'email',
      label: 'Billing e-mail',
      required: true,
      views: ['show', 'edit', 'create'],
    },
    { source: 'phone', type: 'phone', label: 'Phone', views: ['list', 'show', 'edit', 'create'] },
    { source: 'address', type: 'address', label: 'Address', views: ['show', 'edit', 'create'] },
    {
      source: 'vat_number',
      type: 'text',
      label: 'VAT number',
      maxLength: 20,
      views: ['show', 'edit', 'create'],
      pattern: { regex: '^[A-Za-z]{0,2}[0-9A-Za-z ]{5,15}$', message: 'engine.validation.vat' },
    },
    {
      source: 'payment_terms_days',
      type: 'number',
      label: 'Payment terms (days)',
      integer: true,
      min: 0,
      max: 365,
      defaultValue: 30,
      helperText: 'A new client starts with the agency’s default terms (Invoice settings); empty: those terms.',
      views: ['show', 'edit', 'create'],
    },
    // Billing (issue 32): where invoices go, and how a run groups this client's work (core/domain/invoicing/grouping).
    { source: 'billing_address', type: 'address', label: 'Billing address', views: ['show', 'edit', 'create'] },
    {
      source: 'po_required',
      type: 'boolean',
      label: 'PO number required',
      defaultValue: false,
      helperText: 'Work without a PO number is not invoiced; the preview names it.',
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'split_by_po',
      type: 'boolean',
      label: 'One invoice per PO number',
      defaultValue: false,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'split_by_site',
      type: 'boolean',
      label: 'One invoice per site',
      defaultValue: false,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'invoice_mode',
      type: 'choice',
      label: 'Invoiced',
      choices: INVOICE_MODE_CHOICES,
      helperText: 'A run over all clients takes the clients invoiced this way, or not set.',
      views: ['show', 'edit', 'create'],
    },
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
    // Timesheets (issue 17): one per client or one per site, who signs them, and when they are chased.
    {
      source: 'timesheet_per',
      type: 'choice',
      label: 'One timesheet per',
      required: true,
      defaultValue: 'client',
      choices: [
        { id: 'client', name: 'Client' },
        { id: 'site', name: 'Site' },
      ],
      views: ['show', 'edit', 'create'],
    },
    // Issue 35: the ways its timesheets may be signed (each signing path refuses the others, in words).
    {
      source: 'signing_methods',
      type: 'choices',
      label: 'Timesheets may be signed',
      required: true,
      defaultValue: ['panel', 'link', 'phone'],
      choices: SIGNING_METHOD_CHOICES,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'shift_request_approval',
      type: 'choice',
      label: 'Staff requests for its shifts',
      required: true,
      defaultValue: 'agency',
      choices: SHIFT_REQUEST_APPROVAL_CHOICES,
      views: ['show', 'edit', 'create'],
      readableBy: ['admin', 'consultant'],
    },
    {
      source: 'timesheet_approver_email',
      type: 'email',
      label: 'Timesheet approver e-mail',
      helperText: 'Receives the signing link of each submitted timesheet (the client’s e-mail when empty).',
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'timesheet_link_days',
      type: 'number',
      label: 'Signing link valid for (days)',
      integer: true,
      min: 1,
      max: 60,
      defaultValue: 7,
      views: ['show', 'edit', 'create'],
      readableBy: ['admin', 'consultant'],
    },
    {
      source: 'timesheet_reminder_days',
      type: 'number',
      label: 'Remind of an unsigned timesheet after (days)',
      integer: true,
      min: 1,
      max: 60,
      defaultValue: 3,
      views: ['show', 'edit', 'create'],
      readableBy: ['admin', 'consultant'],
    },
    // Issue 29.1: how far hours entered on a staff member's phone may differ from the booking and still be signed
    // there by the client's approver; beyond, the line goes to the client (core/domain/timesheets/tolerance.ts).
    {
      source: 'timesheet_early_minutes',
      type: 'number',
      label: 'Phone sign-off: start early by at most (minutes)',
      integer: true,
      min: 0,
      max: 240,
      defaultValue: 15,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'timesheet_late_minutes',
      type: 'number',
      label: 'Phone sign-off: finish late by at most (minutes)',
      integer: true,
      min: 0,
      max: 240,
      defaultValue: 60,
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'timesheet_short_break_minutes',
      type: 'number',
      label: 'Phone sign-off: break shorter by at most (minutes)',
      integer: true,
      min: 0,
      max: 240,
      defaultValue: 0,
      views: ['show', 'edit', 'create'],
    },
    { source: 'logo', type: 'image', label: 'Logo', views: ['show', 'edit', 'create'] },
    {
      source: 'notes',
      type: 'longtext',
      label: 'Notes',
      maxLength: 5000,
      views: ['show', 'edit', 'create'],
      readableBy: ['admin', 'consultant'],
    },
    { source: 'created_at', type: 'datetime', label: 'Added', readOnly: true, sortable: true, views: ['list', 'show'] },
  ],
};
