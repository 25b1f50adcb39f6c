import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Form, Title, useCanAccess, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { api } from '../../providers/http';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime';
import { InputFor } from '../../engine/react/inputs';
import { formValidator } from '../../engine/react/formErrors';
import { holidayOverrides } from '../../../core/resources/rates/resource';
import type { Holidays } from '../../../core/contracts/rates';

type Answer = Holidays;
type Day = Answer['regions'][number]['days'][number];

/** The fields a day of the agency's own is added with, checked as the API checks them. */
const ADD_FIELDS = ['region', 'date', 'name'].map((source) =>
  holidayOverrides.fields.find((f) => f.source === source)!,
);
const validateAdd = formValidator(holidayOverrides, []);

const weekday = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });

/**
 * /appsetting/holidaycalender: a year's bank holidays per region, from the library (with substitute days) and the
 * agency's own changes: a day added, a library day removed (and restored). Every control is a button or a field.
 */
export function HolidayCalendar() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider();
  const { canAccess: canChange } = useCanAccess({ resource: 'holiday_overrides', action: 'create' });
  const [year, setYear] = useState(() => new Date().getFullYear());
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A day added empties the form (a new one, keyed by the count), keeping the region chosen.
  const [added, setAdded] = useState({ count: 0, region: 'england_wales' });

  const load = useCallback(async () => {
    try {
      setAnswer(await api<Answer>(`/rates/holidays?year=${year}`));
      setError(null);
    } catch (e: any) {
      setError(e?.message ?? String(e));
    }
  }, [year]);
  useEffect(() => {
    void load();
  }, [load]);

  const change = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      notify(done, { type: 'info' });
      await load();
      return true;
    } catch (e: any) {
      notify(e?.message ?? 'ra.notification.http_error', { type: 'error' });
      return false;
    }
  };
  const remove = (region: string, day: Day) =>
    day.source === 'added' && day.override_id
      ? change(
          () =>
            dataProvider.delete('holiday_overrides', { id: day.override_id!, previousData: { id: day.override_id! } }),
          'app.holidays.removed',
        )
      : change(
          () =>
            dataProvider.create('holiday_overrides', {
              data: { region, date: day.date, name: day.name, kind: 'remove' },
            }),
          'app.holidays.removed',
        );
  const restore = (id: number) =>
    change(() => dataProvider.delete('holiday_overrides', { id, previousData: { id } }), 'app.holidays.restored');
  // The engine's own inputs for the declared fields: the product's date picker (yyyy-MM-dd), never the browser's.
  const add = async (values: Record<string, any>) => {
    try {
      await dataProvider.create('holiday_overrides', {
        data: { region: values.region, date: values.date, name: String(values.name).trim(), kind: 'add' },
      });
    } catch (e: any) {
      notify(e?.message ?? 'ra.notification.http_error', { type: 'error' });
      // The server's word on a field is said next to it.
      return e?.body?.errors;
    }
    notify('app.holidays.added', { type: 'info' });
    const addedYear = Number(String(values.date).slice(0, 4));
    if (addedYear !== year) setYear(addedYear);
    else await load();
    setAdded((a) => ({ count: a.count + 1, region: values.region }));
    return undefined;
  };

  return (
    <Box>
      <Title title={translate('app.settings_nav.holiday_calendar')} />
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flex: '1 1 auto' }}>
          {translate('app.holidays.title', { year })}
        </Typography>
        <Tooltip title={translate('app.holidays.previous_year')}>
          <IconButton aria-label={translate('app.holidays.previous_year')} onClick={() => setYear((y) => y - 1)}>
            <ChevronLeftIcon />
          </IconButton>
        </Tooltip>
        <TextField
          select
          size="small"
          fullWidth={false}
          label={translate('app.holidays.year')}
          value={year}
          onChange={(e) => setYear(Number(e.target.value))}
          sx={{ minWidth: 110 }}
        >
          {Array.from({ length: 11 }, (_, i) => year - 5 + i).map((y) => (
            <MenuItem key={y} value={y}>
              {y}
            </MenuItem>
          ))}
        </TextField>
        <Tooltip title={translate('app.holidays.next_year')}>
          <IconButton aria-label={translate('app.holidays.next_year')} onClick={() => setYear((y) => y + 1)}>
            <ChevronRightIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {canChange && (
        <Card component="section" aria-labelledby="add-holiday-heading" sx={{ mb: 2 }}>
          <CardContent>
            <Typography id="add-holiday-heading" variant="subtitle1" component="h2" gutterBottom>
              {translate('app.holidays.add_heading')}
            </Typography>
            <Form
              key={added.count}
              noValidate
              defaultValues={{ region: added.region, date: null, name: '', kind: 'add' }}
              validate={validateAdd}
              onSubmit={add}
            >
              <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2, alignItems: 'flex-start' }}>
                {ADD_FIELDS.map((f) => (
                  <Box key={f.source} sx={{ minWidth: 200 }}>
                    <InputFor of={f} resource="holiday_overrides" />
                  </Box>
                ))}
                <Button type="submit" variant="contained" sx={{ mt: 1.5 }}>
                  {translate('app.holidays.add')}
                </Button>
              </Stack>
            </Form>
          </CardContent>
        </Card>
      )}
      {/* Side by side only where each region's table fits with its Remove buttons (the settings menu takes room). */}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 380px), 1fr))' }}>
        {answer?.regions.map((r) => (
          <Card key={r.region} component="section" aria-labelledby={`holidays-${r.region}`}>
            <CardContent>
              <Typography id={`holidays-${r.region}`} variant="h6" component="h2" gutterBottom>
                {r.label}
              </Typography>
              {r.days.length === 0 ? (
                <Typography color="text.secondary">{translate('app.holidays.none')}</Typography>
              ) : (
                <Table size="small" aria-labelledby={`holidays-${r.region}`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('resources.holiday_overrides.fields.date')}</TableCell>
                      <TableCell>{translate('resources.holiday_overrides.fields.name')}</TableCell>
                      {canChange && (
                        <TableCell>
                          <Box component="span" sx={visuallyHidden}>
                            {translate('app.children.actions')}
                          </Box>
                        </TableCell>
                      )}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {r.days.map((d) => (
                      <TableRow key={d.date} data-testid={`holiday-${r.region}-${d.date}`}>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          <time dateTime={d.date}>{formatDisplayDate(d.date)}</time>
                          <Typography variant="caption" component="div" color="text.secondary">
                            {weekday(d.date)}
                          </Typography>
                        </TableCell>
                        <TableCell>
                          {d.name}
                          {d.source === 'added' && (
                            <Typography variant="caption" component="div" color="text.secondary">
                              {translate('app.holidays.added_by_agency')}
                            </Typography>
                          )}
                        </TableCell>
                        {canChange && (
                          <TableCell align="right">
                            <Button
                              size="small"
                              color="error"
                              onClick={() => remove(r.region, d)}
                              aria-label={translate('app.holidays.remove_label', {
                                name: d.name,
                                date: formatDisplayDate(d.date),
                                region: r.label,
                              })}
                            >
                              {translate('app.holidays.remove')}
                            </Button>
                          </TableCell>
                        )}
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
              {r.removed.length > 0 && (
                <Box sx={{ mt: 2 }}>
                  <Typography variant="subtitle2" component="h3">
                    {translate('app.holidays.removed_heading')}
                  </Typography>
                  {r.removed.map((d) => (
                    <Stack
                      key={d.date}
                      direction="row"
                      sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
                    >
                      <Typography variant="body2">
                        <s>
                          {formatDisplayDate(d.date)} — {d.name}
                        </s>
                      </Typography>
                      {canChange && (
                        <Button
                          size="small"
                          onClick={() => restore(d.override_id)}
                          aria-label={translate('app.holidays.restore_label', {
                            name: d.name,
                            date: formatDisplayDate(d.date),
                            region: r.label,
                          })}
                        >
                          {translate('app.holidays.restore')}
                        </Button>
                      )}
                    </Stack>
                  ))}
                </Box>
              )}
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
