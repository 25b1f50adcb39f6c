import { Alert, Box, FormControlLabel, MenuItem, Switch, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { MyPreference } from '../../core/contracts/notifications';
import { api } from '../providers/http';

const KEY = ['my-notification-preferences'];
const DELIVERY: MyPreference['email'][] = ['now', 'digest', 'off'];

/**
 * "Notifications I receive" (issue 30.19): for each event the user's panel hears of, whether it shows in their bell
 * and how its e-mail reaches them (at once, in a daily digest, or not). Each change is saved at once
 * (PUT /api/me/notification_preferences/{event}); the agency's settings still decide what is sent at all.
 */
export function MyNotifications() {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const list = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api<{ data: MyPreference[] }>('/me/notification_preferences', { signal }),
  });
  const save = async (p: MyPreference, change: Partial<Pick<MyPreference, 'in_app' | 'email'>>) => {
    setFailure(null);
    setSaved(null);
    try {
      const res = await api<{ data: MyPreference }>(`/me/notification_preferences/${encodeURIComponent(p.event)}`, {
        method: 'PUT',
        json: { ...change, version: p.version },
      });
      queryClient.setQueryData<{ data: MyPreference[] }>(KEY, (old) =>
        old ? { data: old.data.map((x) => (x.event === p.event ? res.data : x)) } : old,
      );
      setSaved(translate('app.my_notifications.saved', { event: p.label }));
    } catch (e) {
      setFailure((e as Error).message);
      await queryClient.invalidateQueries({ queryKey: KEY });
    }
  };
  if (list.isError) return <Alert severity="error">{translate('app.my_notifications.load_failed')}</Alert>;
  const rows = list.data?.data ?? [];
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.my_notifications.intro')}
      </Typography>
      {!list.isPending && rows.length === 0 && <Typography>{translate('app.my_notifications.empty')}</Typography>}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={translate('app.my_notifications.title')}>
        {rows.map((p) => (
          <Box
            component="li"
            key={p.event}
            data-event={p.event}
            sx={{
              py: 1.5,
              borderBottom: 1,
              borderColor: 'divider',
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: 2,
            }}
          >
            <Box sx={{ flex: '1 1 14rem', minWidth: 0 }}>
              <Typography id={`pref-${p.event}`} sx={{ fontWeight: 600 }}>
                {p.label}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {p.description}
              </Typography>
            </Box>
            <FormControlLabel
              control={
                <Switch
                  checked={p.in_app}
                  onChange={(e) => void save(p, { in_app: e.target.checked })}
                  slotProps={{
                    input: { 'aria-label': translate('app.my_notifications.in_app_of', { event: p.label }) },
                  }}
                />
              }
              label={translate('app.my_notifications.in_app')}
            />
            <TextField
              select
              size="small"
              sx={{ width: 190 }}
              label={translate('app.my_notifications.email')}
              value={p.email}
              onChange={(e) => void save(p, { email: e.target.value as MyPreference['email'] })}
              id={`pref-${p.event}-email`}
              // Named by the event and the field ("Shift filled E-mail"): every row has an E-mail field.
              slotProps={{
                select: {
                  SelectDisplayProps: { 'aria-labelledby': `pref-${p.event} pref-${p.event}-email-label` },
                },
              }}
            >
              {DELIVERY.map((d) => (
                <MenuItem key={d} value={d}>
                  {translate(`app.my_notifications.${d}`)}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        ))}
      </Box>
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure}
        </Alert>
      )}
      {saved && (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {saved}
        </Alert>
      )}
    </Box>
  );
}
