import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { t } from '../i18n/light';

/** The catch-all for visitors who are not signed in: no shell, a link to the Login page. */
export function StandaloneNotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${t('app.not_found.title')} · ${t('app.name')}`;
  }, []);
  return (
    <main className="standalone-page" data-testid="not-found">
      <div className="standalone-card">
        <h1>{t('app.not_found.title')}</h1>
        <p>{t('app.not_found.text', { path: pathname })}</p>
        <Link to="/">{t('app.not_found.back_login')}</Link>
      </div>
    </main>
  );
}
