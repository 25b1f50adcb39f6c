import type { Choice, FieldGroup, ResourceDeclaration } from '../../engine/types';
import { CRUD_ACTIONS, FIELD_GROUPS } from '../../engine/types';
import type { ReportDeclaration } from '../../engine/reports';
import { REPORT_DECLARATIONS } from '../reports';

/**
 * The privileges an agency's own role can grant (issue 35): per declared resource, each CRUD action and each record
 * action the built-in admin role is granted — never anything else, so a custom role can never grant more than admin
 * (permits checks admin's grant as well, whatever is stored). A privilege is stored as `resource.action`.
 * Besides them: each guarded field group (`fields.pay_rates`, canRead) and each declared report admin may run
 * (`reports.client_activity`, mayRunReport) — `fields` and `reports` name no resource.
 */
export const privilegeKey = (resource: string, action: string) => `${resource}.${action}`;

/** The privilege granting a guarded field group: `fields.pay_rates`. */
export const fieldGroupKey = (group: FieldGroup) => privilegeKey('fields', group);
/** The privilege granting a declared report (viewing it and, where admin may, exporting it): `reports.vat`. */
export const reportKey = (report: string) => privilegeKey('reports', report);

/** What each guarded field group is, as the role editor names it (the fields declare which group they are in). */
export const FIELD_GROUP_LABELS: Record<FieldGroup, string> = {
  pay_rates: 'Pay rates and pay',
  margins: 'Charge rates, margins and on-costs',
  bank_details: 'Bank details',
};

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

/** The reports a custom role can be granted: those admin may run (admin's reports, never a client's own). */
export const grantableReports = (reports: readonly ReportDeclaration[] = REPORT_DECLARATIONS) =>
  reports.filter((r) => r.roles.includes('admin'));

/**
 * The grid's rows: every agency resource admin is granted something of, with what admin is granted of it; then the
 * guarded field groups and the reports, a row each.
 */
export function privilegeRows(
  declarations: readonly ResourceDeclaration[],
  reports: readonly ReportDeclaration[] = REPORT_DECLARATIONS,
): PrivilegeRow[] {
  return [...resourceRows(declarations), fieldGroupRow, reportRow(reports)];
}

const fieldGroupRow: PrivilegeRow = {
  resource: 'fields',
  label: 'Guarded fields',
  privileges: FIELD_GROUPS.map((g) => ({
    key: fieldGroupKey(g),
    action: g,
    label: FIELD_GROUP_LABELS[g],
    crud: false,
  })),
};

const reportRow = (reports: readonly ReportDeclaration[]): PrivilegeRow => ({
  resource: 'reports',
  label: 'Reports',
  privileges: grantableReports(reports).map((r) => ({
    key: reportKey(r.name),
    action: r.name,
    label: r.label,
    crud: false,
  })),
});

function resourceRows(declarations: readonly ResourceDeclaration[]): PrivilegeRow[] {
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
/** The reports of a payroll clerk's work: hours and pay per staff member. */
const PAYROLL_REPORTS = ['staff_activity'];

/** The guarded field groups every field of which a built-in role reads: the consultant's are pay rates and margins. */
const groupsReadBy = (role: 'consultant', declarations: readonly ResourceDeclaration[]): FieldGroup[] =>
  FIELD_GROUPS.filter((g) =>
    declarations.every((d) =>
      d.fields.every((f) => !f.groups?.includes(g) || !f.readableBy || f.readableBy.includes(role)),
    ),
  );

export const PRESETS: Preset[] = [
  {
    // Reading every record and report; no guarded field group (pay, margins and bank details are granted one by one).
    id: 'read_only',
    label: 'Read-only',
    grants: (rows) =>
      rows
        .flatMap((r) =>
          r.resource === 'reports'
            ? r.privileges
            : r.privileges.filter((p) => p.crud && (p.action === 'list' || p.action === 'show')),
        )
        .map((p) => p.key),
  },
  {
    // What the built-in consultant role is declared to do and read, as a starting point for a narrower or wider
    // consultant: its actions, the field groups it reads, its reports.
    id: 'consultant',
    label: 'Consultant-like',
    grants: (rows, declarations) => {
      const byName = new Map(declarations.map((d) => [d.name, d]));
      const groups = new Set<string>(groupsReadBy('consultant', declarations).map(fieldGroupKey));
      return rows.flatMap((r) => {
        if (r.resource === 'fields') return r.privileges.filter((p) => groups.has(p.key)).map((p) => p.key);
        if (r.resource === 'reports')
          return r.privileges
            .filter((p) => !!REPORT_DECLARATIONS.find((x) => x.name === p.action)?.roles.includes('consultant'))
            .map((p) => p.key);
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
    // Runs payroll: its resources in full, reads who worked where, sees pay and bank details (not charges or
    // margins), and the staff report.
    id: 'payroll_clerk',
    label: 'Payroll clerk',
    grants: (rows) =>
      rows.flatMap((r) =>
        PAYROLL.includes(r.resource)
          ? r.privileges.map((p) => p.key)
          : PAYROLL_READS.includes(r.resource)
            ? r.privileges.filter((p) => p.action === 'list' || p.action === 'show').map((p) => p.key)
            : r.resource === 'fields'
              ? [fieldGroupKey('pay_rates'), fieldGroupKey('bank_details')]
              : r.resource === 'reports'
                ? r.privileges.filter((p) => PAYROLL_REPORTS.includes(p.action)).map((p) => p.key)
                : [],
      ),
  },
];
