import { Alert, Box, Typography } from '@mui/material';
import { useGetList, useTranslate, type Identifier } from 'react-admin';
import { ChildList } from '../../engine/react/children';
import { formatPounds } from '../../../core/engine/money';
import { BAND_LABELS, BANDS } from '../../../core/domain/pricing/types';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime';
import { candidateRates } from '../../../core/resources/rates/resource';
import { payWarning } from './margin';
import { useRateTables } from './RateInputs';

/** Each of the staff member's own rates below the wage floor on its first day, in words. */
function WageWarnings({ candidateId }: { candidateId: Identifier }) {
  const translate = useTranslate();
  const { floors } = useRateTables();
  const { data } = useGetList('candidate_rates', {
    filter: { candidate_id: candidateId },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'effective_from', order: 'DESC' },
  });
  const warnings = (data ?? []).flatMap((r: any) =>
    BANDS.flatMap((b) => {
      const w = payWarning(r[`pay_${b}`], r.effective_from, floors);
      return w
        ? [
            `${translate('app.rates.from_date', { date: formatDisplayDate(r.effective_from) })}, ${BAND_LABELS[b].toLowerCase()} ${formatPounds(r[`pay_${b}`])}: ${w[0].toLowerCase()}${w.slice(1)}.`,
          ]
        : [];
    }),
  );
  if (!warnings.length) return null;
  return (
    <Alert severity="warning" sx={{ mb: 1 }} data-testid="own-rate-warnings">
      {warnings.map((w) => (
        <div key={w}>{w}</div>
      ))}
    </Alert>
  );
}

/** The profile's Rate card tab: the staff member's own pay rates, which replace the card's pay where set. */
export function CandidateRateCard({ candidateId }: { candidateId: Identifier }) {
  const translate = useTranslate();
  return (
    <ChildList
      decl={candidateRates}
      parentId={candidateId}
      header={
        <Box>
          <WageWarnings candidateId={candidateId} />
          <Typography variant="body2" color="text.secondary">
            {translate('app.rates.own_rates_help')}
          </Typography>
        </Box>
      }
    />
  );
}
