import { forwardRef, useEffect, useMemo, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { format, isValid, parseISO } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import { PickersTextField, type PickersTextFieldProps } from '@mui/x-date-pickers/PickersTextField';
import { usePickerContext } from '@mui/x-date-pickers/hooks';
import { renderDateViewCalendar } from '@mui/x-date-pickers/dateViewRenderers';
import { renderMultiSectionDigitalClockTimeView } from '@mui/x-date-pickers/timeViewRenderers';
import { Box, dividerClasses, useForkRef, type Theme } from '@mui/material';
import { pickersLayoutClasses } from '@mui/x-date-pickers/PickersLayout';
import { dateCalendarClasses } from '@mui/x-date-pickers/DateCalendar';
import {
  multiSectionDigitalClockClasses,
  multiSectionDigitalClockSectionClasses,
} from '@mui/x-date-pickers/MultiSectionDigitalClock';
import { FieldTitle, InputHelperText, useInput, useResourceContext, type InputProps } from 'react-admin';
import type { DateLimits } from '../../../core/engine/types';
import { DATE_FORMAT, DATE_TIME_FORMAT, TIME_FORMAT, parseStrictDate, resolveLimit } from '../../../core/engine/dates';

// Spec "Date picker defaults": weeks start Monday (en-GB), input yyyy-MM-dd, day heading LLLL yyyy,
// month list LLL, weekday EE, 24-hour time with seconds 0, year view in 3 columns.
const FORMATS = { monthAndYear: 'LLLL yyyy', monthShort: 'LLL', weekdayShort: 'EE' };
const INVALID = 'Invalid date';

/** The largest number each typed part takes; the year takes any four digits. */
const SECTION_MAX: Record<string, number> = { Month: 12, Day: 31, Hours: 23, Minutes: 59 };

/** Sends a key to MUI's field as if pressed there (it handles Delete and the arrows on keydown). */
function pressKey(target: EventTarget, key: string) {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}

/**
 * Follows the digits typed into each part of the field. MUI's field starts a part again when the digits typed
 * exceed it ("13" in the month becomes 03, "99" in the day 09), so 2025-13-99 would silently become 2025-03-09.
 * Here the digit that takes a part out of range never reaches MUI: the part is emptied instead (the field shows
 * 2025-MM-DD, never a date nobody typed), the caret moves on to the next part as it would have, and the part is
 * remembered as typed out of range, so the value is refused until that part is typed again correctly.
 */
export function useTypedRange() {
  const bad = useRef(new Set<string>());
  const typing = useRef({ section: '', digits: '' });
  // True while this hook sends MUI its own keys (below), which are not the user's.
  const sending = useRef(false);
  const onKeyDownCapture = (e: React.KeyboardEvent) => {
    if (sending.current) return;
    const section = (e.target as HTMLElement).getAttribute?.('aria-label') ?? '';
    const max = SECTION_MAX[section];
    if (max === undefined) return;
    if (/^[0-9]$/.test(e.key)) {
      const t = typing.current;
      const digits = t.section === section && t.digits.length < 2 ? t.digits + e.key : e.key;
      typing.current = { section, digits };
      const n = Number(digits);
      // A part is complete at two digits, or at one when no second digit could follow (a 4 in the month).
      if (digits.length === 2 || n * 10 > max) {
        const wrong = n > max || (n === 0 && (section === 'Month' || section === 'Day'));
        if (!wrong) bad.current.delete(section);
        else {
          bad.current.add(section);
          typing.current = { section: '', digits: '' };
          e.preventDefault();
          e.stopPropagation();
          sending.current = true;
          try {
            pressKey(e.target, 'Delete');
            pressKey(e.target, 'ArrowRight');
          } finally {
            sending.current = false;
          }
        }
      }
    } else if (['Backspace', 'Delete', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'].includes(e.key)) {
      // The part is being changed another way: what it shows is what it holds.
      bad.current.delete(section);
      typing.current = { section: '', digits: '' };
    } else typing.current = { section: '', digits: '' };
  };
  return { bad, onKeyDownCapture, clear: () => bad.current.clear() };
}

/** The date pickers' adapter (date-fns, en-GB: weeks start Monday) and display formats. */
export function DatePickerProvider({ children }: { children: React.ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={enGB} dateFormats={FORMATS}>
      {children}
    </LocalizationProvider>
  );
}

/**
 * Whether the focus rests on a control outside `field` and outside every picker: the user has moved on from the field.
 * A focus fallen to the page's body, or left in a picker that is closing, is not: there MUI's hand-back is what keeps
 * the keyboard in the field, as it intends.
 */
const movedOnFrom = (field: Element) => {
  const at = document.activeElement;
  return !!at && at !== document.body && !field.contains(at) && !at.closest('.MuiPickerPopper-root');
};

/**
 * MUI's text field of the pickers, which refuses the focus MUI hands back to it after its picker closed when the user
 * has moved on. MUI hands the focus back from a timer it sets as the picker closes (PickerPopper), with no option to
 * turn it off; under load the timer fires late, after the user (or a test) has moved on to another field, and the
 * focus pulled away then restarts the part they are typing there (a digit is lost) or makes what they type next land
 * in the date. So, from the close until that timer has fired, a `focus()` call on the field's elements does nothing
 * while the focus is elsewhere; a user's own tab or click is no call and is never refused.
 */
const HandBackAwareTextField = forwardRef<HTMLDivElement, PickersTextFieldProps>(
  function HandBackAwareTextField(props, ref) {
    const { open } = usePickerContext();
    const own = useRef<HTMLDivElement>(null);
    const wasOpen = useRef(open);
    useEffect(() => {
      const field = own.current;
      const closed = wasOpen.current && !open;
      wasOpen.current = open;
      if (!closed || !field) return;
      const guarded = [field, ...field.querySelectorAll('*')].filter((e) => e instanceof HTMLElement);
      for (const element of guarded) {
        element.focus = (options?: FocusOptions) => {
          if (!movedOnFrom(field)) HTMLElement.prototype.focus.call(element, options);
        };
      }
      const unguard = () => guarded.forEach((element) => Reflect.deleteProperty(element, 'focus'));
      // This effect and MUI's hand-back effect run in the same commit (both follow the picker's own open state), in
      // either order: a timer set from a timer set now fires after the one MUI sets now.
      let handedBack: ReturnType<typeof setTimeout> | undefined;
      const first = setTimeout(() => {
        handedBack = setTimeout(unguard);
      });
      return () => {
        clearTimeout(first);
        clearTimeout(handedBack);
        unguard();
      };
    }, [open]);
    return <PickersTextField {...props} ref={useForkRef(ref, own)} />;
  },
);

/**
 * The date-time picker's layout on a phone. MUI's desktop picker sets its times beside the calendar (320 + 1 + 2 × 56
 * = 433 px), wider than a 390 px phone, and it has no narrower arrangement of its own. Its mobile variant (a modal
 * dialog, switched by `desktopModeMediaQuery`) would take the focus from the field, where this field lets the user type
 * while the picker is open and closes the picker when the focus leaves it. So below the `sm` breakpoint the same
 * picker sets its times under the calendar (320 px wide) and shows fewer hours at a time (the lists scroll, and centre
 * the chosen hour and minute as they do beside the calendar), so that calendar and times fit a phone's height too.
 */
const TIMES_UNDER_THE_CALENDAR = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    [`& .${pickersLayoutClasses.contentWrapper}`]: {
      [`& > .${dateCalendarClasses.root}`]: { gridRow: 1, gridColumn: 1 },
      // The divider between calendar and times stands upright beside them; above the times it is their top border.
      [`& > .${dividerClasses.vertical}`]: { display: 'none' },
      [`& > .${multiSectionDigitalClockClasses.root}`]: {
        gridRow: 2,
        gridColumn: 1,
        justifyContent: 'center',
        borderTop: `1px solid ${theme.palette.divider}`,
      },
      [`& .${multiSectionDigitalClockSectionClasses.root}`]: { maxHeight: 132 },
    },
  },
});

