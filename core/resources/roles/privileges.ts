import type { Choice, ResourceDeclaration } from '../../engine/types';
import { CRUD_ACTIONS } from '../../engine/types';

/**
 * The privileges an agency's own role can grant (issue 35): per declared resource, each CRUD action and each record
 * action the built-in admin role is granted — never anything else, so a custom role can never grant more than admin
 * (permits checks admin's grant as well, whatever is stored). A privilege is stored as `resource.action`.
 */
export const privilegeKey = (resource: string, action: string) => `${resource}.${action}`;

/** The resources no custom role is granted: the roles themselves (who may grant what stays the admin's). */
export const NOT_GRANTABLE: readonly string[] = ['agency_roles'];
/** Whether a custom role can be granted anything of this resource (served, and not the roles themselves). */
export const grantable = (d: Pick<ResourceDeclaration, 'name' | 'served'>) =>
  d.served !== false && !NOT_GRANTABLE.includes(d.name);

export interface PrivilegeRow {
  resource: string;
  label: string;
  /** The privileges of this resource, in the order the grid shows them: CRUD first, then the record actions. */
  privileges: { key: string; action: string; label: string; crud: boolean }[];
}

const CRUD_LABELS: Record<string, string> = {
  list: 'List',
  show: 'Show',
  create: 'Create',
  edit: 'Edit',
  delete: 'Delete',
  export: 'Export',
};

/** The grid's rows: every agency resource admin is granted something of, with what admin is granted of it. */
export function privilegeRows(declarations: readonly ResourceDeclaration[]): PrivilegeRow[] {
  return declarations
    .filter(grantable)
    .map((d) => ({
      resource: d.name,
      label: d.label.many,
      privileges: [
        ...CRUD_ACTIONS.filter((a) => (d.access.admin ?? []).includes(a as never)).map((a) => ({
          key: privilegeKey(d.name, a),
          action: a,
          label: CRUD_LABELS[a],
          crud: true,
        })),
        ...(d.actions ?? [])
          .filter((a) => a.roles.includes('admin'))
          .map((a) => ({ key: privilegeKey(d.name, a.name), action: a.name, label: a.label, crud: false })),
      ],
    }))
    .filter((r) => r.privileges.length > 0);
}

/** Every grantable privilege as the choices of the role's privileges field (what validation accepts). */
export const privilegeChoices = (rows: readonly PrivilegeRow[]): Choice[] =>
  rows.flatMap((r) => r.privileges.map((p) => ({ id: p.key, name: `${r.label}: ${p.label}` })));

/** A starting point in the editor: a set of privileges, which the admin then adjusts. */
export interface Preset {
  id: string;
  label: string;
  grants(rows: readonly PrivilegeRow[], declarations: readonly ResourceDeclaration[]): string[];
}

/** The resources of payroll's work: what a payroll clerk runs. */
const PAYROLL = ['pay_runs', 'payslips', 'payslip_lines', 'staff_deductions', 'payroll_adjustments', 'staff_holidays'];
/** What a payroll clerk reads to check a pay run: who worked, where, and what was signed. */
const PAYROLL_READS = ['candidates', 'timesheets', 'timesheet_lines', 'clients', 'sites', 'shifts'];

export const PRESETS: Preset[] = [
  {
    id: 'read_only',
    label: 'Read-only',
    grants: (rows) =>
      rows.flatMap((r) => r.privileges.filter((p) => p.action === 'list' || p.action === 'show')).map((p) => p.key),
  },
  {
    // What the built-in consultant role is declared to do, as a starting point for a narrower or wider consultant.
    id: 'consultant',
    label: 'Consultant-like',
    grants: (rows, declarations) => {
      const byName = new Map(declarations.map((d) => [d.name, d]));
      return rows.flatMap((r) => {
        const d = byName.get(r.resource)!;
        return r.privileges
          .filter((p) =>
            p.crud
              ? (d.access.consultant ?? []).includes(p.action as never)
              : !!d.actions?.find((a) => a.name === p.action)?.roles.includes('consultant'),
          )
          .map((p) => p.key);
      });
    },
  },
  {
    id: 'payroll_clerk',
    label: 'Payroll clerk',
    grants: (rows) =>
      rows.flatMap((r) =>
        PAYROLL.includes(r.resource)
          ? r.privileges.map((p) => p.key)
          : PAYROLL_READS.includes(r.resource)
            ? r.privileges.filter((p) => p.action === 'list' || p.action === 'show').map((p) => p.key)
            : [],
      ),
  },
];
