import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Confirm, useCanAccess, useGetIdentity, useTranslate } from 'react-admin';
import { ApiFailure, request } from '../../providers/request';
import { PIN_PATTERN } from '../../../core/resources/timesheets/approvers';

interface Approver {
  id: number;
  name: string;
  job_title: string | null;
  site_id: number | null;
  pin_set_at: string | null;
}
interface Site {
  id: number;
  name: string;
}

const PIN = new RegExp(PIN_PATTERN);
/** The client's sites an approver may be limited to (the client user's scope gives their own client's). */
const clientSites = () => request<{ data: Site[] }>('/sites?per_page=100&sort=name&order=ASC');

/** A user of the client's panel (a colleague) whom the manager makes an approver (issue 35). */
interface Colleague {
  id: number;
  name: string;
}

/**
 * Adds an approver (name, job title, site) with their PIN, or sets a new PIN for one: two requests, one dialog. An
 * approver who is a colleague keeps the colleague's name.
 */
function ApproverDialog({
  approver,
  colleague,
  sites,
  clientId,
  onClose,
  onSaved,
}: {
  approver: Approver | null;
  colleague?: Colleague;
  sites: Site[];
  clientId: number;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const translate = useTranslate();
  const [name, setName] = useState(colleague?.name ?? '');
  const [jobTitle, setJobTitle] = useState('');
  const [siteId, setSiteId] = useState('');
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.timesheets.approvers.${key}`, options);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!approver && !name.trim()) problems.name = t('name_missing');
    if (!PIN.test(pin)) problems.pin = translate('app.timesheets.pin_rule');
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      let id = approver?.id;
      if (!id) {
        const made = await request<{ data: Approver }>('/timesheet_approvers', {
          method: 'POST',
          json: {
            client_id: clientId,
            user_id: colleague?.id ?? null,
            name: name.trim(),
            job_title: jobTitle.trim() || null,
            site_id: siteId ? Number(siteId) : null,
          },
        });
        id = made.data.id;
      }
      await request(`/timesheet_approvers/${id}/actions/set_pin`, { method: 'POST', json: { pin } });
      onSaved(approver ? t('pin_saved', { name: approver.name }) : t('added', { name: name.trim() }));
    } catch (err) {
      setErrors({
        ...(err instanceof ApiFailure ? (err.body?.errors ?? {}) : {}),
        _: err instanceof ApiFailure ? err.message : String(err),
      });
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="approver-dialog-title" fullWidth maxWidth="xs">
      <Box component="form" onSubmit={save} noValidate>
        <DialogTitle id="approver-dialog-title">
          {approver
            ? t('set_pin_for', { name: approver.name })
            : colleague
              ? t('make_for', { name: colleague.name })
              : t('add')}
        </DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          {errors._ && <Alert severity="error">{errors._}</Alert>}
          {colleague && !approver && <Typography>{t('colleague_intro', { name: colleague.name })}</Typography>}
          {errors.user_id && <Alert severity="error">{errors.user_id}</Alert>}
          {!approver && !colleague && (
            <TextField
              label={t('name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={!!errors.name}
              helperText={errors.name}
              required
              slotProps={{ htmlInput: { maxLength: 150 } }}
            />
          )}
          {!approver && (
            <>
              <TextField
                label={t('job_title')}
                value={jobTitle}
                onChange={(e) => setJobTitle(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 100 } }}
              />
              <TextField
                select
                label={t('site')}
                value={siteId}
                onChange={(e) => setSiteId(e.target.value)}
                error={!!errors.site_id}
                helperText={errors.site_id}
              >
                <MenuItem value="">{t('all_sites')}</MenuItem>
                {sites.map((s) => (
                  <MenuItem key={s.id} value={String(s.id)}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
            </>
          )}
          <TextField
            label={t('pin')}
            type="password"
            value={pin}
            onChange={(e) => setPin(e.target.value)}
            error={!!errors.pin}
            helperText={errors.pin ?? t('pin_help')}
            required
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8, autoComplete: 'new-password' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/**
 * "Make phone approver" for a colleague on the manager's "My account" (issue 35): the approver dialog with the
 * colleague's name, after the client's sites are read for its site choice.
 */
export function MakePhoneApprover({
  colleague,
  clientId,
  onSaved,
}: {
  colleague: Colleague;
  clientId: number;
  onSaved: (message: string) => void;
}) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.timesheets.approvers.${key}`, options);
  const [sites, setSites] = useState<Site[] | null>(null);
  const [error, setError] = useState('');
  const open = () =>
    clientSites()
      .then((s) => setSites(s.data))
      .catch((e) => setError(e instanceof ApiFailure ? e.message : String(e)));
  return (
    <>
      <Button size="small" onClick={open} aria-label={t('make_named', { name: colleague.name })}>
        {t('make')}
      </Button>
      {error && <Alert severity="error">{error}</Alert>}
      {sites && (
        <ApproverDialog
          approver={null}
          colleague={colleague}
          sites={sites}
          clientId={clientId}
          onClose={() => setSites(null)}
          onSaved={(message) => {
            setSites(null);
            onSaved(message);
          }}
        />
      )}
    </>
  );
}

