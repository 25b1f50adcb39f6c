import { useCallback, useMemo, useRef, useState } from 'react';
import { Box, Card, CardContent, ToggleButton, ToggleButtonGroup, useMediaQuery, type Theme } from '@mui/material';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import type {
  DatesSetArg,
  EventClickArg,
  EventContentArg,
  EventDropArg,
  EventInput,
  EventMountArg,
  EventSourceFuncArg,
} from '@fullcalendar/core';
import type { EventResizeDoneArg } from '@fullcalendar/interaction';
import { Title, useNotify, useTranslate } from 'react-admin';
import { useAddressState } from '../../engine/react/addressState';
import { api } from '../../providers/http';
import { isPlainDate } from '../../../core/domain/time/agencyTime';
import { fromCalendarTime, toCalendarTime } from './calendarTime';
import {
  Legend,
  MoveConfirmDialog,
  MoveRefusalAlert,
  ScheduleFilterBar,
  ShiftDialog,
  moveShift,
  movable,
  refusalOf,
  scheduleQuery,
  shiftTitle,
  stateOf,
  type MoveRefusal,
  type ScheduleFilters,
  type ScheduledShift,
} from './ScheduleParts';
import { StaffWeek } from './StaffWeek';
import { STATUS_COLOURS, shiftWhen, unwrap, useAgencyTimeZone } from './shared';

/** The shifts of a range, as calendar events on the agency's wall clock (see calendarTime.ts). */
export function toEvents(
  shifts: ScheduledShift[],
  tz: string,
  opts: { editable: boolean; openText: string },
): EventInput[] {
  return shifts.map((s) => {
    const colour = STATUS_COLOURS[stateOf(s)] ?? STATUS_COLOURS.open;
    return {
      id: String(s.id),
      title: shiftTitle(s, opts.openText),
      start: toCalendarTime(s.start_at, tz),
      end: toCalendarTime(s.end_at, tz),
      backgroundColor: colour,
      borderColor: colour,
      textColor: '#ffffff',
      editable: opts.editable && movable(s),
      extendedProps: { shift: s },
    };
  });
}

/**
 * The schedule (/schedule, and the client panel's /client/schedule): FullCalendar's day, week and month views
 * with the shifts coloured by state, and our own staff week (one row per staff member). Events are fetched for
 * the visible range from GET /api/schedule with the filters; dragging or resizing moves the shift through the
 * move action (the same booking checks), and a refusal puts it back and says why. Read-only for client users.
 */
const CALENDAR_VIEWS = ['timeGridDay', 'timeGridWeek', 'dayGridMonth'];
/**
 * On a phone a week's or a month's seven columns are about 20 px wide (a shift read "Regis Menta Healt Nurse"), so the
 * calendar shows one day at a time there, whatever view a shared address asks for (issue 30 point 7).
 */
const PHONE_VIEWS = ['timeGridDay'];
/** The view each kind of screen opens in, kept out of the address. */
const defaultViewFor = (phone: boolean) => (phone ? 'timeGridDay' : 'timeGridWeek');
const FILTER_KEYS = ['client_id', 'site_id', 'job_role_id', 'candidate_id'] as const;

/** The filters written in the address (whole positive numbers only). */
function filtersFromParams(params: URLSearchParams): ScheduleFilters {
  const out: ScheduleFilters = {};
  for (const k of FILTER_KEYS) {
    const v = Number(params.get(k));
    if (Number.isInteger(v) && v > 0) out[k] = v;
  }
  return out;
}

