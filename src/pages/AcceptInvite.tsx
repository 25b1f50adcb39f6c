import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiFailure, request } from '../providers/request';
import { t } from '../i18n/light';
import { PASSWORD_MIN } from '../../core/domain/accounts/passwords';
import type { UserInviteAccepted, UserInviteInfo } from '../../core/contracts/users';
import { loginTypeOfStored } from '../../core/engine/types';
import type { LoginState } from './Login';

/** Texts of the invitation page (a page of its own, outside both panels). */
const say = {
  title: 'Choose your password',
  loading: 'Loading your invitation…',
  intro_agency: '%{agency} invites you, %{name}, to its back office.',
  intro_client: '%{agency} invites you, %{name}, to the %{client} client panel.',
  email: 'E-mail (you sign in with it)',
  password: 'New password',
  repeat: 'Repeat the password',
  hint: `At least ${PASSWORD_MIN} characters.`,
  mismatch: 'The two passwords differ.',
  submit: 'Set my password',
  submitting: 'Setting your password…',
  invalid: 'This invitation link is not valid any more. Ask for a new one.',
  to_login: 'Go to sign in',
};

type Invite = UserInviteInfo;

const fill = (text: string, values: Record<string, string>) => text.replace(/%\{(\w+)\}/g, (_, k) => values[k] ?? '');

/**
 * /invite/<token>: an agency or client user invited by e-mail sets their password here (issue 14), then signs in
 * on the Login page with the panel and address filled in. Light like the Login page: no react-admin, no MUI.
 */
export default function AcceptInvite() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [invite, setInvite] = useState<Invite | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const repeatRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = `${say.title} · ${t('app.name')}`;
    request<Invite>(`/user_invites/${encodeURIComponent(token)}`)
      .then(setInvite)
      .catch(() => setInvalid(true));
  }, [token]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || !invite) return;
    const found: typeof errors = {};
    if (password.length < PASSWORD_MIN) found.password = say.hint;
    else if (password !== repeat) found.repeat = say.mismatch;
    setErrors(found);
    setServerError('');
    if (found.password) return passwordRef.current?.focus();
    if (found.repeat) return repeatRef.current?.focus();
    setSubmitting(true);
    try {
      const done = await request<UserInviteAccepted>(`/user_invites/${encodeURIComponent(token)}`, {
        method: 'POST',
        json: { password },
      });
      const state: LoginState = {
        reason: 'password_set',
        panel: loginTypeOfStored(done.login_type) === 'client' ? 'client' : 'agency',
        email: done.email,
      };
      navigate('/', { replace: true, state });
    } catch (err) {
      if (err instanceof ApiFailure && err.body?.errors?.password) setErrors({ password: err.body.errors.password });
      else if (err instanceof ApiFailure && err.status === 404) setInvalid(true);
      else setServerError(err instanceof ApiFailure ? err.message : t('app.login.network_error'));
      setSubmitting(false);
    }
  };

  return (
    <main className="login-page">
      <div className="login-card">
        <h1 className="login-title">{say.title}</h1>
        {!invite && !invalid && <p role="status">{say.loading}</p>}
        {invalid && (
          <>
            <div className="login-error" role="alert">
              {say.invalid}
            </div>
            <button type="button" className="login-submit" onClick={() => navigate('/', { replace: true })}>
              {say.to_login}
            </button>
          </>
        )}
        {invite && !invalid && (
          <form className="login-form" onSubmit={onSubmit} noValidate aria-label={say.title}>
            <p className="login-subtitle">
              {fill(invite.login_type === 'client' ? say.intro_client : say.intro_agency, {
                agency: invite.agency,
                name: invite.name,
                client: invite.client_name ?? '',
              })}
            </p>
            <div className="login-field">
              <label htmlFor="invite-email">{say.email}</label>
              <input
                id="invite-email"
                type="email"
                name="email"
                autoComplete="username"
                value={invite.email}
                readOnly
              />
            </div>
            <Field
              id="invite-password"
              inputRef={passwordRef}
              label={say.password}
              value={password}
              onChange={setPassword}
              error={errors.password}
              hint={say.hint}
            />
            <Field
              id="invite-repeat"
              inputRef={repeatRef}
              label={say.repeat}
              value={repeat}
              onChange={setRepeat}
              error={errors.repeat}
            />
            {serverError && (
              <div className="login-error" role="alert">
                {serverError}
              </div>
            )}
            <button type="submit" className="login-submit" disabled={submitting} aria-busy={submitting || undefined}>
              {submitting ? say.submitting : say.submit}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}

function Field({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  inputRef,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: string;
  inputRef: React.RefObject<HTMLInputElement | null>;
}) {
  const noteId = `${id}-note`;
  return (
    <div className="login-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        type="password"
        autoComplete="new-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? noteId : undefined}
        required
      />
      {(error || hint) && (
        <span id={noteId} className={error ? 'login-field-error' : undefined}>
          {error ?? hint}
        </span>
      )}
    </div>
  );
}