/**
 * The client's phone approvers (issue 29.1), on its timesheets page: who may sign a staff member's hours on the staff
 * member's phone, each with a PIN of their own that the client's manager sets here (never shown again). A viewer
 * reads the list.
 */
export function PhoneApprovers() {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.timesheets.approvers.${key}`, options);
  const { identity } = useGetIdentity();
  const { canAccess: canManage } = useCanAccess({ resource: 'timesheet_approvers', action: 'create' });
  const [data, setData] = useState<{ approvers: Approver[]; sites: Site[] } | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState<Approver | 'new' | null>(null);
  const [removing, setRemoving] = useState<Approver | null>(null);
  const load = useCallback(
    () =>
      Promise.all([
        request<{ data: Approver[] }>('/timesheet_approvers?per_page=100&sort=name&order=ASC'),
        clientSites(),
      ])
        .then(([a, s]) => setData({ approvers: a.data, sites: s.data }))
        .catch((e) => setError(e instanceof ApiFailure ? e.message : String(e))),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const siteName = (id: number | null) =>
    id == null ? t('all_sites') : (data?.sites.find((s) => s.id === id)?.name ?? t('all_sites'));
  const remove = async () => {
    if (!removing) return;
    try {
      await request(`/timesheet_approvers/${removing.id}`, { method: 'DELETE' });
      setNotice(t('removed', { name: removing.name }));
      void load();
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : String(e));
    }
    setRemoving(null);
  };
  return (
    <Card component="section" aria-labelledby="phone-approvers-title" sx={{ mt: 3, p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="phone-approvers-title" component="h2" variant="h6" sx={{ flex: 1, minWidth: '12rem' }}>
          {t('title')}
        </Typography>
        {canManage && identity?.clientId && (
          <Button variant="contained" onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('intro')}
      </Typography>
      <Box aria-live="polite">{notice && <Alert severity="success">{notice}</Alert>}</Box>
      {error && <Alert severity="error">{error}</Alert>}
      {!data && !error && <CircularProgress aria-label={translate('ra.page.loading')} />}
      {data && data.approvers.length === 0 && <Typography color="text.secondary">{t('none')}</Typography>}
      {data && data.approvers.length > 0 && (
        <List aria-labelledby="phone-approvers-title" disablePadding>
          {data.approvers.map((a) => (
            <ListItem key={a.id} divider sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, px: 0 }}>
              <Box sx={{ flex: 1, minWidth: '12rem' }}>
                <Typography sx={{ fontWeight: 'bold' }}>
                  {a.job_title ? `${a.name}, ${a.job_title}` : a.name}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {`${siteName(a.site_id)} · ${a.pin_set_at ? t('pin_set', { date: a.pin_set_at.slice(0, 10) }) : t('no_pin')}`}
                </Typography>
              </Box>
              {canManage && (
                <Stack direction="row" sx={{ gap: 1 }}>
                  <Button size="small" onClick={() => setEditing(a)} aria-label={t('set_pin_for', { name: a.name })}>
                    {t('set_pin')}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setRemoving(a)}
                    aria-label={t('remove_one', { name: a.name })}
                  >
                    {t('remove')}
                  </Button>
                </Stack>
              )}
            </ListItem>
          ))}
        </List>
      )}
      {editing && data && identity?.clientId && (
        <ApproverDialog
          approver={editing === 'new' ? null : editing}
          sites={data.sites}
          clientId={Number(identity.clientId)}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            setNotice(message);
            void load();
          }}
        />
      )}
      <Confirm
        isOpen={!!removing}
        title={t('remove_title', { name: removing?.name ?? '' })}
        content={t('remove_content')}
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
