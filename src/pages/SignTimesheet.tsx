import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import {
  Alert,
  Box,
  CircularProgress,
  CssBaseline,
  Paper,
  ThemeProvider,
  Typography,
  createTheme,
} from '@mui/material';
import { ApiFailure, request } from '../providers/request';
import { documentTitle } from '../layout/usePageTitle';
import { t } from '../i18n/light';
import { formatPounds } from '../../core/engine/money';
import { TimesheetReview, type ReviewLine } from '../resources/timesheets/TimesheetReview';
import { say } from '../resources/timesheets/say';
import { palette } from '../palette';

const theme = createTheme({ palette });

/** What the link shows of its timesheet (the link holder's read: charge only, and the lines to review). */
interface LinkedTimesheet {
  number: string;
  client_name: string | null;
  site_name: string | null;
  period_start: string;
  period_end: string;
  status: string;
  hours: number | null;
  charge: number | null;
  review_lines: ReviewLine[];
}

interface LinkAnswer {
  data: LinkedTimesheet;
  changed: boolean;
  expires_at: string;
}

/**
 * /sign-timesheet/<token>: the client's approver reviews a timesheet from the e-mailed link, without an account,
 * and signs it or disputes lines (core/contracts/timesheets.ts SIGNING_PAGE). The link works until every line is signed
 * or one disputed (signing some lines keeps it for the others), for a while, and only while the timesheet is as it was
 * sent; the server says why when it does not.
 */
export default function SignTimesheet() {
  const { token = '' } = useParams();
  const [answer, setAnswer] = useState<LinkAnswer | null>(null);
  const [refused, setRefused] = useState('');
  const [done, setDone] = useState('');
  /** What a partial approval did and what is left; the page stays open for the rest. */
  const [partly, setPartly] = useState('');
  useEffect(() => {
    document.title = documentTitle(say('link.title'), t('app.name'));
    request<LinkAnswer>(`/capability/${encodeURIComponent(token)}`)
      .then(setAnswer)
      .catch((e) => setRefused(e instanceof ApiFailure ? e.message : say('link.network')));
  }, [token]);
  const ts = answer?.data;
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box component="main" sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 1.5, sm: 3 } }}>
        <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
          {say('link.title')}
        </Typography>
        {refused && <Alert severity="error">{refused}</Alert>}
        {!answer && !refused && <CircularProgress aria-label={say('review.loading')} />}
        {done && (
          <Alert severity="success" role="status">
            {done}
          </Alert>
        )}
        {partly && !done && (
          <Alert severity="success" role="status" sx={{ mb: 2 }}>
            {partly}
          </Alert>
        )}
        {ts && !done && (
          <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
            <Typography component="h2" variant="h6">
              {`${ts.number} · ${[ts.client_name, ts.site_name].filter(Boolean).join(', ')}`}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {`${say('review.period', { from: ts.period_start, to: ts.period_end })} · ${say('review.hours')} ${Number(ts.hours ?? 0)} · ${formatPounds(Number(ts.charge ?? 0))}`}
            </Typography>
            {answer.changed ? (
              <Alert severity="warning">{say('link.changed')}</Alert>
            ) : (
              <TimesheetReview
                lines={ts.review_lines}
                mode="link"
                // The link's read carries no time zone: times are shown on UK time, the product's agencies' clock.
                timeZone="Europe/London"
                key={ts.review_lines.filter((l) => l.status === 'pending').length}
                onApprove={async (input) => {
                  const after = await request<{ data: LinkedTimesheet }>(
                    `/capability/${encodeURIComponent(token)}/actions/approve`,
                    { method: 'POST', json: input },
                  );
                  const left = after.data.review_lines.filter((l) => l.status === 'pending').length;
                  if (input.dispute_line_ids?.length) setDone(say('review.disputed'));
                  // Signed in part: the link still works for the rest (issue 29.5), so the review stays.
                  else if (left > 0 && after.data.status === 'submitted') {
                    setPartly(say('review.approved_part', { smart_count: left }));
                    setAnswer({ ...answer, data: after.data });
                  } else setDone(say('review.approved'));
                }}
              />
            )}
          </Paper>
        )}
      </Box>
    </ThemeProvider>
  );
}
