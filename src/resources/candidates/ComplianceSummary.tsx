import { Alert, AlertTitle, Box, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate, type Identifier } from 'react-admin';
import { format, parseISO } from 'date-fns';
import { api } from '../../providers/http';
import type { Compliance } from '../../../core/contracts/compliance';

/** GET /api/candidates/{id}/compliance's answer (core/contracts/compliance.ts). */
export type { Compliance };

const day = (d: string) => format(parseISO(d), 'd MMM yyyy');

/**
 * A staff member's compliance for their job role today (GET /api/candidates/{id}/compliance). Its query key starts
 * with 'candidates', and every document change refreshes all queries, so it follows uploads and checks.
 */
export function ComplianceSummary({ id }: { id: Identifier }) {
  const translate = useTranslate();
  const { data, isPending, error } = useQuery({
    queryKey: ['candidates', 'compliance', String(id)],
    queryFn: ({ signal }) =>
      api<{ data: Compliance }>(`/candidates/${encodeURIComponent(String(id))}/compliance`, { signal }).then(
        (r) => r.data,
      ),
  });
  if (isPending) return null;
  if (error || !data) return <Alert severity="info">{translate('app.compliance.unavailable')}</Alert>;
  return (
    <Alert
      severity={data.compliant ? (data.expiring.length ? 'warning' : 'success') : 'error'}
      sx={{ mb: 2 }}
      aria-label={translate('app.compliance.title')}
      data-testid="compliance-summary"
    >
      <AlertTitle>{translate(data.compliant ? 'app.compliance.compliant' : 'app.compliance.not_compliant')}</AlertTitle>
      {data.valid_until && data.compliant && (
        <Typography variant="body2">
          {translate('app.compliance.valid_until', { date: day(data.valid_until) })}
        </Typography>
      )}
      {data.missing.length > 0 && (
        <Box>
          <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
            {translate('app.compliance.missing')}:{' '}
          </Typography>
          <Typography variant="body2" component="span">
            {data.missing.map((m) => m.name).join(', ')}
          </Typography>
        </Box>
      )}
      {data.expired.length > 0 && (
        <Box>
          <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
            {translate('app.compliance.expired')}:{' '}
          </Typography>
          <Typography variant="body2" component="span">
            {data.expired
              .map((e) => translate('app.compliance.expired_on', { name: e.name, date: day(e.expiry_date) }))
              .join('; ')}
          </Typography>
        </Box>
      )}
      {data.expiring.length > 0 && (
        <Box>
          <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
            {translate('app.compliance.expiring')}:{' '}
          </Typography>
          <Typography variant="body2" component="span">
            {data.expiring
              .map((e) =>
                translate('app.compliance.days_left', {
                  name: e.name,
                  date: day(e.expiry_date),
                  smart_count: e.days_left,
                }),
              )
              .join('; ')}
          </Typography>
        </Box>
      )}
    </Alert>
  );
}
