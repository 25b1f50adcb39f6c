import { useEffect, useState } from 'react';
import { usePermissions } from 'react-admin';
import type { LoginType, ResourceDeclaration, Role } from '../../../core/engine/types';
import { canRead } from '../../../core/resources/access';
import { useAgency } from '../../layout/useShellData';
import { instantToZoned, formatDisplayDate } from '../../../core/domain/time/agencyTime';
import { api } from '../../providers/http';
import { shiftResources } from '../../../core/resources/shifts/resource';
import { formatPounds } from '../../../core/engine/money';

/** The shifts declaration (core/resources/shifts/resource.ts), shared with the server. */
export const shiftsDecl = (): ResourceDeclaration | undefined => shiftResources.find((d) => d.name === 'shifts');

/**
 * The declaration as one role receives it: fields it may not read are not columns or rows at all (pay, margin for
 * client users).
 */
export const readableBy = (decl: ResourceDeclaration, role: string, loginType: LoginType): ResourceDeclaration => ({
  ...decl,
  fields: decl.fields.filter((f) => canRead({ role, loginType }, f.readableBy as Role[] | undefined, f.groups)),
});

/** The signed-in user's role ('admin', 'consultant', 'manager', 'viewer'), once known. */
export function useRole(): { role?: string; loginType?: LoginType } {
  const { permissions } = usePermissions<{ role: string; loginType: LoginType | null } | null>();
  return { role: permissions?.role, loginType: permissions?.loginType ?? undefined };
}

/** The agency's time zone (merchants.time_zone), once the shell knows it. */
export function useAgencyTimeZone(): string | undefined {
  return useAgency().data?.timeZone;
}

/** Pence as pounds, a dash when there is no amount: 9800 → £98.00. */
export const money = (pence: number | null | undefined) => (pence == null ? '—' : formatPounds(pence));

/** Hours as people write them: 12, 11.5. */
export const hours = (h: number | null | undefined) => (h == null ? '—' : String(Math.round(h * 100) / 100));

const WEEKDAY = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
/** A shift's time on the agency's clock: 'Sat 28 Mar 2026, 20:00–08:00'. */
export function shiftWhen(start: string | undefined, end: string | undefined, tz: string | undefined): string {
  if (!start || !tz) return '—';
  const s = instantToZoned(new Date(start), tz);
  const e = end ? instantToZoned(new Date(end), tz) : null;
  const day = WEEKDAY[new Date(`${s.date}T00:00:00Z`).getUTCDay()];
  return `${day} ${formatDisplayDate(s.date)}, ${s.time}${e ? `–${e.time}` : ''}`;
}

/**
 * The states' colours: white text on each passes WCAG AA (4.5:1) and the four are told apart; every chip and
 * event also says its state in words (the legend, the accessible name), so colour never carries it alone.
 */
export const STATUS_COLOURS: Record<string, string> = {
  open: '#1565c0',
  assigned: '#2e7d32',
  closed: '#546e7a',
  cancelled: '#c62828',
  deleted: '#5d4037',
};

/** Lines of a quote (POST /api/rates/quote), money in pence. */
export interface QuoteLine {
  band: string;
  start?: string;
  end?: string;
  hours: number;
  pay_rate?: number;
  charge_rate: number;
  pay?: number;
  charge: number;
}
export interface Quote {
  lines: QuoteLine[];
  totals: { hours: number; pay?: number; charge: number; margin?: number };
  on_costs?: number;
  warnings?: (string | { code?: string; message: string })[];
}

/** One booking check's finding (GET /api/shifts/:id/check). */
export interface Finding {
  code: string;
  severity?: string;
  message: string;
  /** A hard check an admin may override with a reason. */
  overridable?: boolean;
}
export interface CheckAnswer {
  hard: Finding[];
  soft: Finding[];
  info: Finding[];
  awr?: unknown;
}
export interface Suggestion {
  candidate_id: number;
  name: string;
  job_role?: string | null;
  available?: boolean | null;
  /** Why (not) available: entered and fitting, nothing entered, marked unavailable, or other hours. */
  availability: 'fits' | 'not_set' | 'unavailable' | 'mismatch';
  preferred?: boolean | null;
  hours_this_week?: number | null;
  soft?: Finding[];
}

/** The API's answer, unwrapped from { data } when it comes wrapped. */
export const unwrap = <T,>(r: any): T =>
  (r && typeof r === 'object' && 'data' in r && !Array.isArray(r) ? r.data : r) as T;

/** Words for what an answer's `awr` holds: a string, or { weeks, qualified }. */
export function awrText(awr: unknown): string | null {
  if (awr == null) return null;
  if (typeof awr === 'string') return awr;
  if (typeof awr === 'object') {
    const a = awr as Record<string, any>;
    if (typeof a.message === 'string') return a.message;
    if (typeof a.weeks === 'number')
      return `Agency Workers Regulations: ${a.weeks} of 12 qualifying weeks at this client and role${a.qualified ? ' (qualified)' : ''}.`;
  }
  return null;
}

/** GET of a small answer, refreshed when the path changes; null path: nothing asked. */
export function useApiGet<T>(path: string | null) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: !!path });
  useEffect(() => {
    if (!path) return setState({ loading: false });
    const controller = new AbortController();
    setState({ loading: true });
    api(path, { signal: controller.signal })
      .then((r) => setState({ data: r as T, loading: false }))
      .catch((e) => !controller.signal.aborted && setState({ error: e?.message ?? 'Failed', loading: false }));
    return () => controller.abort();
  }, [path]);
  return state;
}
