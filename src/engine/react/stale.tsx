// An edit saved over someone else's change: the form keeps what was typed and offers to reload.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { Alert } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate, Button, useEditContext, useNotify } from 'react-admin';
import { useFormContext } from 'react-hook-form';

/**
 * Stale edits: the form sends back the record's version; when someone else saved first the API answers 409 with
 * errors.version. The form then says so and offers to reload; nothing is overwritten and the user's edit stays
 * on screen until they choose to reload.
 */
const StaleContext = createContext<{ stale: boolean; setStale: (v: boolean) => void }>({
  stale: false,
  setStale: () => {},
});

export const isStaleError = (e: any) => e?.status === 409 && !!e?.body?.errors?.version;

/** The mutation options and context of an edit form that handles stale saves; wrap the form in <StaleProvider>. */
export function useStaleEdit() {
  const [stale, setStale] = useState(false);
  const notify = useNotify();
  const onError = (e: any) => {
    if (isStaleError(e)) {
      setStale(true);
      // The form would mark an invisible "version" field as wrong: say it as the form's own error instead.
      e.body.errors = { root: { serverError: 'app.edit.stale' } };
      return;
    }
    // Field errors (422) show next to the fields; anything else is said aloud, as react-admin does by default.
    if (e?.body?.errors && Object.keys(e.body.errors).length) return;
    notify(typeof e === 'string' ? e : e?.message || 'ra.notification.http_error', {
      type: 'error',
      messageArgs: { _: e?.message },
    });
  };
  return { stale, setStale, onError };
}

export function StaleProvider({
  value,
  children,
}: {
  value: { stale: boolean; setStale: (v: boolean) => void };
  children: ReactNode;
}) {
  return <StaleContext.Provider value={value}>{children}</StaleContext.Provider>;
}

/** Inside an edit form: the "changed meanwhile" message with its Reload button. */
export function StaleNotice() {
  const { stale, setStale } = useContext(StaleContext);
  const { refetch } = useEditContext();
  const { reset } = useFormContext();
  const translate = useTranslate();
  if (!stale) return null;
  const reload = async () => {
    const r = await refetch();
    // Discards the local edit: the form starts again from what is stored now, with its new version.
    if (r?.data) reset(r.data);
    setStale(false);
  };
  return (
    <Alert
      severity="warning"
      role="alert"
      sx={{ mb: 2, width: '100%' }}
      action={
        <Button label="app.edit.reload" onClick={reload}>
          <RefreshIcon />
        </Button>
      }
    >
      {translate('app.edit.stale')}
    </Alert>
  );
}