export function Schedule({ panel }: { panel: 'agency' | 'client' }) {
  const translate = useTranslate();
  const notify = useNotify();
  const tz = useAgencyTimeZone();
  const [opened, setOpened] = useState<ScheduledShift | null>(null);
  const [refusal, setRefusal] = useState<MoveRefusal | null>(null);
  const calendar = useRef<FullCalendar>(null);
  // The view lives in the address (?date=yyyy-MM-dd&view=staff&client_id=…): a reload, a bookmark, Back and a link
  // from elsewhere open the same dates, layout and filters, and switching layout keeps the date.
  const [params, update] = useAddressState();
  const asked = params.get('date');
  const mode: 'calendar' | 'staff' = params.get('view') === 'staff' ? 'staff' : 'calendar';
  // Known at the first render (noSsr): the calendar must not draw a week first and then swap it for a day.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const offeredViews = phone ? PHONE_VIEWS : CALENDAR_VIEWS;
  const defaultView = defaultViewFor(phone);
  const calendarView = offeredViews.includes(params.get('range') ?? '') ? params.get('range')! : defaultView;
  const filterKey = FILTER_KEYS.map((k) => params.get(k) ?? '').join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new date must not refetch as if the filters changed
  const filters = useMemo(() => filtersFromParams(params), [filterKey]);
  const setFilters = (f: ScheduleFilters) =>
    update({ client_id: f.client_id, site_id: f.site_id, job_role_id: f.job_role_id, candidate_id: f.candidate_id });
  const setMode = (v: 'calendar' | 'staff') => update({ view: v === 'staff' ? 'staff' : null });
  // The filters that can hide a booking a move clashes with (the staff filter keeps the rows dragged between).
  const clearFilters = () => {
    setRefusal(null);
    update({ client_id: null, site_id: null, job_role_id: null });
  };
  const editable = panel === 'agency';
  const openText = translate('app.schedule.open_shift');

  // A new function (new filters, the zone known) makes FullCalendar fetch the visible range again.
  const events = useCallback(
    (info: EventSourceFuncArg, success: (e: EventInput[]) => void, failure: (e: Error) => void) => {
      if (!tz) return success([]);
      const query = scheduleQuery(fromCalendarTime(info.start, tz), fromCalendarTime(info.end, tz), filters);
      api(`/schedule?${query}`, {})
        .then((r) => success(toEvents(unwrap<ScheduledShift[]>(r), tz, { editable, openText })))
        .catch((e) => failure(e));
    },
    [tz, filters, editable, openText],
  );
  const [reloads, setReloads] = useState(0);
  const refetch = () => {
    calendar.current?.getApi().refetchEvents();
    setReloads((n) => n + 1);
  };

  // Moving a booked shift changes a staff member's and a client's day: the user confirms it first (MoveConfirmDialog).
  const [pending, setPending] = useState<EventDropArg | EventResizeDoneArg | null>(null);
  const onMove = (info: EventDropArg | EventResizeDoneArg) => {
    const s = info.event.extendedProps.shift as ScheduledShift;
    if (s?.candidate_id) setPending(info);
    else void move(info);
  };
  const move = async (info: EventDropArg | EventResizeDoneArg) => {
    const start = info.event.start;
    const end = info.event.end;
    if (!tz || !start || !end) return info.revert();
    setRefusal(null);
    try {
      await moveShift(info.event.id, { start: fromCalendarTime(start, tz), end: fromCalendarTime(end, tz) });
      notify('app.schedule.moved', { type: 'success' });
      refetch();
    } catch (e: any) {
      info.revert();
      const refused = refusalOf(e, filters, translate('app.schedule.move_failed'));
      setRefusal(refused);
      notify(refused.message, { type: 'error', messageArgs: { _: refused.message } });
    }
  };

  // Events take the keyboard focus and open with Enter; their name says the state in words, not only colour.
  const mounted = (arg: EventMountArg) => {
    const s = arg.event.extendedProps.shift as ScheduledShift;
    arg.el.setAttribute('tabindex', '0');
    arg.el.setAttribute('role', 'button');
    // The name starts with what the event shows (eventContent below), so that speech users can say it (WCAG 2.5.3).
    const shown = [arg.timeText, arg.event.title].filter(Boolean).join(' ');
    arg.el.setAttribute(
      'aria-label',
      `${shown ? `${shown}. ` : ''}${translate(`app.schedule.states.${stateOf(s)}`)}: ${shiftWhen(s.start_at, s.end_at, tz)}, ${arg.event.title}`,
    );
    arg.el.dataset.shiftId = String(s.id);
    arg.el.onkeydown = (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        setOpened(s);
      }
    };
  };

  // FullCalendar's own block content with a space between the time and the title: without it, the text the event
  // shows runs "15:00Kitchen" together for assistive technology, and its name could not contain it (WCAG 2.5.3).
  // Between flex items the space takes no room.
  const eventContent = (arg: EventContentArg) => (
    <div className="fc-event-main-frame">
      {arg.timeText && <div className="fc-event-time">{arg.timeText}</div>}{' '}
      <div className="fc-event-title-container">
        <div className="fc-event-title fc-sticky">{arg.event.title || '\u00a0'}</div>
      </div>
    </div>
  );

  // A busy day stacks at most a few shifts side by side and offers "+n more" for the rest: a week of 2,000
  // shifts stays readable and draws in well under the 1.5 s budget (bench/scheduleBrowser.ts).
  const views = useMemo(
    () => ({
      timeGridDay: { buttonText: translate('app.schedule.day'), eventMaxStack: 8 },
      timeGridWeek: { buttonText: translate('app.schedule.week'), eventMaxStack: 3 },
      dayGridMonth: { buttonText: translate('app.schedule.month'), dayMaxEvents: 6 },
    }),
    [translate],
  );
  // FullCalendar's "+n more" is a link that opens a popover: a button to assistive technology (aria-expanded is
  // not allowed on a plain link).
  const moreMounted = (arg: { el: HTMLElement }) => {
    arg.el.setAttribute('role', 'button');
  };
  // The calendar says when the visible range is fetched and drawn (tests and the benchmark wait for it).
  const [ready, setReady] = useState(false);

  return (
    <Card sx={{ mt: 1 }}>
      <Title title={panel === 'agency' ? 'app.schedule.title' : 'app.schedule.client_title'} />
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1 }}>
          <ScheduleFilterBar filters={filters} onChange={setFilters} panel={panel} />
          {panel === 'agency' && (
            <ToggleButtonGroup
              size="small"
              exclusive
              value={mode}
              onChange={(_, v) => v && setMode(v)}
              aria-label={translate('app.schedule.layout')}
              sx={{ alignSelf: 'flex-start' }}
            >
              <ToggleButton value="calendar">{translate('app.schedule.calendar')}</ToggleButton>
              <ToggleButton value="staff">{translate('app.schedule.staff_week')}</ToggleButton>
            </ToggleButtonGroup>
          )}
        </Box>
        <Legend />
        {refusal && (
          <MoveRefusalAlert refusal={refusal} onClose={() => setRefusal(null)} onClearFilters={clearFilters} />
        )}
        {tz && mode === 'calendar' && (
          <Box sx={calendarSx} data-testid="schedule-calendar" data-ready={ready ? 'true' : 'false'}>
            <FullCalendar
              // A phone turned to a wide screen (or back) starts the calendar again in the view that fits.
              key={phone ? 'phone' : 'wide'}
              ref={calendar}
              plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
              // The agency's wall clock, fed as naive times (calendarTime.ts): no named-zone plugin needed.
              timeZone="UTC"
              initialView={calendarView}
              initialDate={isPlainDate(asked) ? asked : toCalendarTime(new Date(), tz).slice(0, 10)}
              datesSet={(info: DatesSetArg) => {
                const date = info.view.currentStart.toISOString().slice(0, 10);
                if (date !== asked || info.view.type !== calendarView)
                  update({ date, range: info.view.type === defaultView ? null : info.view.type });
              }}
              firstDay={1}
              locale="en-gb"
              headerToolbar={{
                left: 'prev,next today',
                center: 'title',
                right: phone ? '' : CALENDAR_VIEWS.join(','),
              }}
              views={views}
              // Words, not icon glyphs: FullCalendar's icons are unnamed images to a screen reader.
              buttonIcons={false}
              buttonText={{
                today: translate('app.schedule.today'),
                prev: translate('app.schedule.previous'),
                next: translate('app.schedule.next'),
              }}
              eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
              slotLabelFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
              scrollTime="06:00:00"
              height="auto"
              expandRows
              nowIndicator
              editable={editable}
              eventDurationEditable={editable}
              events={events}
              eventClick={(arg: EventClickArg) => setOpened(arg.event.extendedProps.shift as ScheduledShift)}
              eventContent={eventContent}
              eventDidMount={mounted}
              eventDrop={onMove}
              eventResize={onMove}
              moreLinkDidMount={moreMounted}
              loading={(busy: boolean) => setReady(!busy)}
              // Month cells draw every shift as a coloured block, never a bare dot.
              eventDisplay="block"
            />
          </Box>
        )}
        {tz && mode === 'staff' && (
          <StaffWeek
            tz={tz}
            filters={filters}
            onOpen={setOpened}
            onRefusal={setRefusal}
            initialDate={isPlainDate(asked) ? asked : undefined}
            onWeek={(date) => date !== asked && update({ date })}
            reloads={reloads}
          />
        )}
        {pending && tz && pending.event.start && pending.event.end && (
          <MoveConfirmDialog
            shift={pending.event.extendedProps.shift as ScheduledShift}
            to={{ start: fromCalendarTime(pending.event.start, tz), end: fromCalendarTime(pending.event.end, tz) }}
            tz={tz}
            onKeep={() => (pending.revert(), setPending(null))}
            onMove={() => (void move(pending), setPending(null))}
          />
        )}
        {opened && <ShiftDialog shift={opened} panel={panel} onClose={() => setOpened(null)} onChanged={refetch} />}
      </CardContent>
    </Card>
  );
}

