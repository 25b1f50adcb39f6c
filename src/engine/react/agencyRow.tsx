// An agency's own settings row on its screen (the invoice, agency and client settings): one row per agency with no id
// in its address, read and saved by the server's own routes (server/engine/agencyRows.ts), shown as one form.
import { Alert, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Form, RecordContextProvider, SaveButton, useNotify, usePermissions, useTranslate } from 'react-admin';
import { api } from '../../providers/http';
import { UploadFailure } from './files';

/** The routes of an agency's settings let its admins save and everyone else of the agency read. */
export function useSettingsReadOnly() {
  const { permissions, isPending } = usePermissions<{ role?: string }>();
  return isPending || permissions?.role !== 'admin';
}

/** Says that the settings below can be read, not changed. */
export const ReadOnlyNotice = () => (
  <Alert severity="info" sx={{ mb: 2 }}>
    Only an admin can change these settings; you can read them.
  </Alert>
);

/** The refusals the server names by field, for react-admin to show next to each. */
export const fieldErrorsOf = (e: unknown): Record<string, string> =>
  (e as { body?: { errors?: Record<string, string> } })?.body?.errors ?? {};

/** What a failed save says when no field says it. */
export const saveFailureOf = (e: unknown) => (e as Error)?.message || 'Could not save.';

/** The agency's row of `resource` (GET /api/{resource}), cached under the resource's name. */
export function useAgencyRow<T>(resource: string) {
  return useQuery({
    queryKey: [resource],
    queryFn: ({ signal }) => api<{ data: T }>(`/${resource}`, { signal }),
    retry: false,
  });
}

/**
 * Saves (PUT /api/{resource}) what `prepare` makes of the form's values and keeps the server's answer as the row;
 * answers the field errors for react-admin to show next to each field, and says a refusal no field holds (a stale
 * version among them) in a notification.
 */
export function useSaveAgencyRow<T>(
  resource: string,
  savedMessage: string,
  options: {
    prepare?: (values: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
    after?: () => Promise<unknown>;
  } = {},
) {
  const notify = useNotify();
  const client = useQueryClient();
  return async (values: Record<string, unknown>) => {
    try {
      const json = options.prepare ? await options.prepare(values) : values;
      const saved = await api<{ data: T }>(`/${resource}`, { method: 'PUT', json });
      client.setQueryData([resource], saved);
      await options.after?.();
      notify(savedMessage, { type: 'success' });
    } catch (err) {
      if (err instanceof UploadFailure) return { [err.field]: err.message };
      const errors = fieldErrorsOf(err);
      if (!Object.keys(errors).length || errors.version) notify(saveFailureOf(err), { type: 'error' });
      return errors;
    }
  };
}

/** The row once loaded, drawn by `children`; meanwhile "Loading…", and `failed` when it could not be. */
export function AgencyRowLoad<T>({
  query,
  failed,
  children,
}: {
  query: { isError: boolean; data?: { data: T } };
  failed: string;
  children: (record: T) => ReactNode;
}) {
  const translate = useTranslate();
  if (query.isError) return <Alert severity="error">{failed}</Alert>;
  if (!query.data)
    return (
      <Typography role="status" color="text.secondary">
        {translate('app.loading')}
      </Typography>
    );
  return <>{children(query.data.data)}</>;
}

/**
 * The row's form: a new key after each save, so the form starts again from what the server kept (its version); its
 * inputs disabled and no Save button when read-only. `within` puts the inputs and the button in a box of the screen's.
 */
export function AgencyRowForm({
  record,
  onSubmit,
  readOnly,
  validate,
  within = (inside) => inside,
  children,
}: {
  record: { id: string | number; version: number };
  onSubmit: (values: Record<string, unknown>) => Promise<Record<string, string> | undefined>;
  readOnly: boolean;
  validate?: (values: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  within?: (inside: ReactNode) => ReactNode;
  children: ReactNode;
}) {
  return (
    <RecordContextProvider value={record}>
      {/* The engine's own messages next to the field, not the browser's bubbles (a number's min and max would block
          the save with the browser's words: seen on the recruitment settings' months). */}
      <Form key={record.version} record={record} onSubmit={onSubmit} validate={validate} noValidate>
        {within(
          <>
            <fieldset disabled={readOnly} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
              {children}
            </fieldset>
            {!readOnly && <SaveButton alwaysEnable />}
          </>,
        )}
      </Form>
    </RecordContextProvider>
  );
}