export type PickerViews = ('year' | 'month' | 'day')[];
/**
 * The views from year down to the minimum view (spec: year → month → day → time, unless the minimum view ends earlier).
 */
export const viewsFor = (minView: DateLimits['minView'] = 'day'): PickerViews =>
  minView === 'year' ? ['year'] : minView === 'month' ? ['year', 'month'] : ['year', 'month', 'day'];

/** What a picker edits: a date (yyyy-MM-dd), an instant (date and time) or a wall-clock time (HH:mm). */
export type PickerKind = 'date' | 'datetime' | 'time';

/** Stored value → picker value: a Date, an Invalid Date for rejected typing, or null. */
export function toPickerValue(value: unknown, kind: PickerKind): Date | null {
  if (value === INVALID) return new Date(NaN);
  if (typeof value !== 'string' || value === '') return null;
  const d = kind === 'datetime' ? parseISO(value) : parseStrictDate(value, kind === 'time' ? TIME_FORMAT : DATE_FORMAT);
  return d && isValid(d) ? d : new Date(NaN);
}

/** Picker value → stored value: yyyy-MM-dd for dates, ISO 8601 (seconds 0) for date-times, HH:mm for times. */
export function fromPickerValue(d: Date | null, kind: PickerKind): string | null {
  if (d === null) return null;
  if (!isValid(d)) return INVALID;
  if (kind === 'date') return format(d, DATE_FORMAT);
  if (kind === 'time') return format(d, TIME_FORMAT);
  const copy = new Date(d);
  copy.setSeconds(0, 0);
  return copy.toISOString();
}

