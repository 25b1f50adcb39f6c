import { act, configure, getConfig, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dialog } from '@mui/material';
import { AdminContext, Form, ResourceContextProvider } from 'react-admin';
import {
  fromPickerValue,
  PickerInput,
  toPickerValue,
  viewsFor,
  type PickerInputProps,
} from '../../../src/engine/react/DatePickerInput';
import { formValidator } from '../../../src/engine/react/formErrors';
import type { DateLimits, FieldDeclaration, ResourceDeclaration } from '../../../core/engine/types';
import { i18nProvider } from '../../../src/i18n/i18nProvider';

// The spec's date picker (sections 4, 5 and 9): MUI X pickers on date-fns, en-GB, yyyy-MM-dd, opening on focus.
// Queries inside the open picker use getByText / querySelector: getByRole over the whole calendar is slow in jsdom.

vi.setConfig({ testTimeout: 30_000 });

function decl(field: FieldDeclaration): ResourceDeclaration {
  return {
    name: 'things',
    table: 'things',
    label: { one: 'Thing', many: 'Things' },
    recordRepresentation: '%{id}',
    defaultSort: { field: 'id', order: 'ASC' },
    access: {},
    delete: 'hard',
    fields: [field],
  };
}

interface Setup {
  value?: unknown;
  limits?: DateLimits;
  withTime?: boolean;
  required?: boolean;
  props?: Partial<PickerInputProps>;
}

function setup({ value = '2026-03-10', limits, withTime = false, required = false, props }: Setup = {}) {
  const user = userEvent.setup({ delay: null });
  const onSubmit = vi.fn();
  const field: FieldDeclaration = {
    source: 'd',
    label: 'Start',
    type: withTime ? 'datetime' : 'date',
    required,
    date: limits,
  };
  render(
    <AdminContext i18nProvider={i18nProvider}>
      <ResourceContextProvider value="things">
        <Form
          defaultValues={{ d: value }}
          onSubmit={(v: Record<string, unknown>) => onSubmit(v)}
          validate={formValidator(decl(field), [])}
        >
          <PickerInput source="d" label="Start" limits={limits} withTime={withTime} isRequired={required} {...props} />
          <button type="submit">Go</button>
        </Form>
      </ResourceContextProvider>
    </AdminContext>,
  );
  const sections = () => screen.getAllByRole('spinbutton');
  const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]');
  const open = async () => {
    await user.click(sections()[0]);
    await waitFor(() => expect(dialog()).not.toBeNull());
    return dialog()!;
  };
  const day = (n: number) => within(dialog()!).getByText(String(n), { selector: 'button[role="gridcell"]' });
  /** Types into the field's sections, starting at the year (opening on focus moves focus into the calendar). */
  const type = async (keys: string) => {
    await user.click(sections()[0]);
    act(() => sections()[0].focus());
    await user.keyboard(keys);
  };
  const submit = async () => {
    await user.click(screen.getByText('Go'));
  };
  const submitted = () => onSubmit.mock.calls.at(-1)?.[0];
  return { user, onSubmit, sections, dialog, open, day, type, submit, submitted };
}

