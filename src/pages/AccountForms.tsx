import BusinessIcon from '@mui/icons-material/Business';
import { Alert, Avatar, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useGetIdentity, useTranslate } from 'react-admin';
import { PASSWORD_MIN } from '../../core/domain/accounts/passwords';
import { FileImage, StoredImage, uploadFile } from '../engine/react/files';
import { useAgency } from '../layout/useShellData';
import { forgetIdentity } from '../providers/authProvider';
import { api } from '../providers/http';
import { getMerchantId } from '../providers/session';

/**
 * The limits the server applies (server/routes/account.ts, server/auth/passwords.ts), checked here first so the form
 * answers at once.
 */
const AGENCY_NAME_MIN = 2;
const AGENCY_NAME_MAX = 120;
const USER_NAME_MAX = 120;

type Problems = Record<string, string>;

/** The field errors and message of a refused call (react-admin's HttpError carries the API's body). */
function problemsOf(e: unknown): { message: string; errors: Problems } {
  const err = e as { message?: string; body?: { message?: string; errors?: Problems } };
  return {
    message: err?.body?.message || err?.message || 'Something went wrong. Please try again.',
    errors: err?.body?.errors ?? {},
  };
}

/** A titled, labelled section of the page. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** The outcome of a form's last save, announced to screen readers where it happened. */
function Outcome({ success, failure }: { success?: string | null; failure?: string | null }) {
  if (failure)
    return (
      <Alert severity="error" sx={{ mt: 2 }}>
        {failure}
      </Alert>
    );
  if (success)
    return (
      <Alert severity="success" role="status" sx={{ mt: 2 }}>
        {success}
      </Alert>
    );
  return null;
}

/** The agency's logo as the shell shows it, or the placeholder. */
function LogoPreview({ value, alt }: { value: string | null | undefined; alt: string }) {
  const translate = useTranslate();
  if (value)
    return (
      <StoredImage value={value} alt={alt} sx={{ height: 48, maxWidth: 200, objectFit: 'contain', display: 'block' }} />
    );
  return (
    <Avatar
      variant="rounded"
      sx={{ width: 48, height: 48, bgcolor: 'primary.main' }}
      role="img"
      aria-label={translate('app.topbar.default_logo')}
    >
      <BusinessIcon />
    </Avatar>
  );
}

/**
 * The agency's name and logo. An admin changes them (PUT /api/merchants/{id}; the logo is uploaded to the file
 * store first and sent as its id); everyone else sees them read-only. After a save the shell's agency query is
 * refetched, so the top bar shows the new name and logo at once.
 */
export function AgencyDetails({ editable }: { editable: boolean }) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const agency = useAgency();
  const current = agency.data;
  const [name, setName] = useState('');
  // undefined: the logo is not being changed; null: removed; a string: the id of a new upload.
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const [errors, setErrors] = useState<Problems>({});
  const [busy, setBusy] = useState<'upload' | 'save' | null>(null);
  const [outcome, setOutcome] = useState<{ success?: string; failure?: string }>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const nameId = useId();

  // The form starts from the agency as loaded (and again after a save refetched it).
  const currentName = current?.companyName;
  useEffect(() => {
    if (currentName !== undefined) setName(currentName);
  }, [currentName]);

  if (!editable) {
    return (
      <Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <LogoPreview value={current?.logoUrl} alt={translate('app.personal.logo')} />
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {current?.companyName}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {translate('app.personal.agency_read_only')}
        </Typography>
      </Box>
    );
  }

  const shown = logo === undefined ? current?.logoUrl : logo;
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setOutcome({});
    setErrors(({ profile_photo: _, ...rest }) => rest);
    setBusy('upload');
    try {
      const uploaded = await uploadFile(file, 'image');
      setLogo(uploaded.id);
    } catch (e) {
      setErrors((prev) => ({ ...prev, profile_photo: problemsOf(e).message }));
    } finally {
      setBusy(null);
      // Choosing the same file again must fire a change.
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome({});
    const trimmed = name.trim();
    if (trimmed.length < AGENCY_NAME_MIN)
      return setErrors({ company_name: translate('app.personal.name_too_short', { min: AGENCY_NAME_MIN }) });
    if (trimmed.length > AGENCY_NAME_MAX) return setErrors({ company_name: `At most ${AGENCY_NAME_MAX} characters.` });
    setErrors({});
    setBusy('save');
    try {
      await api(`/merchants/${encodeURIComponent(getMerchantId() ?? '')}`, {
        method: 'PUT',
        // The version the form was filled from: another admin's save meanwhile is refused, not overwritten.
        json: {
          company_name: trimmed,
          ...(logo !== undefined ? { profile_photo: logo } : {}),
          ...(current?.version !== undefined ? { version: current.version } : {}),
        },
      });
      await queryClient.invalidateQueries({ queryKey: ['shell', 'agency'] });
      setLogo(undefined);
      setOutcome({ success: translate('app.personal.agency_saved') });
    } catch (e) {
      const p = problemsOf(e);
      setErrors(p.errors);
      setOutcome({ failure: Object.keys(p.errors).length ? undefined : p.message });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={save} aria-label={translate('app.personal.agency')}>
      <Stack spacing={2}>
        <TextField
          id={nameId}
          label={translate('app.personal.company_name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={!!errors.company_name}
          helperText={errors.company_name}
          required
          fullWidth
          slotProps={{ htmlInput: { maxLength: AGENCY_NAME_MAX + 20 } }}
        />
        <Box role="group" aria-labelledby={`${nameId}-logo`}>
          <Typography id={`${nameId}-logo`} variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.personal.logo')}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            {shown ? (
              logo ? (
                <FileImage
                  id={logo}
                  alt={translate('app.personal.new_logo_alt')}
                  sx={{ height: 48, maxWidth: 200, objectFit: 'contain', display: 'block' }}
                />
              ) : (
                <LogoPreview value={shown} alt={translate('app.personal.logo')} />
              )
            ) : (
              <Typography variant="body2" color="text.secondary">
                {translate('app.personal.no_logo')}
              </Typography>
            )}
            {/* The picker itself stays hidden (out of the accessibility tree); the button opens it. */}
            <input
              ref={fileInput}
              type="file"
              hidden
              accept="image/png,image/jpeg,image/webp"
              aria-label={translate('app.personal.logo_file')}
              data-testid="agency-logo-input"
              onChange={(e) => choose(e.target.files?.[0])}
            />
            <Button
              variant="outlined"
              onClick={() => fileInput.current?.click()}
              disabled={busy !== null}
              aria-describedby={`${nameId}-logo-help`}
            >
              {busy === 'upload' ? translate('app.personal.uploading') : translate('app.personal.choose_logo')}
            </Button>
            {shown && (
              <Button
                color="error"
                onClick={() => {
                  setLogo(null);
                  setOutcome({});
                }}
                disabled={busy !== null}
              >
                {translate('app.personal.remove_logo')}
              </Button>
            )}
          </Box>
          <Typography
            id={`${nameId}-logo-help`}
            variant="caption"
            color={errors.profile_photo ? 'error' : 'text.secondary'}
            sx={{ display: 'block', mt: 1 }}
            role={errors.profile_photo ? 'alert' : undefined}
          >
            {errors.profile_photo ?? translate('app.personal.logo_help')}
          </Typography>
        </Box>
        <Box>
          <Button type="submit" variant="contained" disabled={busy !== null}>
            {busy === 'save' ? translate('app.personal.saving') : translate('app.personal.save_agency')}
          </Button>
        </Box>
      </Stack>
      <Outcome {...outcome} />
    </Box>
  );
}

