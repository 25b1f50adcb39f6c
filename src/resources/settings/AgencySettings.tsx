import { Alert, Box, Button, List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AutocompleteInput, TextInput, Title, useRecordContext, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { FormInputs, transformUploads } from '../../engine/react/form';
import { formValidator } from '../../engine/react/formErrors';
import {
  AgencyRowForm,
  AgencyRowLoad,
  ReadOnlyNotice,
  useAgencyRow,
  useSaveAgencyRow,
  useSettingsReadOnly,
} from '../../engine/react/agencyRow';
import { api } from '../../providers/http';
import { agencySettings, businessUnits } from '../../../core/resources/settings/agency';
import { ianaTimeZones } from '../../../core/domain/agency/identifiers';
import type { AgencySettings } from '../../../core/contracts/agencySettings';
import { jobBoardPath } from '../../../core/domain/agency/jobBoard';

const UNITS_KEY = ['agency_settings', 'business_units'];
const validate = formValidator(agencySettings, []);
const upload = transformUploads(agencySettings);
const zoneField = agencySettings.fields.find((f) => f.source === 'time_zone')!;
const slugField = agencySettings.fields.find((f) => f.source === 'slug')!;
const ZONES = ianaTimeZones().map((id) => ({ id, name: id.replace(/_/g, ' ') }));

/**
 * /appsetting/agencysetting (issue 35): the agency's settings, their fields the declaration's
 * (core/resources/settings/agency.ts), and its business units below them. Admins save; consultants read (told so).
 * A save answers each refusal next to its field; the shell (name, logo, favicon) is read again after it.
 */
export function AgencySettingsScreen() {
  const translate = useTranslate();
  const client = useQueryClient();
  const readOnly = useSettingsReadOnly();
  const query = useAgencyRow<AgencySettings>('agency_settings');
  const title = translate('app.screens.setting_agency');
  const submit = useSaveAgencyRow<AgencySettings>('agency_settings', 'Agency settings saved', {
    prepare: upload,
    // The top bar's name and logo and the tab's favicon come from the shell's own query.
    after: () => client.invalidateQueries({ queryKey: ['shell', 'agency'] }),
  });
  return (
    <Box sx={{ maxWidth: 720, minWidth: 0 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {readOnly && <ReadOnlyNotice />}
      <AgencyRowLoad query={query} failed="The agency settings could not be loaded.">
        {(record) => (
          <AgencyRowForm record={record} onSubmit={submit} readOnly={readOnly} validate={validate}>
            <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
              <FormInputs
                decl={agencySettings}
                view="edit"
                defs={[]}
                overrides={{
                  slug: { input: <JobBoardAddress readOnly={readOnly} /> },
                  // The zones to pick from as typed ("lon" finds Europe/London): a select of 400 would not do.
                  time_zone: {
                    input: (
                      <AutocompleteInput
                        source="time_zone"
                        label={zoneField.label}
                        helperText={zoneField.helperText}
                        choices={ZONES}
                        disableClearable
                        readOnly={readOnly}
                      />
                    ),
                  },
                }}
              />
            </Paper>
          </AgencyRowForm>
        )}
      </AgencyRowLoad>
      <BusinessUnits canChange={!readOnly} />
    </Box>
  );
}

/**
 * The job board's address: its slug, and the board's full address as applicants type it (this server's, which serves
 * /careers); a link to the board as saved, and where it will move to once a changed one is saved.
 */
function JobBoardAddress({ readOnly }: { readOnly: boolean }) {
  const saved = useRecordContext<AgencySettings>()?.slug ?? null;
  const typed = useWatch({ name: 'slug' }) as string | null | undefined;
  const full = (slug: string) => `${window.location.origin}${jobBoardPath(slug)}`;
  return (
    <Box>
      <TextInput
        source="slug"
        label={slugField.label}
        helperText={slugField.helperText}
        readOnly={readOnly}
        autoComplete="off"
        spellCheck={false}
      />
      <Typography variant="body2" sx={{ mt: -1, mb: 2, overflowWrap: 'anywhere' }}>
        {saved ? (
          <>
            The job board is at{' '}
            <a href={jobBoardPath(saved)} target="_blank" rel="noreferrer">
              {full(saved)}
            </a>
            {typed && typed !== saved ? <>; once saved, at {full(typed)} instead.</> : '.'}
          </>
        ) : typed ? (
          <>Once saved, the job board will be at {full(typed)}.</>
        ) : (
          'The agency has no job board address yet.'
        )}
      </Typography>
    </Box>
  );
}

interface Unit {
  id: number;
  name: string;
  active: boolean;
}

/** The agency's business units, in use first; changed on their own screens (the engine's list and forms). */
function BusinessUnits({ canChange }: { canChange: boolean }) {
  const query = useQuery({
    queryKey: UNITS_KEY,
    queryFn: ({ signal }) =>
      api<{ data: Unit[] }>('/business_units?sort=name&order=ASC&per_page=100', { signal }).then((r) => r.data),
    retry: false,
  });
  const units = [...(query.data ?? [])].sort((a, b) => Number(b.active) - Number(a.active));
  const base = businessUnits.routes!.list!;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="business-units" sx={{ p: 2, mt: 3 }}>
      <Typography id="business-units" variant="h6" component="h2" sx={{ mb: 1 }}>
        {businessUnits.label.many}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        Named parts of the agency (a branch, a division) that reports and roles can be limited to.
      </Typography>
      {query.isError ? (
        <Alert severity="error">The business units could not be loaded.</Alert>
      ) : !query.data ? null : units.length === 0 ? (
        <Typography color="text.secondary">No business units yet.</Typography>
      ) : (
        <List dense disablePadding>
          {units.map((u) => (
            <ListItem key={u.id} disableGutters>
              <ListItemText primary={u.name} secondary={u.active ? 'In use' : 'Archived'} />
            </ListItem>
          ))}
        </List>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
        <Button component={Link} to={base} variant="outlined">
          {canChange ? 'Manage business units' : 'See business units'}
        </Button>
        {canChange && (
          <Button component={Link} to={businessUnits.routes!.create!}>
            Add a business unit
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