export interface PickerInputProps extends Omit<InputProps, 'source'> {
  source: string;
  withTime?: boolean;
  /** A wall-clock time alone, stored as HH:mm (24-hour): a shift's start and end on the request form. */
  timeOnly?: boolean;
  limits?: DateLimits;
  /** Extra dates that cannot be chosen (holidays, already booked days). */
  shouldDisableDate?: (d: Date) => boolean;
  shouldDisableTime?: (value: Date, view: 'hours' | 'minutes' | 'seconds') => boolean;
}

/**
 * A react-admin input on MUI's date pickers that opens on focus and accepts typed dates only in yyyy-MM-dd (and
 * times only as 24-hour HH:mm).
 */
export function PickerInput({
  source,
  label,
  withTime = false,
  timeOnly = false,
  limits,
  helperText,
  shouldDisableDate,
  shouldDisableTime,
  validate,
  ...rest
}: PickerInputProps) {
  const kind: PickerKind = timeOnly ? 'time' : withTime ? 'datetime' : 'date';
  const resource = useResourceContext(rest);
  const { field, fieldState, formState, isRequired, id } = useInput({ source, validate, ...rest });
  const [open, setOpen] = useState(false);
  const { trigger } = useFormContext();
  // MUI hands the focus back to the field when its picker closes (from a timer, later still on a busy machine); that
  // focus must not open the picker again. Whether the user has pressed a key or a pointer since the picker closed:
  // a focus that follows no press is MUI's, not the user's.
  const closedUnpressed = useRef(false);
  useEffect(() => {
    const pressed = () => {
      closedUnpressed.current = false;
    };
    document.addEventListener('keydown', pressed, true);
    document.addEventListener('pointerdown', pressed, true);
    return () => {
      document.removeEventListener('keydown', pressed, true);
      document.removeEventListener('pointerdown', pressed, true);
    };
  }, []);
  const hiddenInput = useRef<HTMLInputElement>(null);
  const typed = useTypedRange();
  // MUI's field rebuilds its parts from `value` whenever it receives a different object (it compares by identity),
  // dropping what the user has typed so far. So the picker is handed back the very date it last published, even
  // when the form holds the refusal marker for it, and a stored value becomes a new Date only when it changes.
  // State, not a ref: a new date the form stores as the same marker must still reach the picker, or MUI, seeing
  // its value unchanged, clears the parts it has just filled in.
  const [held, setHeld] = useState<{ stored: unknown; date: Date | null } | null>(null);
  const fromForm = useMemo(() => toPickerValue(field.value, kind), [field.value, kind]);
  const value = held && held.stored === field.value ? held.date : fromForm;
  // Counts the values handed to the form, to tell whether MUI has just published one itself.
  const holds = useRef(0);
  const hold = (stored: unknown, date: Date | null) => {
    holds.current += 1;
    setHeld({ stored, date });
    field.onChange(stored);
    // A message said next to the field goes as soon as the field holds a date: the form itself re-checks a
    // field only after a submit, and a refused date is also reported on leaving the field, before any submit.
    if (fieldState.error) void trigger(source);
  };
  const store = (d: Date | null) => hold(typed.bad.current.size ? INVALID : fromPickerValue(d, kind), d);
  // A date outside the limits can only be typed (the calendar offers none): it is refused next to the field as soon as
  // it is whole, while the user is still in the field, not only when they leave it or submit. The form's validator
  // says why (its limits are the field's). A stored value the user has not touched is left to the submit.
  const [outsideLimits, setOutsideLimits] = useState(false);
  const onError = (reason: string | null) => {
    if (holds.current === 0) return;
    const outside = !!reason && reason !== 'invalidDate';
    setOutsideLimits(outside);
    if (outside) void trigger(source);
  };
  const min = resolveLimit(limits?.min);
  const max = resolveLimit(limits?.max);
  const disabledDays = limits?.disabledWeekdays ?? [];
  const showError = fieldState.invalid && (fieldState.isTouched || formState.isSubmitted || outsideLimits);
  const close = () => {
    closedUnpressed.current = true;
    setOpen(false);
    // The form validates on submit only: a refused date is said next to the field as soon as it is left.
    if (field.value === INVALID) void trigger(source);
  };
  const common = {
    value,
    onChange: store,
    onError,
    open,
    onOpen: () => setOpen(true),
    onClose: () => {
      close();
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
    slots: { textField: HandBackAwareTextField },
    slotProps: {
      textField: {
        id,
        name: field.name,
        // Not `required`: MUI would put it on the hidden, unfocusable input, so the browser would block the submit
        // silently (no message next to the field); the form's validator reports it instead. FieldTitle shows the *.
        fullWidth: true,
        size: 'small' as const,
        // Filled and dense, like react-admin's other inputs.
        variant: 'filled' as const,
        margin: 'dense' as const,
        error: showError,
        onFocus: () => {
          if (!closedUnpressed.current) setOpen(true);
        },
        // A click is the user asking for the calendar, even in a field that kept the focus when the picker closed
        // (Escape, or a Save that failed), where no focus event comes to open it.
        onClick: () => {
          if (!open) setOpen(true);
        },
        onBlur: (e: React.FocusEvent<HTMLElement>) => {
          // Moving between the field's own parts (year, month, day, the calendar button) is not leaving it.
          const to = e.relatedTarget;
          if (to instanceof Node && e.currentTarget.contains(to)) return;
          // Spec section 4: the picker closes on blur.
          if (open) {
            closedUnpressed.current = true;
            setOpen(false);
          }
          // A half-typed date (2027-02-DD) leaves the picker's value empty: say it is not a date rather than
          // silently saving nothing.
          const typed = hiddenInput.current?.value ?? '';
          if (typed && /[A-Za-z]/.test(typed) && (field.value == null || field.value === '')) {
            hold(INVALID, value);
            void trigger(source);
          } else if (field.value === INVALID) void trigger(source);
          field.onBlur();
        },
        inputRef: hiddenInput,
        helperText: (
          <InputHelperText error={showError ? (fieldState.error?.message as any) : undefined} helperText={helperText} />
        ),
      },
      field: {
        clearable: limits?.clearable !== false && !isRequired,
        onClear: () => {
          typed.clear();
          store(null);
        },
      },
      // Clicks in the calendar keep the focus in the field, so leaving the field is what closes the picker.
      // A date chosen there replaces whatever was typed out of range.
      desktopPaper: {
        onMouseDown: (e: React.MouseEvent) => {
          e.preventDefault();
          typed.clear();
        },
      },
      actionBar: { actions: (limits?.clearable !== false && !isRequired ? ['clear'] : []) as 'clear'[] },
    },
    label: <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />,
    sx: { minWidth: 220 },
  };
  // A part typed out of range is refused at once, and a part typed again in range accepts what the field holds:
  // MUI reports no change when the field goes on to show the date it already held (13 in the month of a March
  // date shows 03). The picker keeps its value, so its parts are untouched and the key is applied as usual.
  // An emptied part may leave MUI's value as it was (a half-typed date is null to it), so then the refusal is
  // stored here, with the very date the picker holds so that its parts are left as they are.
  const onKeyDownCapture = (e: React.KeyboardEvent) => {
    // Escape in the field closes the open picker and nothing else: MUI closes it from a listener on the document,
    // which the key reaches only after a dialog around the field has taken it as "close the dialog". So the key
    // stops here, and the picker is closed here; the focus stays in the field.
    if (e.key === 'Escape' && open) {
      e.stopPropagation();
      close();
      return;
    }
    const before = typed.bad.current.size > 0;
    const published = holds.current;
    typed.onKeyDownCapture(e);
    if (typed.bad.current.size > 0 !== before && holds.current === published) store(value);
  };
  const wrap = (picker: React.ReactNode) => (
    // Each picker brings its own adapter context, so the engine needs nothing mounted around the app.
    <DatePickerProvider>
      <Box component="span" onKeyDownCapture={onKeyDownCapture} sx={{ display: 'contents' }}>
        {picker}
      </Box>
    </DatePickerProvider>
  );
  if (kind === 'time') {
    // Spec: the time picker is 24-hour with 60 minutes; typed as HH:mm.
    return wrap(
      <TimePicker
        {...common}
        format={TIME_FORMAT}
        views={['hours', 'minutes']}
        ampm={false}
        timeSteps={{ minutes: 1 }}
        shouldDisableTime={shouldDisableTime}
      />,
    );
  }
  const dates = {
    minDate: min,
    maxDate: max,
    shouldDisableDate: (d: Date) => disabledDays.includes(d.getDay()) || !!shouldDisableDate?.(d),
    dayOfWeekFormatter: (d: Date) => format(d, 'EE'),
    yearsPerRow: 3 as const,
  };
  if (kind === 'datetime') {
    return wrap(
      <DateTimePicker
        {...common}
        {...dates}
        openTo="day"
        slotProps={{ ...common.slotProps, layout: { sx: TIMES_UNDER_THE_CALENDAR } }}
        format={DATE_TIME_FORMAT}
        views={[...viewsFor('day'), 'hours', 'minutes']}
        ampm={false}
        timeSteps={{ minutes: 1 }}
        shouldDisableTime={shouldDisableTime}
      />,
    );
  }
  return wrap(
    <DatePicker
      {...common}
      {...dates}
      format={DATE_FORMAT}
      views={viewsFor(limits?.minView)}
      openTo={limits?.minView && limits.minView !== 'day' ? limits.minView : 'day'}
    />,
  );
}
