import { Box, Button, FormHelperText, IconButton, Paper, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import { Title, useInput, useTranslate } from 'react-admin';
import {
  CUSTOM_STAGE_LIMIT,
  isCustomStage,
  nextCustomStageId,
  STAGE_LABEL_MAX,
  type Stage,
} from '../../../core/domain/recruitment/stages';
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
    prepare: (values) => ({
      retention_months: values.retention_months,
      stages: values.stages,
      version: values.version,
    }),
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
                Pipeline stages
              </Typography>
              <Typography variant="body2" sx={{ mb: 2 }}>
                The stages an applicant moves through, in your order, on the pipeline’s board and list. Rename any; add
                up to {CUSTOM_STAGE_LIMIT} of your own (a reference check, a trial shift) and move applicants to them
                with a note. Applied comes first; Hired (which adds the applicant to your staff) and Rejected end an
                application. A stage that still has applicants cannot be removed.
              </Typography>
              <StagesInput readOnly={readOnly} />
            </Paper>
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

/**
 * The pipeline's stages, one row each: its name, and for the stages between Applied and Hired a move up and down;
 * the agency's own stages may be removed (the server refuses one that still has applicants, in words under the list).
 */
function StagesInput({ readOnly }: { readOnly: boolean }) {
  const { field, fieldState } = useInput<Stage[]>({ source: 'stages' });
  const stages: Stage[] = Array.isArray(field.value) ? field.value : [];
  const set = (next: Stage[]) => field.onChange(next);
  // Applied stays first, Hired and Rejected last: only the stages between them move.
  const movable = (i: number) => i > 0 && i < stages.length - 2;
  const swap = (i: number, j: number) => {
    const next = [...stages];
    [next[i], next[j]] = [next[j], next[i]];
    set(next);
  };
  const free = nextCustomStageId(stages);
  const error = fieldState.error?.message;
  return (
    <Box>
      <Stack component="ol" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Pipeline stages">
        {stages.map((s, i) => {
          const name = s.label || 'the new stage';
          return (
            <Stack component="li" key={s.id} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              <TextField
                size="small"
                label={`Stage ${i + 1}${isCustomStage(s.id) ? ' (yours)' : ''}`}
                value={s.label}
                disabled={readOnly}
                slotProps={{ htmlInput: { maxLength: STAGE_LABEL_MAX } }}
                onChange={(e) => set(stages.map((x, k) => (k === i ? { ...x, label: e.target.value } : x)))}
                sx={{ flex: 1, minWidth: 0 }}
              />
              <IconButton
                aria-label={`Move ${name} up`}
                disabled={readOnly || !movable(i) || !movable(i - 1)}
                onClick={() => swap(i, i - 1)}
              >
                <ArrowUpwardIcon />
              </IconButton>
              <IconButton
                aria-label={`Move ${name} down`}
                disabled={readOnly || !movable(i) || !movable(i + 1)}
                onClick={() => swap(i, i + 1)}
              >
                <ArrowDownwardIcon />
              </IconButton>
              <IconButton
                aria-label={`Remove ${name}`}
                disabled={readOnly || !isCustomStage(s.id)}
                onClick={() => set(stages.filter((_, k) => k !== i))}
              >
                <DeleteIcon />
              </IconButton>
            </Stack>
          );
        })}
      </Stack>
      {error ? (
        <FormHelperText error role="alert" sx={{ mt: 1 }}>
          {error}
        </FormHelperText>
      ) : null}
      {!readOnly && (
        <Button
          startIcon={<AddIcon />}
          disabled={!free}
          // A new stage goes just before Hired, where an agency's own checks usually sit.
          onClick={() => set([...stages.slice(0, -2), { id: free!, label: '' }, ...stages.slice(-2)])}
          sx={{ mt: 1, alignSelf: 'flex-start' }}
        >
          Add a stage
        </Button>
      )}
      {!free && !readOnly ? (
        <FormHelperText>You have {CUSTOM_STAGE_LIMIT} stages of your own, the most there can be.</FormHelperText>
      ) : null}
    </Box>
  );
}
