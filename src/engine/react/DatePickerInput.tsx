import { useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { format, isValid, parseISO } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { renderDateViewCalendar } from '@mui/x-date-pickers/dateViewRenderers';
import { renderMultiSectionDigitalClockTimeView } from '@mui/x-date-pickers/timeViewRenderers';
import { FieldTitle, InputHelperText, useInput, useResourceContext, type InputProps } from 'react-admin';
import type { DateLimits } from '../types';
import { DATE_FORMAT, DATE_TIME_FORMAT, parseStrictDate, resolveLimit } from '../dates';

// Spec "Date picker defaults": weeks start Monday (en-GB), input yyyy-MM-dd, day heading LLLL yyyy,
// month list LLL, weekday EE, 24-hour time with seconds 0, year view in 3 columns.
const FORMATS = { monthAndYear: 'LLLL yyyy', monthShort: 'LLL', weekdayShort: 'EE' };
const INVALID = 'Invalid date';

/** The date pickers' adapter (date-fns, en-GB: weeks start Monday) and display formats. */
export function DatePickerProvider({ children }: { children: React.ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={enGB} dateFormats={FORMATS}>
      {children}
    </LocalizationProvider>
  );
}

export type PickerViews = ('year' | 'month' | 'day')[];
/** The views from year down to the minimum view (spec: year → month → day → time, unless the minimum view ends earlier). */
export const viewsFor = (minView: DateLimits['minView'] = 'day'): PickerViews =>
  minView === 'year' ? ['year'] : minView === 'month' ? ['year', 'month'] : ['year', 'month', 'day'];

/** Stored value → picker value: a Date, an Invalid Date for rejected typing, or null. */
export function toPickerValue(value: unknown, withTime: boolean): Date | null {
  if (value === INVALID) return new Date(NaN);
  if (typeof value !== 'string' || value === '') return null;
  const d = withTime ? parseISO(value) : parseStrictDate(value);
  return d && isValid(d) ? d : new Date(NaN);
}

/** Picker value → stored value: yyyy-MM-dd for dates, ISO 8601 (seconds 0) for date-times. */
export function fromPickerValue(d: Date | null, withTime: boolean): string | null {
  if (d === null) return null;
  if (!isValid(d)) return INVALID;
  if (!withTime) return format(d, DATE_FORMAT);
  const copy = new Date(d);
  copy.setSeconds(0, 0);
  return copy.toISOString();
}

export interface PickerInputProps extends Omit<InputProps, 'source'> {
  source: string;
  withTime?: boolean;
  limits?: DateLimits;
  /** Extra dates that cannot be chosen (holidays, already booked days). */
  shouldDisableDate?: (d: Date) => boolean;
  shouldDisableTime?: (value: Date, view: 'hours' | 'minutes' | 'seconds') => boolean;
}

/** A react-admin input on MUI's date pickers that opens on focus and accepts typed dates only in yyyy-MM-dd. */
export function PickerInput({ source, label, withTime = false, limits, helperText, shouldDisableDate, shouldDisableTime, validate, ...rest }: PickerInputProps) {
  const resource = useResourceContext(rest);
  const { field, fieldState, formState, isRequired, id } = useInput({ source, validate, ...rest });
  const [open, setOpen] = useState(false);
  const { trigger } = useFormContext();
  // Closing hands focus back to the field; that focus must not open the picker again.
  const closedAt = useRef(0);
  const hiddenInput = useRef<HTMLInputElement>(null);
  const min = resolveLimit(limits?.min);
  const max = resolveLimit(limits?.max);
  const disabledDays = limits?.disabledWeekdays ?? [];
  const showError = fieldState.invalid && (fieldState.isTouched || formState.isSubmitted);
  const common = {
    value: toPickerValue(field.value, withTime),
    onChange: (d: Date | null) => field.onChange(fromPickerValue(d, withTime)),
    open,
    onOpen: () => setOpen(true),
    onClose: () => {
      closedAt.current = Date.now();
      setOpen(false);
      field.onBlur();
    },
    // Choosing in the last view (the minimum view, or the time) closes the picker.
    closeOnSelect: true,
    // The views do not take the keyboard focus, so the user can type the date in the field while the picker is open.
    viewRenderers: {
      year: (p: any) => renderDateViewCalendar({ ...p, autoFocus: false, focusedView: null }),
      month: (p: any) => renderDateViewCalendar({ ...p, autoFocus: false, focusedView: null }),
      day: (p: any) => renderDateViewCalendar({ ...p, autoFocus: false, focusedView: null }),
      hours: (p: any) => renderMultiSectionDigitalClockTimeView({ ...p, autoFocus: false, focusedView: null }),
      minutes: (p: any) => renderMultiSectionDigitalClockTimeView({ ...p, autoFocus: false, focusedView: null }),
    },
    minDate: min,
    maxDate: max,
    shouldDisableDate: (d: Date) => disabledDays.includes(d.getDay()) || !!shouldDisableDate?.(d),
    dayOfWeekFormatter: (d: Date) => format(d, 'EE'),
    yearsPerRow: 3 as const,
    openTo: 'day' as const,
    slotProps: {
      textField: {
        id,
        name: field.name,
        // Not `required`: MUI would put it on the hidden, unfocusable input, so the browser would block the submit
        // silently (no message next to the field); the form's validator reports it instead. FieldTitle shows the *.
        fullWidth: true,
        size: 'small' as const,
        error: showError,
        onFocus: () => {
          if (Date.now() - closedAt.current > 300) setOpen(true);
        },
        onBlur: (e: React.FocusEvent<HTMLElement>) => {
          // Moving between the field's own parts (year, month, day, the calendar button) is not leaving it.
          if (e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) return;
          // Spec section 4: the picker closes on blur.
          if (open) {
            closedAt.current = Date.now();
            setOpen(false);
          }
          // A half-typed date (2027-02-DD) leaves the picker's value empty: say it is not a date rather than
          // silently saving nothing.
          const typed = hiddenInput.current?.value ?? '';
          if (typed && /[A-Za-z]/.test(typed) && (field.value == null || field.value === '')) {
            field.onChange(INVALID);
            void trigger(source);
          }
          field.onBlur();
        },
        inputRef: hiddenInput,
        helperText: <InputHelperText error={showError ? (fieldState.error?.message as any) : undefined} helperText={helperText} />,
      },
      field: { clearable: limits?.clearable !== false && !isRequired, onClear: () => field.onChange(null) },
      // Clicks in the calendar keep the focus in the field, so leaving the field is what closes the picker.
      desktopPaper: { onMouseDown: (e: React.MouseEvent) => e.preventDefault() },
      actionBar: { actions: (limits?.clearable !== false && !isRequired ? ['clear'] : []) as 'clear'[] },
    },
    label: <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />,
    sx: { minWidth: 220 },
  };
  // Each picker brings its own adapter context, so the engine needs nothing mounted around the app.
  if (withTime) {
    return (
      <DatePickerProvider>
      <DateTimePicker
        {...common}
        format={DATE_TIME_FORMAT}
        views={[...viewsFor('day'), 'hours', 'minutes']}
        ampm={false}
        timeSteps={{ minutes: 1 }}
        shouldDisableTime={shouldDisableTime}
      />
      </DatePickerProvider>
    );
  }
  return (
    <DatePickerProvider>
      <DatePicker {...common} format={DATE_FORMAT} views={viewsFor(limits?.minView)} openTo={limits?.minView && limits.minView !== 'day' ? limits.minView : 'day'} />
    </DatePickerProvider>
  );
}