describe('pure helpers', () => {
  it('viewsFor: year → month → day, stopping at the minimum view', () => {
    expect(viewsFor()).toEqual(['year', 'month', 'day']);
    expect(viewsFor('day')).toEqual(['year', 'month', 'day']);
    expect(viewsFor('month')).toEqual(['year', 'month']);
    expect(viewsFor('year')).toEqual(['year']);
  });
  it('toPickerValue: strict dates, ISO date-times, null for empty, Invalid Date for rejected text', () => {
    expect(toPickerValue('2026-03-09', 'date')).toEqual(new Date(2026, 2, 9));
    expect(toPickerValue('', 'date')).toBeNull();
    expect(toPickerValue(null, 'date')).toBeNull();
    expect(Number.isNaN(toPickerValue('2026-02-31', 'date')!.getTime())).toBe(true);
    expect(Number.isNaN(toPickerValue('2026-2-3', 'date')!.getTime())).toBe(true);
    expect(Number.isNaN(toPickerValue('Invalid date', 'date')!.getTime())).toBe(true);
    expect(toPickerValue('2026-03-09T14:30:00.000Z', 'datetime')).toEqual(new Date('2026-03-09T14:30:00.000Z'));
    // A wall-clock time alone is 24-hour HH:mm; 8pm, 24:00 and 8:00 are not.
    expect(toPickerValue('20:30', 'time')).toEqual(new Date(2000, 0, 1, 20, 30));
    for (const bad of ['8pm', '24:00', '8:00', '08:00 PM'])
      expect(Number.isNaN(toPickerValue(bad, 'time')!.getTime()), bad).toBe(true);
  });
  it('fromPickerValue: yyyy-MM-dd for dates, ISO with seconds 0 for date-times, a marker for invalid typing', () => {
    expect(fromPickerValue(new Date(2026, 2, 9, 23, 59), 'date')).toBe('2026-03-09');
    expect(fromPickerValue(null, 'date')).toBeNull();
    expect(fromPickerValue(new Date(2026, 2, 9, 14, 30, 45, 123), 'datetime')).toBe(
      new Date(2026, 2, 9, 14, 30, 0, 0).toISOString(),
    );
    expect(fromPickerValue(new Date(2026, 2, 9, 20, 5), 'time')).toBe('20:05');
    const invalid = fromPickerValue(new Date(Number.NaN), 'date');
    expect(typeof invalid).toBe('string');
    // The marker is refused by the form's validation, so an unparsable typed date is never stored.
    expect(formValidator(decl({ source: 'd', label: 'D', type: 'date' }), [])({ d: invalid })).toEqual({
      d: { message: 'engine.validation.date', args: {} },
    });
  });
});

