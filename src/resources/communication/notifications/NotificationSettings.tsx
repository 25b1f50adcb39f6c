import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Link as MuiLink,
  Paper,
  Stack,
  Switch,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router';
import { type Channel, type EventDefinition, type Recipient } from '../../../../core/domain/notifications/events';
import { api } from '../../../providers/http';
import { ReadOnlyNotice, fieldErrorsOf, saveFailureOf, useSettingsReadOnly } from '../../../engine/react/agencyRow';

interface EventSetting extends EventDefinition {
  custom_template: boolean;
  /** The recipients offered for it (the server's recipientChoicesOf). */
  recipient_choices: Recipient[];
  /** Sent back with a save: refused if someone saved in between. */
  version: number;
  template_version: number;
}
interface SettingsAnswer {
  events: EventSetting[];
  drivers: Record<'sms' | 'push', { records_only: boolean }>;
  payment_reminders: { enabled: boolean; days_before_due: number; days_after_due: number; version: number };
}

const BASE = '/appsetting/notificationsetting';
/** The tabs at the spec's routes; e-mail is the default. */
export const NOTIFICATION_SETTING_TABS: { path: string; label: string; channel?: Channel }[] = [
  { path: BASE, label: 'app.notification_settings.tabs.email', channel: 'email' },
  { path: `${BASE}/sms`, label: 'app.notification_settings.tabs.sms', channel: 'sms' },
  { path: `${BASE}/pushnotification`, label: 'app.notification_settings.tabs.push', channel: 'push' },
  { path: `${BASE}/notificationalert`, label: 'app.notification_settings.tabs.alert', channel: 'alert' },
  { path: `${BASE}/ActivatePayment`, label: 'app.notification_settings.tabs.payment' },
];
const settingsKey = ['notification_settings'];

// Only an agency admin changes these settings (the API refuses anyone else); everyone else sees them read-only,
// told so, rather than as controls that answer "You do not have permission" when used (issue 14, item 20).

