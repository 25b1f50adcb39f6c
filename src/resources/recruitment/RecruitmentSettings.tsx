import { Box, Paper, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { InputFor } from '../../engine/react/inputs';
import {
  AgencyRowForm,
  AgencyRowLoad,
  ReadOnlyNotice,
  useAgencyRow,
  useSaveAgencyRow,
  useSettingsReadOnly,
} from '../../engine/react/agencyRow';
import { recruitmentSettings } from '../../../core/resources/recruitment/settings';
import type { RecruitmentSettings } from '../../../core/contracts/recruitmentSettings';

const retention = recruitmentSettings.fields.find((f) => f.source === 'retention_months')!;

/**
 * /recruitment/settings (issue 35): the agency's recruitment settings, its one row (core/resources/recruitment/
 * settings.ts): how long an application that did not end in a hire is kept before the nightly job erases it.
 * Admins save; consultants read, told so.
 */
export function RecruitmentSettingsScreen() {
  const translate = useTranslate();
  const readOnly = useSettingsReadOnly();
  const query = useAgencyRow<RecruitmentSettings>('recruitment_settings');
  const submit = useSaveAgencyRow<RecruitmentSettings>('recruitment_settings', 'Recruitment settings saved', {
    prepare: (values) => ({ retention_months: values.retention_months, version: values.version }),
  });
  const title = translate('app.screens.recruitment_settings');
  return (
    <Box sx={{ maxWidth: 720 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {readOnly && <ReadOnlyNotice />}
      <AgencyRowLoad query={query} failed="The recruitment settings could not be loaded.">
        {(row) => (
          <AgencyRowForm record={{ ...row, id: 'recruitment_settings' }} onSubmit={submit} readOnly={readOnly}>
            <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexDirection: 'column' }}>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Data retention
              </Typography>
              <Typography variant="body2" sx={{ mb: 2 }}>
                An applicant who was not hired is erased, with their CV, once this many months have passed since their
                application last changed. It runs every night and is recorded in the audit trail. Applicants you hired
                are kept: they are your staff members’ record of how they joined.
              </Typography>
              <InputFor of={retention} />
            </Paper>
          </AgencyRowForm>
        )}
      </AgencyRowLoad>
    </Box>
  );
}