describe('PickerInput (date)', () => {
  it('opens on focus, weeks start Monday with EE weekday headers, and the day heading is LLLL yyyy', async () => {
    const t = setup();
    expect(t.dialog()).toBeNull();
    const dialog = await t.open();
    const headers = [...dialog.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent);
    expect(headers).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(within(dialog).getByText('March 2026')).toBeInTheDocument();
    // 1 March 2026 is a Sunday: in a Monday-first grid it is in the 7th column.
    expect(t.day(1)).toHaveAttribute('aria-colindex', '7');
    expect(t.day(2)).toHaveAttribute('aria-colindex', '1');
    expect(t.day(10)).toHaveAttribute('aria-selected', 'true');
  });

  it('choosing a day stores yyyy-MM-dd in the form', async () => {
    const t = setup();
    await t.open();
    await t.user.click(t.day(12));
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['2026', '03', '12']));
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: '2026-03-12' });
  });

  // Spec section 4: choosing in the last view closes the picker. MUI then hands focus back to the field, whose
  // focus opens the picker: it must stay closed.
  it('choosing a day closes the picker and it stays closed', async () => {
    const t = setup();
    await t.open();
    await t.user.click(t.day(12));
    await waitFor(() => expect(t.dialog()).toBeNull()); // after the closing transition: setup.ts's timeout
    // The focus is back in the field (the moment that could reopen it) before the picker is seen to stay closed.
    await waitFor(() => expect(t.sections()).toContain(document.activeElement));
    expect(t.dialog()).toBeNull();
  });

  it('closes when the field loses the focus (spec section 4: opens on focus, closes on blur)', async () => {
    const t = setup({ value: null });
    await t.open();
    // The field must hold the focus before it can lose it: the dialog can show before the focus settles back in the
    // field, and blurring whatever held it then (under load, the body or the calendar) is not leaving the field.
    await waitFor(() => expect(t.sections()).toContain(document.activeElement));
    act(() => (document.activeElement as HTMLElement).blur());
    await waitFor(() => expect(t.dialog()).toBeNull()); // after the closing transition: setup.ts's timeout
  });

  it('the focus MUI hands back after the picker closed does not open it again, however late it comes', async () => {
    const t = setup();
    await t.open();
    await waitFor(() => expect(t.sections()).toContain(document.activeElement));
    act(() => screen.getByText('Go').focus());
    await waitFor(() => expect(t.dialog()).toBeNull()); // after the closing transition: setup.ts's timeout
    // A busy machine: the hand-back comes a second later, with no key or pointer pressed since (the focus first
    // taken away again, wherever an earlier hand-back left it).
    act(() => screen.getByText('Go').focus());
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 1_000);
      act(() => t.sections()[0].focus());
    } finally {
      vi.useRealTimers();
    }
    expect(t.dialog()).toBeNull();
    // A click is the user asking: the picker opens, so its absence before was not a slow render.
    await t.user.click(t.sections()[0]);
    await waitFor(() => expect(t.dialog()).not.toBeNull());
  });

  it('the focus MUI hands back to a field the user has left stays where the user put it', async () => {
    const t = setup();
    await t.open();
    await waitFor(() => expect(t.sections()).toContain(document.activeElement));
    const go = screen.getByText('Go');
    // Every timer the close sets, MUI's hand-back among them, runs below: as late as a busy machine runs it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Moved on without a key or a pointer (a test's fill, a screen reader's jump): the picker closes on the blur.
      act(() => go.focus());
      act(() => vi.advanceTimersByTime(1_000));
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(t.dialog()).toBeNull());
    expect(document.activeElement).toBe(go);
  });

  it('the focus MUI hands back when it fell to the page goes back into the field, which stays closed', async () => {
    const t = setup();
    await t.open();
    await waitFor(() => expect(t.sections()).toContain(document.activeElement));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Nowhere the user put it (a click on the page's background): the keyboard comes back to the field.
      act(() => (document.activeElement as HTMLElement).blur());
      expect(document.activeElement).toBe(document.body);
      act(() => vi.advanceTimersByTime(1_000));
    } finally {
      vi.useRealTimers();
    }
    expect(t.sections()).toContain(document.activeElement);
    await waitFor(() => expect(t.dialog()).toBeNull());
    expect(t.sections()).toContain(document.activeElement);
  });

  it('a hand-back while the user types in another date field loses none of their digits', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <ResourceContextProvider value="things">
          <Form defaultValues={{ a: '2026-03-10', b: '2026-03-20' }}>
            <PickerInput source="a" label="From" />
            <PickerInput source="b" label="To" />
          </Form>
        </ResourceContextProvider>
      </AdminContext>,
    );
    const [from, to] = [screen.getByRole('group', { name: 'From' }), screen.getByRole('group', { name: 'To' })];
    const parts = (g: HTMLElement) => within(g).getAllByRole('spinbutton');
    const popper = () => document.querySelector<HTMLElement>('.MuiPickerPopper-root');
    await user.click(parts(from)[0]);
    await waitFor(() => expect(within(popper()!).getByText('March 2026')).toBeInTheDocument());
    // The user moves on to the second field and starts its year; the first field's hand-back comes after the first
    // digit (a busy machine), the other digits after it. (Testing Library ends each user action by waiting for a
    // timer, which must not run the hand-back early.)
    const { asyncWrapper } = getConfig();
    configure({ asyncWrapper: (action) => action() });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      act(() => parts(to)[0].focus());
      await act(() => user.keyboard('2'));
      act(() => vi.advanceTimersByTime(1_000));
      await act(() => user.keyboard('027'));
    } finally {
      vi.useRealTimers();
      configure({ asyncWrapper });
    }
    expect(parts(to)[0]).toHaveTextContent('2027');
    expect(parts(to)).toContain(document.activeElement);
    // The picker the user opened stays open, showing the field's date.
    await waitFor(() => expect(document.querySelectorAll('.MuiPickerPopper-root')).toHaveLength(1));
    expect(within(popper()!).getByRole('gridcell', { name: '20', selected: true })).toBeInTheDocument();
  });

  it('after the picker closed, coming back to the field by keyboard opens it on the focus again', async () => {
    const t = setup();
    await t.open();
    await t.user.click(t.day(12));
    await waitFor(() => expect(t.dialog()).toBeNull()); // after the closing transition: setup.ts's timeout
    await waitFor(() => expect(t.sections()).toContain(document.activeElement));
    // Tab out to the button, then Shift+Tab back: keys pressed since the close, so this focus is the user's.
    const go = screen.getByText('Go');
    while (document.activeElement !== go) await t.user.tab();
    expect(t.dialog()).toBeNull();
    // Shift+Tab passes the calendar button (Enter opens it there) on its way into the date's parts.
    for (let i = 0; i < 3 && !t.sections().includes(document.activeElement as HTMLElement); i++)
      await t.user.tab({ shift: true });
    expect(t.sections()).toContain(document.activeElement);
    await waitFor(() => expect(t.dialog()).not.toBeNull());
  });

  it('a click in the field opens the picker again after Escape closed it, though the field kept the focus', async () => {
    const t = setup();
    await t.open();
    await waitFor(() => expect(t.sections()).toContain(document.activeElement));
    await t.user.keyboard('{Escape}');
    await waitFor(() => expect(t.dialog()).toBeNull()); // after the closing transition: setup.ts's timeout
    expect(t.sections()).toContain(document.activeElement);
    await t.user.click(t.sections()[1]);
    await waitFor(() => expect(t.dialog()).not.toBeNull());
  });

  it('keeps the keyboard in the field while open, so a date can be typed straight away', async () => {
    const t = setup({ value: null });
    await t.open();
    expect(t.sections()).toContain(document.activeElement);
  });

  it('a half-typed date is reported when the field is left, not silently saved empty', async () => {
    const t = setup({ value: null });
    await t.type('1999');
    await t.user.click(screen.getByText('Go'));
    expect(await screen.findByText('Enter a date as yyyy-MM-dd')).toBeInTheDocument();
    expect(t.onSubmit).not.toHaveBeenCalled();
  });

  it('the field shows yyyy-MM-dd sections', () => {
    const t = setup({ value: '2026-03-09' });
    expect(t.sections().map((s) => [s.getAttribute('aria-label'), s.textContent])).toEqual([
      ['Year', '2026'],
      ['Month', '03'],
      ['Day', '09'],
    ]);
  });

  it('typing a valid yyyy-MM-dd date sets it', async () => {
    const t = setup({ value: null });
    await t.type('20270421');
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['2027', '04', '21']));
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: '2027-04-21' });
  });

  it('typing an impossible date (2026-02-31) is refused with "Enter a date as yyyy-MM-dd" and nothing is submitted', async () => {
    const t = setup();
    await t.type('20260231');
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['2026', '02', '31']));
    await t.submit();
    expect(await screen.findByText('Enter a date as yyyy-MM-dd')).toBeInTheDocument();
    expect(t.onSubmit).not.toHaveBeenCalled();
  });

  it('typing a month and day out of range (2025-13-99) is refused, never rolled over to 2025-03-09', async () => {
    const t = setup({ value: null });
    await t.type('20251399');
    // The digits that overflow never reach the field: each of those parts is shown emptied, not restarted.
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['2025', 'MM', 'DD']));
    await t.submit();
    expect(await screen.findByText('Enter a date as yyyy-MM-dd')).toBeInTheDocument();
    expect(t.onSubmit).not.toHaveBeenCalled();
  });

  it('after an out-of-range part, typing the part again correctly is accepted', async () => {
    const t = setup({ value: null });
    await t.type('20251399');
    await t.type('20250309');
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: '2025-03-09' });
  });

  it('after an impossible date is reported on leaving the field, typing a real one clears the message', async () => {
    const t = setup({ value: null });
    await t.type('20000231');
    await t.user.tab();
    await t.user.tab();
    expect(await screen.findByText('Enter a date as yyyy-MM-dd')).toBeInTheDocument();
    expect(t.onSubmit).not.toHaveBeenCalled();
    await t.type('19900517');
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['1990', '05', '17']));
    await waitFor(() => expect(screen.queryByText('Enter a date as yyyy-MM-dd')).toBeNull());
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: '1990-05-17' });
  });

  it('a stored impossible date (2026-02-31) is refused, not silently moved to March', async () => {
    const t = setup({ value: '2026-02-31' });
    await t.submit();
    expect(await screen.findByText('Enter a date as yyyy-MM-dd')).toBeInTheDocument();
    expect(t.onSubmit).not.toHaveBeenCalled();
  });

  it('lower and upper limits disable the days outside them', async () => {
    const t = setup({ limits: { min: '2026-03-05', max: '2026-03-20' } });
    await t.open();
    expect(t.day(4)).toBeDisabled();
    expect(t.day(5)).toBeEnabled();
    expect(t.day(20)).toBeEnabled();
    expect(t.day(21)).toBeDisabled();
    expect(within(t.dialog()!).getByLabelText('Previous month')).toBeDisabled();
    expect(within(t.dialog()!).getByLabelText('Next month')).toBeDisabled();
  });

  it('a typed date outside the limits is refused next to the field as soon as it is whole, before leaving it (issue 14.8)', async () => {
    const t = setup({ value: null, limits: { min: '2026-03-05' } });
    await t.type('20260304');
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['2026', '03', '04']));
    // Still in the field: the message is there already.
    expect(await screen.findByText('Must be on or after 2026-03-05')).toBeInTheDocument();
    expect(document.activeElement?.closest('[role="group"]')).not.toBeNull();
    await t.type('20260305');
    await waitFor(() => expect(screen.queryByText('Must be on or after 2026-03-05')).toBeNull());
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: '2026-03-05' });
  });

  it('disabled weekdays cannot be chosen (weekends here)', async () => {
    const t = setup({ limits: { disabledWeekdays: [0, 6] } });
    await t.open();
    expect(t.day(14)).toBeDisabled(); // Saturday
    expect(t.day(15)).toBeDisabled(); // Sunday
    expect(t.day(13)).toBeEnabled(); // Friday
    expect(t.day(16)).toBeEnabled(); // Monday
  });

  it('extra disabled dates (shouldDisableDate) are disabled too', async () => {
    const t = setup({ props: { shouldDisableDate: (d: Date) => d.getDate() === 25 } });
    await t.open();
    expect(t.day(25)).toBeDisabled();
    expect(t.day(24)).toBeEnabled();
  });

  it("minimum view 'month' opens on the month list (LLL) with no day grid", async () => {
    const t = setup({ limits: { minView: 'month' } });
    const dialog = await t.open();
    expect(within(dialog).getByText('Mar', { selector: 'button' })).toBeInTheDocument();
    expect(dialog.querySelector('[role="grid"] [role="columnheader"]')).toBeNull();
  });

  it('clearing an optional date stores null', async () => {
    const t = setup();
    const dialog = await t.open();
    await t.user.click(within(dialog).getByText('Clear'));
    await waitFor(() => expect(t.sections().every((s) => !/\d/.test(s.textContent ?? ''))).toBe(true));
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: null });
  });

  it('a required date offers no Clear', async () => {
    const t = setup({ required: true });
    const dialog = await t.open();
    expect(within(dialog).queryByText('Clear')).toBeNull();
    expect(within(dialog).getByRole('grid')).toBeInTheDocument();
  });

  it('an empty required date is reported as required and not submitted', async () => {
    const t = setup({ required: true, value: null });
    // One asterisk on the label, and no native `required` on the hidden input (it would block the submit unseen).
    expect(document.querySelector('label')!.textContent?.match(/\*/g)).toHaveLength(1);
    expect(document.querySelector('input[name="d"]')).not.toHaveAttribute('required');
    await t.submit();
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(t.onSubmit).not.toHaveBeenCalled();
  });
});

