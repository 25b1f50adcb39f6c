import { Alert, Box, Link as MuiLink, Paper, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router';
import { InputFor } from '../../engine/react/inputs';
import {
  AgencyRowForm,
  AgencyRowLoad,
  ReadOnlyNotice,
  fieldErrorsOf,
  saveFailureOf,
  useAgencyRow,
  useSaveAgencyRow,
  useSettingsReadOnly,
} from '../../engine/react/agencyRow';
import { api } from '../../providers/http';
import { clientSettings } from '../../../core/resources/clients/settings';
import { CLIENT_EMAIL_EVENTS } from '../../../core/domain/clients/settings';
import type { ClientSettings, ClientUserEmails } from '../../../core/contracts/clientSettings';

// /appsetting/ClientSettings (issue 35): the agency's defaults for new clients, and which e-mails its client users get.
// The fields are the declaration's (core/resources/clients/settings.ts), as a client's own are the clients'.

const USERS_KEY = ['client_settings', 'users'];
const BASE = '/appsetting/ClientSettings';
const TABS = [
  { path: `${BASE}/basicClientSettings`, label: 'app.screens.setting_client_basic' },
  { path: `${BASE}/emailNotification`, label: 'app.screens.setting_client_email' },
];
const FAILED = 'The client settings could not be loaded.';

/** The heading, the two tabs and the read-only notice of both screens. */
function Frame({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const tab = TABS.find((t) => t.path.toLowerCase() === pathname.replace(/\/$/, '').toLowerCase()) ?? TABS[0];
  const readOnly = useSettingsReadOnly();
  const title = translate(tab.label);
  return (
    // contain: nothing of the screen widens the page on a phone.
    <Box sx={{ contain: 'inline-size', maxWidth: 1100 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Tabs
        value={tab.path}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={translate('app.settings_nav.client_settings')}
        sx={{ mb: 2 }}
      >
        {TABS.map((t) => (
          <Tab key={t.path} value={t.path} label={translate(t.label)} component={Link} to={t.path} />
        ))}
      </Tabs>
      {readOnly && <ReadOnlyNotice />}
      {children}
    </Box>
  );
}

const field = (source: string) => clientSettings.fields.find((f) => f.source === source)!;
const BASIC = ['invoice_mode', 'split_by_po', 'split_by_site', 'po_required'];
const TIMESHEETS = ['timesheet_per', 'signing_methods', 'shift_request_approval'];

/** /appsetting/ClientSettings/basicClientSettings: what a new client starts with; its profile then keeps its own. */
export function BasicClientSettingsScreen() {
  const query = useAgencyRow<ClientSettings>('client_settings');
  const readOnly = useSettingsReadOnly();
  const submit = useSaveAgencyRow<ClientSettings>('client_settings', 'Client settings saved', {
    prepare: (values) => Object.fromEntries([...BASIC, ...TIMESHEETS, 'version'].map((k) => [k, values[k]])),
  });
  return (
    <Frame>
      <Typography variant="body2" sx={{ mb: 2 }}>
        A new client starts with these; each client’s profile then keeps its own, and changing them here changes no
        existing client.
      </Typography>
      <AgencyRowLoad query={query} failed={FAILED}>
        {(record) => (
          <AgencyRowForm record={{ ...record, id: 'client_settings' }} onSubmit={submit} readOnly={readOnly}>
            <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexDirection: 'column' }}>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Invoicing
              </Typography>
              {BASIC.map((f) => (
                <InputFor key={f} of={field(f)} />
              ))}
              <Typography variant="body2">
                Payment terms: {record.default_payment_terms_days} days, the agency’s default terms, set in{' '}
                <MuiLink component={Link} to="/appsetting/invoicesetting">
                  Invoice settings
                </MuiLink>
                .
              </Typography>
            </Paper>
            <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexDirection: 'column' }}>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Timesheets and shifts
              </Typography>
              {TIMESHEETS.map((f) => (
                <InputFor key={f} of={field(f)} />
              ))}
              <Typography variant="body2">
                Late cancellation: the agency’s default pricing rules, or a client’s own, in{' '}
                <MuiLink component={Link} to="/rates_and_rules/rules">
                  Rates &amp; Rules
                </MuiLink>
                .
              </Typography>
            </Paper>
          </AgencyRowForm>
        )}
      </AgencyRowLoad>
    </Frame>
  );
}

const CHOICE_WORDS: Record<string, string> = { now: 'E-mail at once', digest: 'In a daily digest', off: 'No e-mail' };

