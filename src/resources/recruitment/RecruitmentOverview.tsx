import { Alert, Box, Card, CardActionArea, CardContent, Link as MuiLink, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { api } from '../../providers/http';
import { useStages } from './stages';
import type { Stage } from '../../../core/domain/recruitment/stages';

/** How many records a list holds (its first page of one row answers the total). */
const countOf = async (path: string, signal: AbortSignal) =>
  (await api<{ total_count: number }>(`${path}${path.includes('?') ? '&' : '?'}per_page=1`, { signal })).total_count;

/** The overview's counts: the open jobs, and the applicants at each stage. */
function useRecruitmentCounts(list: readonly Stage[] | undefined) {
  return useQuery({
    queryKey: ['recruitment', 'overview', list?.map((s) => s.id).join()],
    enabled: !!list,
    queryFn: async ({ signal }) => {
      const [open, ...stages] = await Promise.all([
        countOf('/vacancies?status=open', signal),
        ...list!.map((s) => countOf(`/job_applications?stage=${s.id}`, signal)),
      ]);
      return { open, stages: Object.fromEntries(list!.map((s, i) => [s.id, stages[i]])) };
    },
    retry: false,
  });
}

/** One count that opens its list. */
function CountCard({ to, count, label }: { to: string; count: number | undefined; label: string }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 140, flex: '1 1 140px' }}>
      <CardActionArea component={Link} to={to}>
        <CardContent>
          <Typography variant="h4" component="p">
            {count ?? '–'}
          </Typography>
          <Typography variant="body2">{label}</Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/**
 * /recruitment (issue 35): where recruitment starts. The open jobs and the applicants at each stage of the pipeline,
 * each count opening its list (the jobs' Open tab, the applicants' tab of that stage), and the way to the settings.
 */
export function RecruitmentOverview() {
  const translate = useTranslate();
  const stages = useStages();
  const counts = useRecruitmentCounts(stages);
  const title = translate('app.screens.recruitment');
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {counts.isError && <Alert severity="error">The recruitment figures could not be loaded.</Alert>}
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Jobs
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3 }}>
        <CountCard to="/recruitment/jobs/open" count={counts.data?.open} label="Open jobs" />
      </Box>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Applicants by stage
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3 }}>
        {stages?.map((s) => (
          <CountCard key={s.id} to={`/recruitment/staffs/${s.id}`} count={counts.data?.stages[s.id]} label={s.label} />
        ))}
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <MuiLink component={Link} to="/recruitment/jobs">
          All jobs
        </MuiLink>
        <MuiLink component={Link} to="/recruitment/staffs">
          All applicants
        </MuiLink>
        <MuiLink component={Link} to="/recruitment/staffs/board">
          The pipeline’s board
        </MuiLink>
        <MuiLink component={Link} to="/recruitment/settings">
          Recruitment settings
        </MuiLink>
      </Stack>
    </Box>
  );
}