describe('PickerInput (date-time)', () => {
  it('uses 24-hour time: yyyy-MM-dd HH:mm sections, no AM/PM', async () => {
    const t = setup({ withTime: true, value: new Date(2026, 2, 10, 15, 45, 30).toISOString() });
    const s = t.sections();
    expect(s.map((x) => x.getAttribute('aria-label'))).toEqual(['Year', 'Month', 'Day', 'Hours', 'Minutes']);
    expect(s.map((x) => x.textContent)).toEqual(['2026', '03', '10', '15', '45']);
    expect(s[3]).toHaveAttribute('aria-valuemax', '23');
    const dialog = await t.open();
    expect(within(dialog).queryByText(/^(AM|PM)$/)).toBeNull();
    expect(within(dialog).getAllByText('23').length).toBeGreaterThan(0);
  });

  it('stores an ISO date-time with seconds 0', async () => {
    const t = setup({ withTime: true, value: new Date(2026, 2, 10, 15, 45, 30, 500).toISOString() });
    await t.open();
    await t.user.click(t.day(12));
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: new Date(2026, 2, 12, 15, 45, 0, 0).toISOString() });
  });

  it('typing a date and time in 24-hour form sets it', async () => {
    const t = setup({ withTime: true, value: null });
    await t.type('202704211730');
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['2027', '04', '21', '17', '30']));
    await t.submit();
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.submitted()).toEqual({ d: new Date(2027, 3, 21, 17, 30, 0, 0).toISOString() });
  });
});

