import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { t } from '../i18n/light';
import {
  clearExpired,
  getLoginType,
  hasExpiredSession,
  hasValidSession,
  homeOf,
  type PanelLoginType,
} from '../providers/session';
import { EMAIL } from '../../core/engine/formats';
import { ApiFailure } from '../providers/request';
import { loginTypeOfStored } from '../../core/engine/types';
import { revokeToken, signIn } from '../providers/signIn';
import { loadApp } from '../appLoader';

/** Why the user was sent here; set by the route guards and the panel switch (router state). */
export interface LoginState {
  reason?: 'wrong_panel' | 'expired' | 'switch_panel' | 'password_set';
  panel?: PanelLoginType;
  /** Filled in for the user (after setting a password through an invitation). */
  email?: string;
}

type FieldErrors = { email?: string; password?: string };

/** Loads the main application's code (fetched and run once; later calls reuse it), so /home appears sooner. */
const preloadApp = () => void loadApp().catch(() => undefined);

/**
 * Warms the signed-in application while the user reads and types: once the page has loaded and the browser is
 * idle, so the Login page itself is never slowed (it works before any of this starts). By the time the
 * password is typed the code is cached and run, and sign-in only waits for the server.
 */
function preloadAppWhenIdle(): () => void {
  let cancel = () => {};
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(preloadApp, { timeout: 3000 });
      cancel = () => window.cancelIdleCallback(handle);
    } else {
      const handle = window.setTimeout(preloadApp, 300);
      cancel = () => window.clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') whenIdle();
  else {
    window.addEventListener('load', whenIdle, { once: true });
    cancel = () => window.removeEventListener('load', whenIdle);
  }
  return () => cancel();
}

/**
 * The Login page at "/". Kept free of react-admin and MUI so that it is usable after very little JavaScript.
 * A user holding an unexpired token goes to their panel's home, except when a guard refused them
 * (state.reason 'wrong_panel'): then the session is revoked and cleared here and the reason is explained.
 */