/** /appsetting/ClientSettings/emailNotification: the agency's default, and each client user set otherwise. */
export function ClientEmailSettingsScreen() {
  const query = useAgencyRow<ClientSettings>('client_settings');
  const readOnly = useSettingsReadOnly();
  const submit = useSaveAgencyRow<ClientSettings>('client_settings', 'Client settings saved', {
    prepare: (values) => ({ client_emails: values.client_emails, version: values.version }),
  });
  return (
    <Frame>
      <AgencyRowLoad query={query} failed={FAILED}>
        {(record) => (
          <Stack spacing={2}>
            <AgencyRowForm
              record={{ ...record, id: 'client_settings' }}
              onSubmit={submit}
              readOnly={readOnly}
              within={(inside) => (
                <Paper variant="outlined" sx={{ p: 2 }}>
                  <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                    Agency default
                  </Typography>
                  {inside}
                </Paper>
              )}
            >
              <InputFor of={field('client_emails')} />
            </AgencyRowForm>
            <ClientUsers defaults={record.client_emails} readOnly={readOnly} />
          </Stack>
        )}
      </AgencyRowLoad>
    </Frame>
  );
}

function ClientUsers({ defaults, readOnly }: { defaults: string[]; readOnly: boolean }) {
  const notify = useNotify();
  const client = useQueryClient();
  const [saving, setSaving] = useState<string | null>(null);
  const users = useQuery({
    queryKey: USERS_KEY,
    queryFn: ({ signal }) => api<{ data: ClientUserEmails[] }>('/client_settings/users', { signal }),
    retry: false,
  });
  const change = async (user: ClientUserEmails, event: string, value: string) => {
    setSaving(`${user.id}:${event}`);
    try {
      const saved = await api<{ data: ClientUserEmails; message: string }>(`/client_settings/users/${user.id}`, {
        method: 'PUT',
        json: { emails: { [event]: value === 'default' ? null : value } },
      });
      client.setQueryData<{ data: ClientUserEmails[] }>(USERS_KEY, (old) =>
        old ? { data: old.data.map((u) => (u.id === user.id ? saved.data : u)) } : old,
      );
      notify(saved.message, { type: 'success' });
    } catch (err) {
      notify(Object.values(fieldErrorsOf(err))[0] ?? saveFailureOf(err), { type: 'error' });
    } finally {
      setSaving(null);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Client users
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        A client user set otherwise here (or who chose otherwise on their own account) keeps that choice whatever the
        agency default.
      </Typography>
      {users.isError ? (
        <Alert severity="error">The client users could not be loaded.</Alert>
      ) : !users.data ? (
        <Typography role="status" color="text.secondary">
          Loading…
        </Typography>
      ) : users.data.data.length === 0 ? (
        <Typography>No client users yet: a client’s users are invited from its profile.</Typography>
      ) : (
        // A block per user, its five choices wrapping to the width there is: no table to scroll sideways, on a phone
        // or beside the settings' navigation.
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {users.data.data.map((u) => (
            <Box component="li" key={u.id} sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}>
              <Typography variant="subtitle2" component="h3">
                {u.name}{' '}
                <Typography component="span" variant="caption" color="text.secondary">
                  {u.client_name} · {u.email}
                </Typography>
              </Typography>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 1 }}>
                {CLIENT_EMAIL_EVENTS.map((e) => {
                  const own = u.emails[e.id];
                  const byDefault = defaults.includes(e.id) ? CHOICE_WORDS.now : CHOICE_WORDS.off;
                  return (
                    <TextField
                      key={e.id}
                      select
                      size="small"
                      label={e.name}
                      value={own ?? 'default'}
                      disabled={readOnly || saving === `${u.id}:${e.id}`}
                      onChange={(ev) => void change(u, e.id, ev.target.value)}
                      slotProps={{
                        select: { native: true },
                        inputLabel: { shrink: true },
                        htmlInput: { 'aria-label': `${e.name}: ${u.name} (${u.client_name})` },
                      }}
                      sx={{ width: 200, maxWidth: '100%' }}
                    >
                      <option value="default">Agency default ({byDefault})</option>
                      <option value="now">{CHOICE_WORDS.now}</option>
                      <option value="digest">{CHOICE_WORDS.digest}</option>
                      <option value="off">{CHOICE_WORDS.off}</option>
                    </TextField>
                  );
                })}
              </Box>
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