describe('PickerInput (time of day)', () => {
  function setupTime(value: string | null) {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <ResourceContextProvider value="things">
          <Form defaultValues={{ t: value }} onSubmit={(v: Record<string, unknown>) => onSubmit(v)}>
            <PickerInput source="t" label="Starts at" timeOnly />
            <button type="submit">Go</button>
          </Form>
        </ResourceContextProvider>
      </AdminContext>,
    );
    return { user, onSubmit, sections: () => screen.getAllByRole('spinbutton') };
  }

  it('is the 24-hour HH:mm picker (no AM/PM), never the browser’s time input', async () => {
    const t = setupTime('20:00');
    expect(document.querySelector('input[type="time"]')).toBeNull();
    expect(t.sections().map((x) => [x.getAttribute('aria-label'), x.textContent])).toEqual([
      ['Hours', '20'],
      ['Minutes', '00'],
    ]);
    expect(t.sections()[0]).toHaveAttribute('aria-valuemax', '23');
    await t.user.click(t.sections()[0]);
    const picker = await waitFor(() => document.querySelector<HTMLElement>('.MuiPickerPopper-root')!);
    expect(within(picker).queryByText(/^(AM|PM)$/)).toBeNull();
    expect(within(picker).getAllByText('23').length).toBeGreaterThan(0);
  });

  it('typing 0745 stores 07:45', async () => {
    const t = setupTime(null);
    await t.user.click(t.sections()[0]);
    act(() => t.sections()[0].focus());
    await t.user.keyboard('0745');
    await waitFor(() => expect(t.sections().map((s) => s.textContent)).toEqual(['07', '45']));
    await t.user.click(screen.getByText('Go'));
    await waitFor(() => expect(t.onSubmit).toHaveBeenCalled());
    expect(t.onSubmit.mock.calls.at(-1)?.[0]).toEqual({ t: '07:45' });
  });
});

describe('PickerInput in a dialog', () => {
  it('Escape closes the open picker only; the dialog around it stays (a second Escape closes it)', async () => {
    const user = userEvent.setup({ delay: null });
    const onClose = vi.fn();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <ResourceContextProvider value="things">
          <Dialog open onClose={onClose}>
            <Form defaultValues={{ d: '2026-03-10' }}>
              <PickerInput source="d" label="Date" />
            </Form>
          </Dialog>
        </ResourceContextProvider>
      </AdminContext>,
    );
    const popper = () => document.querySelector('.MuiPickerPopper-root');
    await user.click(screen.getAllByRole('spinbutton')[0]);
    await waitFor(() => expect(popper()).not.toBeNull());
    await waitFor(() => expect(screen.getAllByRole('spinbutton')).toContain(document.activeElement));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(popper()).toBeNull());
    expect(onClose).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