/** The signed-in user's own name (PUT /api/me); the top bar's user menu shows the new one at once. */
export function MyName() {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const { identity } = useGetIdentity();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ success?: string; failure?: string }>({});
  useEffect(() => {
    if (identity?.fullName) setName(identity.fullName);
  }, [identity?.fullName]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome({});
    const trimmed = name.trim();
    if (!trimmed) return setError(translate('app.personal.required'));
    if (trimmed.length > USER_NAME_MAX) return setError(`At most ${USER_NAME_MAX} characters.`);
    setError(undefined);
    setBusy(true);
    try {
      await api('/me', { method: 'PUT', json: { name: trimmed } });
      forgetIdentity();
      await queryClient.invalidateQueries({ queryKey: ['auth', 'getIdentity'] });
      setOutcome({ success: translate('app.personal.name_saved') });
    } catch (e) {
      const p = problemsOf(e);
      setError(p.errors.name);
      setOutcome({ failure: p.errors.name ? undefined : p.message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={save} aria-label={translate('app.personal.name')}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          label={translate('app.personal.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={!!error}
          helperText={error}
          required
          autoComplete="name"
          sx={{ flex: '1 1 240px' }}
        />
        <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 1 }}>
          {busy ? translate('app.personal.saving') : translate('app.personal.save_name')}
        </Button>
      </Box>
      <Outcome {...outcome} />
    </Box>
  );
}

/** Changing one's own password (POST /api/me/password): every other session of the user ends; this one goes on. */
export function ChangePassword() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const empty = { current_password: '', new_password: '', confirm: '' };
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ success?: string; failure?: string }>({});
  const set = (field: keyof typeof empty) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome({});
    const found: Problems = {};
    if (!values.current_password) found.current_password = translate('app.personal.required');
    if (values.new_password.length < PASSWORD_MIN)
      found.new_password = translate('app.personal.password_too_short', { min: PASSWORD_MIN });
    else if (values.new_password === values.current_password)
      found.new_password = translate('app.personal.password_same');
    if (values.confirm !== values.new_password) found.confirm = translate('app.personal.password_mismatch');
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api('/me/password', {
        method: 'POST',
        json: { current_password: values.current_password, new_password: values.new_password },
      });
      setValues(empty);
      setOutcome({ success: translate('app.personal.password_changed') });
    } catch (e) {
      const p = problemsOf(e);
      setErrors(p.errors);
      setOutcome({ failure: Object.keys(p.errors).length ? undefined : p.message });
    } finally {
      setBusy(false);
    }
  };

  const field = (name: keyof typeof empty, label: string, autoComplete: string, help?: string) => (
    <TextField
      type="password"
      label={label}
      value={values[name]}
      onChange={set(name)}
      error={!!errors[name]}
      helperText={errors[name] ?? help}
      required
      fullWidth
      autoComplete={autoComplete}
      slotProps={{ htmlInput: { maxLength: 1024 } }}
    />
  );
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={translate('app.personal.password')}>
      {/* Lets password managers file the new password under the right account. */}
      <input type="hidden" name="username" autoComplete="username" value={identity?.email ?? ''} readOnly />
      <Stack spacing={2}>
        {field('current_password', translate('app.personal.current_password'), 'current-password')}
        {field(
          'new_password',
          translate('app.personal.new_password'),
          'new-password',
          translate('app.personal.new_password_help', { min: PASSWORD_MIN }),
        )}
        {field('confirm', translate('app.personal.confirm_password'), 'new-password')}
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? translate('app.personal.saving') : translate('app.personal.change_password')}
          </Button>
        </Box>
      </Stack>
      <Outcome {...outcome} />
    </Box>
  );
}