// FullCalendar's own greys are too faint for WCAG AA on links and headings: darker text, and a visible focus.
const calendarSx = {
  '--fc-today-bg-color': 'rgba(21, 101, 192, 0.06)',
  '& .fc a': { color: 'text.primary' },
  '& .fc .fc-col-header-cell-cushion, & .fc .fc-daygrid-day-number, & .fc .fc-timegrid-slot-label-cushion': {
    color: 'text.primary',
  },
  '& .fc .fc-button-primary': { bgcolor: '#1f2d3d', borderColor: '#1f2d3d' },
  '& .fc .fc-button-primary:disabled': { bgcolor: '#455a64', borderColor: '#455a64', opacity: 1 },
  '& .fc .fc-button-primary:not(:disabled).fc-button-active': { bgcolor: '#0d47a1', borderColor: '#0d47a1' },
  '& .fc .fc-event:focus-visible': { outline: '3px solid #ff9800', outlineOffset: '1px' },
  '& .fc .fc-event .fc-event-main, & .fc .fc-event .fc-event-time, & .fc .fc-event .fc-event-title': {
    color: '#ffffff',
  },
  '& .fc .fc-daygrid-event-dot': { display: 'none' },
  // Days of the neighbouring months stay readable (FullCalendar fades them to 30%).
  '& .fc .fc-day-other .fc-daygrid-day-top': { opacity: 1 },
  '& .fc .fc-day-other .fc-daygrid-day-number': { color: 'text.secondary' },
  '& .fc .fc-toolbar-title': { fontSize: '1.25rem' },
};

export default Schedule;