export default function Login() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = (location.state ?? {}) as LoginState;

  // Decided once, when the page opens (pure: the session is cleared in the effect below).
  const [arrival] = useState(() => {
    if (state.reason === 'wrong_panel')
      return { redirect: null, notice: t('app.login.wrong_panel'), clear: 'revoke' as const };
    if (hasValidSession()) return { redirect: homeOf(getLoginType()), notice: '', clear: null };
    if (hasExpiredSession() || state.reason === 'expired')
      return { redirect: null, notice: t('app.login.expired'), clear: 'expired' as const };
    if (state.reason === 'password_set') return { redirect: null, notice: t('app.login.password_set'), clear: null };
    if (state.reason === 'switch_panel' && state.panel) {
      return {
        redirect: null,
        notice: t('app.login.switch_panel', { panel: t(`app.panel.${state.panel}`) }),
        clear: null,
      };
    }
    return { redirect: null, notice: '', clear: null };
  });

  const [loginType, setLoginType] = useState<PanelLoginType>(() => state.panel ?? getLoginType() ?? 'agency');
  const [email, setEmail] = useState(state.email ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState('');
  /** The server recognised a client's e-mail and password on the agency panel ("Client?"). */
  const [clientHint, setClientHint] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // Consume the reason (router state survives reloads), so that a later visit to "/" behaves normally.
    if (state.reason) navigate('.', { replace: true, state: null });
    // Refused by a guard: revoke the token (ignoring failure; revokeToken reads the token before its first
    // await), then forget the session at once, so nothing can use it while the revocation is in flight.
    if (arrival.clear === 'revoke') void revokeToken();
    // An expired token: token, expiry and login type are cleared (spec section 4).
    if (arrival.clear) clearExpired();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, on arrival
  }, []);

  useEffect(() => {
    document.title = `${t('app.login.title')} · ${t('app.name')}`;
  }, []);

  // A user going on to their panel loads the app at once anyway.
  useEffect(() => (arrival.redirect ? undefined : preloadAppWhenIdle()), [arrival.redirect]);

  if (arrival.redirect) return <Navigate to={arrival.redirect} replace />;

  const validate = (): FieldErrors => {
    const e: FieldErrors = {};
    if (!email.trim()) e.email = t('app.login.required');
    else if (!EMAIL.test(email.trim())) e.email = t('app.login.invalid_email');
    if (!password) e.password = t('app.login.required');
    return e;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = validate();
    setErrors(found);
    setServerError('');
    setClientHint(false);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    setSubmitting(true);
    preloadApp();
    try {
      const r = await signIn(loginType, email, password);
      navigate(homeOf(loginTypeOfStored(r.login_type)), { replace: true });
    } catch (err) {
      // An ApiFailure carries the server's words; anything else is the network.
      setServerError(err instanceof ApiFailure ? err.message || t('app.login.error') : t('app.login.network_error'));
      setClientHint(err instanceof ApiFailure && err.body?.hint === 'client');
      setSubmitting(false);
      passwordRef.current?.select();
    }
  };

  return (
    <main className="login-page">
      <div className="login-card">
        <div className="login-brand" aria-hidden="true">
          <svg viewBox="0 0 32 32" width="48" height="48">
            <rect width="32" height="32" rx="7" fill="#1565c0" />
            <path d="M8 23 L16 8 L24 23 Z" fill="#fff" />
          </svg>
        </div>
        <h1 className="login-title">{t('app.login.title')}</h1>
        <p className="login-subtitle">{t('app.login.subtitle')}</p>
        {arrival.notice && (
          <div className="login-notice" role="status">
            {arrival.notice}
          </div>
        )}
        <form className="login-form" onSubmit={onSubmit} noValidate aria-label={t('app.login.title')}>
          <fieldset className="login-panels">
            <legend>{t('app.login.panel')}</legend>
            {(['agency', 'client'] as const).map((type) => (
              <label key={type} className={`login-panel-option${loginType === type ? ' is-selected' : ''}`}>
                <input
                  type="radio"
                  name="loginType"
                  value={type}
                  checked={loginType === type}
                  onChange={() => setLoginType(type)}
                />
                <span>{t(type === 'agency' ? 'app.login.agency' : 'app.login.client')}</span>
              </label>
            ))}
          </fieldset>

          <LoginField
            id="login-email"
            inputRef={emailRef}
            type="email"
            name="email"
            autoComplete="username"
            autoFocus
            label={t('app.login.email')}
            value={email}
            onChange={setEmail}
            error={errors.email}
          />
          <LoginField
            id="login-password"
            inputRef={passwordRef}
            type="password"
            name="password"
            autoComplete="current-password"
            label={t('app.login.password')}
            value={password}
            onChange={setPassword}
            error={errors.password}
          />

          {serverError && (
            <div className="login-error" role="alert">
              {serverError}
              {clientHint && (
                <button
                  type="button"
                  className="login-hint-switch"
                  onClick={() => {
                    setLoginType('client');
                    setServerError('');
                    setClientHint(false);
                    passwordRef.current?.focus();
                  }}
                >
                  {t('app.login.use_client')}
                </button>
              )}
            </div>
          )}

          <button type="submit" className="login-submit" disabled={submitting} aria-busy={submitting || undefined}>
            {submitting ? t('app.login.submitting') : t('app.login.submit')}
          </button>
        </form>
      </div>
    </main>
  );
}

interface LoginFieldProps {
  id: string;
  label: string;
  type: 'email' | 'password';
  name: string;
  autoComplete: string;
  autoFocus?: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputRef: React.RefObject<HTMLInputElement | null>;
}

/** A labelled input with its error beneath, tied to it for screen readers. */
function LoginField({ id, label, value, onChange, error, inputRef, ...input }: LoginFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="login-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        {...input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        required
      />
      {error && (
        <span id={errorId} className="login-field-error">
          {error}
        </span>
      )}
    </div>
  );
}
