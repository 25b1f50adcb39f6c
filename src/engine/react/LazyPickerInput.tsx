import { lazy, Suspense } from 'react';
import { TextField } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, useResourceContext } from 'react-admin';
import type { PickerInputProps } from './DatePickerInput';

// MUI's date pickers and their adapter are a large library (vendor chunk) that only a form or a date filter
// needs: the dashboard and lists without date filters never fetch them.
const PickerInputLoaded = lazy(() => import('./DatePickerInput').then((m) => ({ default: m.PickerInput })));

/**
 * Shown while the pickers' code arrives: a disabled field of the picker's size (filled, dense, small, 220 px at
 * least, room for the helper text) with its label, so the form does not move when the picker replaces it. It has
 * no id, so its label names no input and nothing can type into it before the real one is there.
 * It registers the field with the form as the picker will (same source, default and validation), so the form
 * knows all its fields from the first render: without it, a form changed before the pickers arrived did not warn
 * about unsaved changes on leaving (tests/e2e/screens.test.ts).
 */
function PickerPlaceholder({ source, label, helperText, withTime: _withTime, limits: _limits, shouldDisableDate: _d, shouldDisableTime: _t, ...rest }: PickerInputProps) {
  const resource = useResourceContext(rest);
  const { isRequired } = useInput({ source, ...rest });
  return (
    <TextField
      disabled
      fullWidth
      size="small"
      variant="filled"
      margin="dense"
      sx={{ minWidth: 220 }}
      label={<FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />}
      helperText={<InputHelperText helperText={helperText} />}
      slotProps={{ input: { 'aria-busy': true } as object }}
    />
  );
}

/** The engine's date and date-time input (DatePickerInput's PickerInput), loaded the first time one renders. */
export function PickerInput(props: PickerInputProps) {
  return (
    <Suspense fallback={<PickerPlaceholder {...props} />}>
      <PickerInputLoaded {...props} />
    </Suspense>
  );
}
