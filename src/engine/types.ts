/**
 * A resource declaration: everything the product knows about one entity, as plain data.
 * The server imports the same objects (no React here), so API, database checks and screens cannot disagree.
 */
export type FieldType =
  | 'text' | 'longtext' | 'email' | 'phone' | 'number' | 'money' | 'boolean' | 'date' | 'datetime'
  | 'choice' | 'reference' | 'references' | 'image' | 'file' | 'address';

export type View = 'list' | 'show' | 'edit' | 'create';
export type Action = 'list' | 'show' | 'create' | 'edit' | 'delete' | 'export';
export type Role = 'admin' | 'consultant' | 'manager' | 'viewer';

export interface Choice {
  id: string;
  /** English label; translated through `resources.<name>.choices.<source>.<id>` when present. */
  name: string;
}

/** Limits of a date or date-time field, as the date picker and the server both enforce them. */
export interface DateLimits {
  /** 'today', an ISO date, or an offset from today such as '-16y' / '+1y' / '-30d'. */
  min?: string;
  max?: string;
  /** Days of the week that cannot be chosen, 0 = Sunday … 6 = Saturday. */
  disabledWeekdays?: number[];
  /** The coarsest view the picker stops at: 'year' picks a year, 'month' a month, 'day' a date. */
  minView?: 'year' | 'month' | 'day';
  clearable?: boolean;
}

export interface FieldDeclaration {
  source: string;
  type: FieldType;
  label: string;
  required?: boolean;
  /** Text length limits. */
  minLength?: number;
  maxLength?: number;
  /** Number and money range (money in major units, e.g. pounds). */
  min?: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  pattern?: { regex: string; message: string };
  /** Unique within the agency (case-insensitive for text). */
  unique?: boolean;
  choices?: Choice[];
  /** For reference and references: the target resource name. */
  reference?: string;
  date?: DateLimits;
  /** Where the field appears; default every view. */
  views?: View[];
  sortable?: boolean;
  /** Offered as a list filter (exact match; date and number get from/to). */
  filter?: boolean;
  /** Filled by the server; shown, never written by the caller. */
  readOnly?: boolean;
  defaultValue?: unknown;
  helperText?: string;
}

export interface ListTab {
  /** The tab's route segment, e.g. 'activeClient'. */
  id: string;
  label: string;
  /** The filter the tab applies; sent as plain filters so the API serves it. */
  filter: Record<string, unknown>;
  /** The spec route that opens this tab, e.g. '/client/client-list/activeClient'. */
  path?: string;
}

export interface ResourceDeclaration {
  /** React-admin resource name, also the API path under /api. */
  name: string;
  table: string;
  label: { one: string; many: string };
  fields: FieldDeclaration[];
  /** How a record is named in references and titles, e.g. '%{first_name} %{last_name}'. */
  recordRepresentation: string;
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  /** Fields searched by the list's free-text `q` filter. */
  search?: string[];
  tabs?: ListTab[];
  /** Other names the API accepts for a filter (the spec's status_value → status). */
  filterAliases?: Record<string, string>;
  access: Partial<Record<Role, Action[]>>;
  /** Soft delete keeps the row (shifts, invoices and history still point at it) and hides it everywhere. */
  delete: 'soft' | 'hard';
  /** Agency-defined extra fields, stored in custom_fields and described by this resource's records. */
  customFields?: string;
  /** Rules across several fields, as a plain function of the record: field → message key. */
  rules?: (record: Record<string, any>) => Record<string, string>;
  /** The canonical screen routes of the spec; react-admin's own paths redirect or lead to the same screens. */
  routes?: { list?: string; show?: string; edit?: string; create?: string };
}

/** Page sizes of every list: the API refuses more than `maxPerPage`; the dataProvider gathers larger pages. */
export const LIST_LIMITS = { defaultPerPage: 25, maxPerPage: 100 } as const;
export const hasView = (f: FieldDeclaration, v: View) => !f.views || f.views.includes(v);
