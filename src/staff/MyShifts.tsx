import { useEffect, useState } from 'react';
import { Alert, Box, Chip, CircularProgress, Link, List, ListItem, Typography } from '@mui/material';
import { request } from '../providers/request';
import { formatPounds } from '../../core/engine/money';
import { fill, staffTexts as say } from './messages';

/** A shift as the engine answers it to its booked staff member (only the fields whose readableBy names staff). */
export interface MyShift {
  id: number;
  start_at: string;
  end_at: string;
  status: string;
  state?: string;
  site_name: string | null;
  site_address: { line1?: string | null; line2?: string | null; city?: string | null; postcode?: string | null } | null;
  job_role_name: string | null;
  notes: string | null;
  hours: number | null;
  pay: number | null;
  /** The booking's own unpaid break (null: the client's break rules gave it one, see bookedBreak). */
  break_minutes?: number | null;
  sleep_in?: boolean | null;
}

// Deleted shifts were never to be worked: the staff member sees the booked, worked and cancelled ones.
const STATES = 'state=assigned,closed,cancelled';
/** Upcoming from the start of the agency's today (the engine reads 'today' on the agency's clock); past before it. */
export const UPCOMING_PATH = `/shifts?${STATES}&start_at_gte=today&sort=start_at&order=asc&per_page=50`;
export const PAST_PATH = `/shifts?${STATES}&start_at_lte=-1d&sort=start_at&order=desc&per_page=20`;

export const address = (a: MyShift['site_address']) =>
  a ? [a.line1, a.line2, a.city, a.postcode].filter(Boolean).join(', ') : '';

/** A link to the address on OpenStreetMap's search, which the staff member follows; the page calls out to none. */
export const mapLink = (where: string) => `https://www.openstreetmap.org/search?query=${encodeURIComponent(where)}`;

/** The site's address, and a link to it on a map. */
export function SiteAddress({ where }: { where: string }) {
  if (!where) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
      {where}{' '}
      <Link
        href={mapLink(where)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={fill(say.shift_map_label, { address: where })}
      >
        {say.shift_map}
      </Link>
    </Typography>
  );
}

/** "Mon 30 Nov, 07:00–15:00" on the agency's clock, whatever the phone's own zone. */
export function shiftTimes(s: Pick<MyShift, 'start_at' | 'end_at'>, timeZone: string | undefined) {
  const day = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone });
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone });
  return `${day.format(new Date(s.start_at))}, ${time.format(new Date(s.start_at))}–${time.format(new Date(s.end_at))}`;
}

function ShiftItem({ s, timeZone }: { s: MyShift; timeZone?: string }) {
  const where = address(s.site_address);
  return (
    <ListItem divider sx={{ display: 'block', py: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 'bold', flex: 1, minWidth: 0 }}>
          {shiftTimes(s, timeZone)}
        </Typography>
        {s.status === 'cancelled' && <Chip size="small" color="warning" label={say.shift_cancelled} />}
      </Box>
      <Typography variant="body2">{[s.job_role_name, s.site_name].filter(Boolean).join(' at ')}</Typography>
      <SiteAddress where={where} />
      {s.status !== 'cancelled' && s.pay != null && (
        <Typography variant="body2" color="text.secondary">
          {say.shift_pay
            .replace('%{hours}', String(Number(Number(s.hours ?? 0).toFixed(2))))
            .replace('%{pay}', formatPounds(s.pay))}
        </Typography>
      )}
      {s.notes && (
        <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {say.shift_notes} {s.notes}
        </Typography>
      )}
    </ListItem>
  );
}

function Section({
  title,
  list,
  empty,
  timeZone,
}: {
  title: string;
  list: MyShift[];
  empty: string;
  timeZone?: string;
}) {
  return (
    <Box component="section" aria-label={title}>
      <Typography component="h2" variant="overline" sx={{ px: 2, pt: 1.5, display: 'block' }}>
        {title}
      </Typography>
      {list.length === 0 ? (
        <Typography sx={{ px: 2, pb: 1 }} color="text.secondary">
          {empty}
        </Typography>
      ) : (
        <List dense disablePadding>
          {list.map((s) => (
            <ShiftItem key={s.id} s={s} timeZone={timeZone} />
          ))}
        </List>
      )}
    </Box>
  );
}

/**
 * The staff member's own shifts (the engine's shifts list, which answers a staff member only theirs): upcoming
 * first, then the recent past, times on the agency's clock. `onFailure` handles an ended session.
 */
export function MyShiftsList({ timeZone, onFailure }: { timeZone?: string; onFailure: (e: unknown) => void }) {
  const [shifts, setShifts] = useState<{ upcoming: MyShift[]; past: MyShift[] } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    Promise.all([request<{ data: MyShift[] }>(UPCOMING_PATH), request<{ data: MyShift[] }>(PAST_PATH)])
      .then(([upcoming, past]) => current && setShifts({ upcoming: upcoming.data, past: past.data }))
      .catch((e) => {
        if (!current) return;
        setFailed(true);
        onFailure(e);
      });
    return () => {
      current = false;
    };
  }, [onFailure]);
  if (failed) return null;
  if (!shifts) return <CircularProgress aria-label={say.loading} sx={{ m: 2 }} />;
  if (shifts.upcoming.length === 0 && shifts.past.length === 0)
    return (
      <Alert severity="info" sx={{ m: 2 }}>
        {say.no_shifts}
      </Alert>
    );
  return (
    <Box sx={{ overflowY: 'auto' }}>
      <Section title={say.upcoming} list={shifts.upcoming} empty={say.no_upcoming} timeZone={timeZone} />
      <Section title={say.past} list={shifts.past} empty={say.no_past} timeZone={timeZone} />
    </Box>
  );
}
