import type { ResourceDeclaration } from '../../engine/types';
import { privilegeChoices, privilegeRows } from './privileges';

/**
 * The agency's own roles (issue 35, Users and privileges): a name and the privileges it grants, from the grid of
 * resources × privileges at /appsetting/previlegesetting/roles. Admin and consultant stay built in; an agency user
 * holding one of these has role 'custom' and the role's privileges are read with their session on every request,
 * so a change applies to their next request in every server process. Only admins see and change roles.
 * Built from the other declarations (its privileges are theirs): declarations.ts makes it last.
 */
export function agencyRolesOf(others: readonly ResourceDeclaration[]): ResourceDeclaration {
  return {
    name: 'agency_roles',
    table: 'agency_roles',
    label: { one: 'Role', many: 'Roles' },
    recordRepresentation: '%{name}',
    defaultSort: { field: 'name', order: 'ASC' },
    // A role still held by a user cannot go (the users' reference refuses it, in words).
    delete: 'hard',
    access: { admin: ['list', 'show', 'create', 'edit', 'delete'] },
    search: ['name'],
    routes: {
      list: '/appsetting/previlegesetting/roles',
      create: '/appsetting/previlegesetting/roles/create',
      edit: '/appsetting/previlegesetting/roles/:id',
      show: '/appsetting/previlegesetting/roles/:id/show',
    },
    fields: [
      { source: 'name', type: 'text', label: 'Name', required: true, maxLength: 80, unique: true, sortable: true },
      {
        source: 'description',
        type: 'longtext',
        label: 'Description',
        maxLength: 500,
        views: ['show', 'edit', 'create'],
      },
      {
        source: 'privileges',
        type: 'choices',
        label: 'Privileges',
        choices: privilegeChoices(privilegeRows(others)),
        views: ['show', 'edit', 'create'],
        helperText:
          'What a user holding this role may do, resource by resource; which guarded fields (pay, charges and margins, ' +
          'bank details) they read; which reports they run (a report also needs its records’ List). Nothing is ' +
          'granted unless ticked.',
      },
      {
        source: 'business_unit_ids',
        type: 'references',
        reference: 'business_units',
        label: 'Business units (all when empty)',
        views: ['show', 'edit', 'create'],
        helperText:
          'Limits what its holders see to the clients of these units, and those clients’ shifts, timesheets, ' +
          'invoices and the rest; staff members and the agency’s own lists stay whole. Empty: every unit.',
      },
      {
        source: 'created_at',
        type: 'datetime',
        label: 'Added',
        readOnly: true,
        sortable: true,
        views: ['list', 'show'],
      },
    ],
  };
}
