import { Alert, Box, Button, LinearProgress, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { ReadOnlyNotice, saveFailureOf, useSettingsReadOnly } from '../../engine/react/agencyRow';
import { api } from '../../providers/http';
import { formatPounds } from '../../../core/engine/money';
import type { Subscription } from '../../../core/contracts/subscription';

const KEY = ['subscription'];
const MB = 1024 * 1024;

/** Each meter: what it counts, the usage as a number in the limit's unit, and how it reads. */
const METERS: {
  limit: keyof Subscription['plan']['limits'];
  label: string;
  used: (u: Subscription['usage']) => number;
  shown: (n: number) => string;
}[] = [
  { limit: 'active_staff', label: 'Active staff', used: (u) => u.active_staff, shown: String },
  { limit: 'users', label: 'Agency users', used: (u) => u.users, shown: String },
  { limit: 'clients', label: 'Active clients', used: (u) => u.clients, shown: String },
  {
    limit: 'storage_mb',
    label: 'Storage',
    used: (u) => u.storage_bytes / MB,
    shown: (mb) => `${mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString('en-GB')} MB`,
  },
];

/** "N of M" with a bar; at or over the limit the bar and the words say so. No limit: "N (no limit)". */
function Meter({
  label,
  used,
  limit,
  shown,
}: {
  label: string;
  used: number;
  limit: number | null;
  shown: (n: number) => string;
}) {
  const reached = limit !== null && used >= limit;
  const text = limit === null ? `${shown(used)} (no limit)` : `${shown(used)} of ${shown(limit)}`;
  return (
    <Box role="group" aria-label={label} sx={{ mb: 2 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
        <Typography variant="subtitle2">{label}</Typography>
        <Typography variant="body2" color={reached ? 'error' : 'text.secondary'} data-testid={`meter-${label}`}>
          {text}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        aria-label={`${label}: ${text}`}
        color={reached ? 'error' : 'primary'}
        value={limit === null ? 0 : limit === 0 ? 100 : Math.min(100, (used / limit) * 100)}
      />
    </Box>
  );
}

/**
 * /appsetting/SubscriptionSetting (issue 35): the agency's plan, its usage against the plan's limits as meters, a
 * warning for each limit reached (the next activation over it is refused), and the change of plan through the
 * installation's payment driver, whose words the page shows. Admins change the plan; consultants read it.
 */
export function SubscriptionSettingsScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const readOnly = useSettingsReadOnly();
  const query = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api<{ data: Subscription }>('/subscription', { signal }),
    retry: false,
  });
  const [chosen, setChosen] = useState<string>('');
  const [saving, setSaving] = useState(false);
  const title = translate('app.screens.setting_subscription');
  const sub = query.data?.data;

  const change = async () => {
    setSaving(true);
    try {
      const saved = await api<{ data: Subscription }>('/subscription/plan', { method: 'POST', json: { plan: chosen } });
      client.setQueryData(KEY, saved);
      setChosen('');
      notify(`Plan changed to ${saved.data.plan.name}`, { type: 'success' });
    } catch (err) {
      notify(saveFailureOf(err), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 720, minWidth: 0 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {readOnly && <ReadOnlyNotice />}
      {query.isError && <Alert severity="error">The subscription could not be loaded.</Alert>}
      {!sub && !query.isError && (
        <Typography role="status" color="text.secondary">
          {translate('app.loading')}
        </Typography>
      )}
      {sub && (
        <>
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
              {sub.plan.name} plan · {formatPounds(sub.plan.price_pence)} a month
            </Typography>
            {sub.at_limit.length > 0 && (
              <Alert severity="warning" sx={{ mb: 2 }}>
                The agency has reached its plan’s limit for{' '}
                {sub.at_limit.map((k) => METERS.find((m) => m.limit === k)!.label.toLowerCase()).join(', ')}: the next
                activation over it will be refused. Upgrade the plan or deactivate someone first.
              </Alert>
            )}
            {METERS.map((m) => (
              <Meter
                key={m.limit}
                label={m.label}
                used={m.used(sub.usage)}
                limit={sub.plan.limits[m.limit]}
                shown={m.shown}
              />
            ))}
          </Paper>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              Change plan
            </Typography>
            <Alert severity="info" sx={{ mb: 2 }}>
              {sub.payment.notice}
            </Alert>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                select
                id="subscription-plan"
                label="New plan"
                size="small"
                value={chosen}
                onChange={(e) => setChosen(e.target.value)}
                disabled={readOnly || saving}
                sx={{ minWidth: 260 }}
              >
                {sub.plans
                  .filter((p) => p.id !== sub.plan.id)
                  .map((p) => (
                    <MenuItem key={p.id} value={p.id}>
                      {p.name} · {formatPounds(p.price_pence)} a month
                    </MenuItem>
                  ))}
              </TextField>
              {!readOnly && (
                <Button variant="contained" onClick={change} disabled={!chosen || saving}>
                  Change plan
                </Button>
              )}
            </Stack>
          </Paper>
        </>
      )}
    </Box>
  );
}
