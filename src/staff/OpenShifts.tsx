import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, List, ListItem, Stack, Typography } from '@mui/material';
import { ApiFailure, request } from '../providers/request';
import { fill, staffTexts as say } from './messages';
import { address, shiftTimes, SiteAddress } from './MyShifts';
import { formatPounds } from '../../core/engine/money';
import type { OpenShift, OpenShiftsAnswer, ShiftRequestMade } from '../../core/contracts/staff';

/**
 * The open shifts the staff member could be booked on (the server weighs every hard booking check for them), each
 * with Request, or their pending request and Withdraw. A refusal (taken meanwhile, no longer theirs) is said and the
 * list read again.
 */
export function OpenShiftsList({ timeZone, onFailure }: { timeZone?: string; onFailure: (e: unknown) => void }) {
  const [shifts, setShifts] = useState<OpenShift[] | null>(null);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const load = useCallback(
    () =>
      request<OpenShiftsAnswer>('/staff_open_shifts')
        .then((r) => setShifts(r.data))
        .catch(onFailure),
    [onFailure],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (s: OpenShift) => {
    setBusy(s.id);
    setNotice(null);
    try {
      if (s.request_id) {
        await request(`/shift_requests/${s.request_id}/actions/withdraw`, { method: 'POST', json: {} });
        setShifts((list) => list?.map((x) => (x.id === s.id ? { ...x, request_id: null } : x)) ?? null);
        setNotice({ severity: 'success', text: say.request_withdrawn });
      } else {
        const made = await request<ShiftRequestMade>(`/staff_open_shifts/${s.id}/request`, {
          method: 'POST',
          json: {},
        });
        setShifts((list) => list?.map((x) => (x.id === s.id ? { ...x, request_id: made.data.id } : x)) ?? null);
        setNotice({ severity: 'success', text: say.request_sent });
      }
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 409) {
        setNotice({ severity: 'error', text: e.message });
        await load();
      } else if (e instanceof ApiFailure && e.status !== 401) setNotice({ severity: 'error', text: e.message });
      else onFailure(e);
    } finally {
      setBusy(null);
    }
  };

  if (!shifts) return <CircularProgress aria-label={say.loading} sx={{ m: 2 }} />;
  return (
    <Box sx={{ overflowY: 'auto' }}>
      <Stack direction="row" sx={{ px: 2, pt: 1.5, alignItems: 'flex-start', gap: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {say.open_intro}
        </Typography>
        <Button size="small" onClick={() => void load()}>
          {say.refresh}
        </Button>
      </Stack>
      <Box aria-live="polite">
        {notice && (
          <Alert severity={notice.severity} sx={{ m: 2, mb: 0 }} onClose={() => setNotice(null)}>
            {notice.text}
          </Alert>
        )}
      </Box>
      {shifts.length === 0 ? (
        <Alert severity="info" sx={{ m: 2 }}>
          {say.no_open}
        </Alert>
      ) : (
        <List aria-label={say.open_title} disablePadding>
          {shifts.map((s) => {
            const when = shiftTimes(s, timeZone);
            return (
              <ListItem key={s.id} divider sx={{ display: 'block', py: 1.5 }}>
                <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 'bold' }}>
                  {when}
                </Typography>
                <Typography variant="body2">
                  {fill(say.role_at_site, { role: s.job_role_name, site: s.site_name, client: s.client_name })}
                </Typography>
                <SiteAddress where={address(s.site_address)} />
                {s.hours != null && (
                  <Typography variant="body2" color="text.secondary">
                    {s.pay != null
                      ? fill(say.shift_pay, { hours: Number(s.hours.toFixed(2)), pay: formatPounds(s.pay) })
                      : fill(say.week_hours, { hours: Number(s.hours.toFixed(2)) })}
                  </Typography>
                )}
                {s.notes && (
                  <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {say.shift_notes} {s.notes}
                  </Typography>
                )}
                <Stack direction="row" sx={{ mt: 1, gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  {s.request_id && <Chip size="small" color="info" label={say.requested} />}
                  <Button
                    variant={s.request_id ? 'text' : 'contained'}
                    size="small"
                    disabled={busy === s.id}
                    onClick={() => void act(s)}
                    aria-label={s.request_id ? undefined : fill(say.request_label, { when })}
                  >
                    {s.request_id ? say.withdraw : say.request}
                  </Button>
                </Stack>
              </ListItem>
            );
          })}
        </List>
      )}
    </Box>
  );
}