/** /appsetting/notificationsetting and its tabs: per event, the channels used and who receives them. */
export function NotificationSettings() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const tab =
    NOTIFICATION_SETTING_TABS.find((t) => t.path.toLowerCase() === pathname.replace(/\/$/, '').toLowerCase()) ??
    NOTIFICATION_SETTING_TABS[0];
  const query = useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => api<SettingsAnswer>('/notification_settings', { signal }),
    retry: false,
  });
  const readOnly = useSettingsReadOnly();
  return (
    // contain: the wide table scrolls inside its own box on a phone instead of widening the page.
    <Box sx={{ contain: 'inline-size' }}>
      <Title title={translate('app.notification_settings.title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {translate('app.notification_settings.title')}
      </Typography>
      <Tabs
        value={tab.path}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={translate('app.notification_settings.title')}
        sx={{ mb: 2 }}
      >
        {NOTIFICATION_SETTING_TABS.map((t) => (
          <Tab key={t.path} value={t.path} label={translate(t.label)} component={Link} to={t.path} />
        ))}
      </Tabs>
      {readOnly && <ReadOnlyNotice />}
      {query.isError ? (
        <Alert severity="error">{translate('app.notification_settings.load_failed')}</Alert>
      ) : query.isPending ? (
        <Typography role="status" color="text.secondary">
          {translate('app.loading')}
        </Typography>
      ) : tab.channel ? (
        <ChannelTab channel={tab.channel} data={query.data} />
      ) : (
        <PaymentTab data={query.data} />
      )}
    </Box>
  );
}

function ChannelTab({ channel, data }: { channel: Channel; data: SettingsAnswer }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const [editing, setEditing] = useState<EventSetting | null>(null);
  const readOnly = useSettingsReadOnly();
  const save = async (e: EventSetting, changes: Partial<Pick<EventSetting, 'channels' | 'recipients'>>) => {
    try {
      await api(`/notification_settings/${encodeURIComponent(e.key)}`, {
        method: 'PUT',
        json: {
          channels: changes.channels ?? e.channels,
          recipients: changes.recipients ?? e.recipients,
          version: e.version,
        },
      });
      await client.invalidateQueries({ queryKey: settingsKey });
      notify('app.notification_settings.saved', { type: 'success' });
    } catch (err) {
      notify(Object.values(fieldErrorsOf(err))[0] ?? saveFailureOf(err), { type: 'error' });
    }
  };
  const recordsOnly = (channel === 'sms' || channel === 'push') && data.drivers[channel].records_only;
  return (
    <Stack spacing={2}>
      {recordsOnly && <Alert severity="info">No outside network: SMS and push messages are recorded, not sent.</Alert>}
      {channel === 'email' && (
        <Typography variant="body2">
          {translate('app.notification_settings.email_intro')}{' '}
          <MuiLink component={Link} to="/report/EmailReport">
            {translate('app.notification_settings.email_report')}
          </MuiLink>
          {' · '}
          <MuiLink component={Link} to="/report/EmailReport/mailbox">
            {translate('app.notification_settings.mailbox')}
          </MuiLink>
        </Typography>
      )}
      <TableContainer
        component={Paper}
        variant="outlined"
        // On a phone each event's cells stack in one block (the switch, the recipients and "Edit template" stay on
        // screen).
        sx={(theme) => ({
          [theme.breakpoints.down('sm')]: {
            '& table, & tbody, & tr, & td': { display: 'block' },
            '& thead': { display: 'none' },
            '& tr': { borderBottom: 1, borderColor: 'divider' },
            '& td': { borderBottom: 0 },
          },
        })}
      >
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.notification_settings.event')}</TableCell>
              <TableCell>{translate(`app.notification_settings.use.${channel}`)}</TableCell>
              <TableCell>{translate('app.notification_settings.recipients')}</TableCell>
              {channel === 'email' && <TableCell>{translate('app.notification_settings.template')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.events.map((e) => {
              const on = e.channels.includes(channel);
              return (
                <TableRow key={e.key}>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {e.label}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {e.description}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <Switch
                      checked={on}
                      disabled={readOnly}
                      slotProps={{
                        input: { 'aria-label': `${translate(`app.notification_settings.use.${channel}`)}: ${e.label}` },
                      }}
                      onChange={(_, checked) =>
                        save(e, {
                          channels: checked ? [...e.channels, channel] : e.channels.filter((c) => c !== channel),
                        })
                      }
                    />
                  </TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1 }}>
                      {e.recipient_choices.map((r) => (
                        <FormControlLabel
                          key={r}
                          label={translate(`app.notification_settings.recipient.${r}`)}
                          control={
                            <Checkbox
                              size="small"
                              checked={e.recipients.includes(r)}
                              disabled={readOnly}
                              slotProps={{
                                input: {
                                  'aria-label': `${translate(`app.notification_settings.recipient.${r}`)}: ${e.label}`,
                                },
                              }}
                              onChange={(_, checked) =>
                                save(e, {
                                  recipients: checked ? [...e.recipients, r] : e.recipients.filter((x) => x !== r),
                                })
                              }
                            />
                          }
                        />
                      ))}
                    </Box>
                  </TableCell>
                  {channel === 'email' && (
                    <TableCell>
                      <Button
                        size="small"
                        onClick={() => setEditing(e)}
                        aria-label={`${readOnly ? 'View template' : translate('app.notification_settings.edit_template')}: ${e.label}`}
                      >
                        {readOnly ? 'View template' : translate('app.notification_settings.edit_template')}
                      </Button>
                      {e.custom_template && (
                        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                          {translate('app.notification_settings.customised')}
                        </Typography>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {(channel === 'sms' || channel === 'push') && <RecordedMessages channel={channel} />}
      {editing && <TemplateDialog event={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function TemplateDialog({ event, onClose }: { event: EventSetting; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const titleId = useId();
  const [subject, setSubject] = useState(event.subject);
  const [body, setBody] = useState(event.body);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const readOnly = useSettingsReadOnly();
  const run = async (request: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await request();
      await client.invalidateQueries({ queryKey: settingsKey });
      notify('app.notification_settings.template_saved', { type: 'success' });
      onClose();
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      // A refusal not about a field on screen (saved meanwhile by someone else) is said in words.
      if (!fieldErrorsOf(err).subject && !fieldErrorsOf(err).body) notify(saveFailureOf(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const path = `/notification_templates/${encodeURIComponent(event.key)}`;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>
        {translate('app.notification_settings.template_title', { event: event.label })}
      </DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('app.notification_settings.placeholders')} {event.placeholders.map((p) => `%{${p}}`).join(', ')}
        </Typography>
        <TextField
          label={translate('app.notification_settings.subject')}
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          fullWidth
          required
          error={!!errors.subject}
          helperText={errors.subject}
          sx={{ mb: 2 }}
          slotProps={{ htmlInput: { readOnly } }}
        />
        <TextField
          label={translate('app.notification_settings.body')}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          fullWidth
          required
          multiline
          minRows={6}
          error={!!errors.body}
          helperText={errors.body}
          slotProps={{ htmlInput: { readOnly } }}
        />
      </DialogContent>
      <DialogActions>
        {event.custom_template && !readOnly && (
          <Button disabled={busy} onClick={() => run(() => api(path, { method: 'DELETE' }))}>
            {translate('app.notification_settings.restore_default')}
          </Button>
        )}
        <Button onClick={onClose}>{translate(readOnly ? 'ra.action.close' : 'ra.action.cancel')}</Button>
        {!readOnly && (
          <Button
            variant="contained"
            disabled={busy}
            onClick={() =>
              run(() => api(path, { method: 'PUT', json: { subject, body, version: event.template_version } }))
            }
          >
            {translate('ra.action.save')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

function RecordedMessages({ channel }: { channel: 'sms' | 'push' }) {
  const translate = useTranslate();
  const query = useQuery({
    queryKey: ['message_outbox', channel],
    queryFn: ({ signal }) =>
      api<{ data: any[]; total: number }>(`/message_outbox?channel=${channel}&per_page=10`, { signal }),
  });
  return (
    <Box>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate('app.notification_settings.recorded')}
      </Typography>
      {query.data?.data.length === 0 ? (
        <Typography color="text.secondary">{translate('app.notification_settings.none_recorded')}</Typography>
      ) : (
        <TableContainer
          component={Paper}
          variant="outlined"
          // On a phone each event's cells stack in one block (the switch, the recipients and "Edit template" stay on
          // screen).
          sx={(theme) => ({
            [theme.breakpoints.down('sm')]: {
              '& table, & tbody, & tr, & td': { display: 'block' },
              '& thead': { display: 'none' },
              '& tr': { borderBottom: 1, borderColor: 'divider' },
              '& td': { borderBottom: 0 },
            },
          })}
        >
          <Table size="small" aria-label={translate('app.notification_settings.recorded')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.notification_settings.when')}</TableCell>
                <TableCell>{translate('app.notification_settings.to')}</TableCell>
                <TableCell>{translate('app.notification_settings.message')}</TableCell>
                <TableCell>{translate('app.notification_settings.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(query.data?.data ?? []).map((m) => (
                <TableRow key={m.id}>
                  <TableCell>
                    {new Date(m.created_at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
                  </TableCell>
                  <TableCell>{m.recipient_name ? `${m.recipient_name} (${m.recipient})` : m.recipient}</TableCell>
                  <TableCell>{m.body}</TableCell>
                  <TableCell>{m.status}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}

function PaymentTab({ data }: { data: SettingsAnswer }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const [value, setValue] = useState(data.payment_reminders);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const readOnly = useSettingsReadOnly();
  const submit = async () => {
    try {
      const saved = await api<{ data: { version: number } }>('/notification_payment_settings', {
        method: 'PUT',
        json: value,
      });
      // The next save is checked against this one.
      setValue((v) => ({ ...v, version: saved.data.version }));
      setErrors({});
      await client.invalidateQueries({ queryKey: settingsKey });
      notify('app.notification_settings.saved', { type: 'success' });
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      if (fieldErrorsOf(err).version || !Object.keys(fieldErrorsOf(err)).length)
        notify(saveFailureOf(err), { type: 'error' });
    }
  };
  const days = (field: 'days_before_due' | 'days_after_due') => (
    <TextField
      type="number"
      label={translate(`app.notification_settings.${field}`)}
      value={value[field]}
      onChange={(e) => setValue({ ...value, [field]: e.target.value === '' ? '' : Number(e.target.value) } as any)}
      error={!!errors[field]}
      helperText={errors[field]}
      disabled={readOnly}
      slotProps={{ htmlInput: { min: 0, step: 1 } }}
    />
  );
  return (
    <Paper variant="outlined" sx={{ p: 2, maxWidth: 640 }}>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate('app.notification_settings.payment_intro')}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={value.enabled}
            disabled={readOnly}
            onChange={(_, enabled) => setValue({ ...value, enabled })}
          />
        }
        label={translate('app.notification_settings.payment_enabled')}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 2 }}>
        {days('days_before_due')}
        {days('days_after_due')}
      </Stack>
      {!readOnly && (
        <Button variant="contained" onClick={submit}>
          {translate('ra.action.save')}
        </Button>
      )}
    </Paper>
  );
}
