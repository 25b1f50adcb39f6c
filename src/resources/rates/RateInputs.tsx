import { Box, Typography } from '@mui/material';
import { AutocompleteInput, ReferenceInput, useGetList, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { InputFor } from '../../engine/react/inputs';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { formatPounds } from '../../../core/engine/money';
import { onCostTable, wageFloorTable } from '../../../core/domain/pricing/oncosts';
import type { Band } from '../../../core/domain/pricing/types';
import { agencyToday, DEFAULT_TIME_ZONE } from '../../../core/domain/time/agencyTime';
import { useAgency } from '../../layout/useShellData';
import { bandMargin, payWarning } from './margin';

const ALL = { pagination: { page: 1, perPage: 100 }, sort: { field: 'effective_from', order: 'ASC' as const } };

/** The agency's on-cost rates and wage floors (the domain's defaults until they load, or when there are none). */
export function useRateTables() {
  const onCostRows = useGetList('on_cost_rates', ALL);
  const floorRows = useGetList('wage_floors', ALL);
  return { onCosts: onCostTable(onCostRows.data), floors: wageFloorTable(floorRows.data) };
}

/** The day a card without a first day yet is costed on: the agency's today, not the browser's. */
function useAgencyToday(): string {
  return agencyToday(useAgency().data?.timeZone ?? DEFAULT_TIME_ZONE);
}

/**
 * The warning under a pay rate below the adult wage floor on the card's first day (today without one), and what the
 * booking will do with it: a PAYE worker is refused at that rate, others are warned (issue 30.6).
 */
export function WageWarning({
  band,
  source = `pay_${band}`,
  dateSource = 'effective_from',
}: {
  band?: Band;
  source?: string;
  dateSource?: string | null;
}) {
  const { floors } = useRateTables();
  const today = useAgencyToday();
  const pay = useWatch({ name: source });
  const chosen = useWatch({ name: dateSource ?? source });
  const date = (dateSource && chosen) || today;
  const warning = payWarning(pay, date, floors);
  if (!warning) return null;
  return (
    <Typography
      role="status"
      variant="caption"
      component="p"
      sx={{ color: 'warning.dark', fontWeight: 500, mt: -1, mb: 1 }}
      data-testid={`wage-warning-${band ?? source}`}
    >
      ⚠ {warning}.
    </Typography>
  );
}

/** A job role's default pay rate, with the wage warning on today's floor. */
export function DefaultPayInput({ decl }: { decl: ResourceDeclaration }) {
  const field = decl.fields.find((f) => f.source === 'default_pay_rate')!;
  return (
    <Box sx={{ width: '100%' }}>
      <InputFor of={field} />
      <WageWarning source="default_pay_rate" dateSource={null} />
    </Box>
  );
}

/** The margin of one band beside its pay and charge, worked out as they are typed. */
function LiveMargin({ band }: { band: Band }) {
  const translate = useTranslate();
  const { onCosts } = useRateTables();
  const today = useAgencyToday();
  const [pay, charge, from] = useWatch({ name: [`pay_${band}`, `charge_${band}`, 'effective_from'] });
  const m = bandMargin(pay, charge, from || today, onCosts);
  return (
    <Box aria-live="polite" data-testid={`margin-${band}`} sx={{ minWidth: 180, pt: { md: 2 } }}>
      <Typography variant="body2" sx={{ color: m && m.margin < 0 ? 'error.main' : 'text.primary', fontWeight: 500 }}>
        {m
          ? translate('app.rates.margin_value', {
              margin: formatPounds(m.margin),
              percent: m.percent === null ? '—' : `${m.percent}%`,
            })
          : translate('app.rates.margin_pending')}
      </Typography>
      {m && (
        <Typography variant="caption" color="text.secondary">
          {translate('app.rates.on_costs_value', { on_costs: formatPounds(m.onCosts) })}
        </Typography>
      )}
    </Box>
  );
}

// Side by side, not the form's full width each; wide enough that "Charge: weekday night (per hour)" is not cut.
const narrow = { fullWidth: false, sx: { width: { xs: '100%', sm: 300 } } } as Record<string, unknown>;

/** One band of a rate card: its pay and charge side by side, the margin beside them and a wage warning below. */
export function BandRateRow({ decl, band }: { decl: ResourceDeclaration; band: Band }) {
  const field = (kind: 'pay' | 'charge') => decl.fields.find((f) => f.source === `${kind}_${band}`)!;
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, width: '100%' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, alignItems: 'flex-start' }}>
        <InputFor of={field('pay')} {...narrow} />
        <InputFor of={field('charge')} {...narrow} />
        <LiveMargin band={band} />
      </Box>
      <WageWarning band={band} />
    </Box>
  );
}

/** A staff member's own pay for one band, with the wage warning on its first day. */
export function OwnPayInput({ decl, band }: { decl: ResourceDeclaration; band: Band }) {
  const field = decl.fields.find((f) => f.source === `pay_${band}`)!;
  return (
    <Box sx={{ width: '100%' }}>
      <InputFor of={field} />
      <WageWarning band={band} />
    </Box>
  );
}

/** The site of a card: one of the chosen client's sites (empty for all of them). */
export function SiteOfClientInput({ decl }: { decl: ResourceDeclaration }) {
  const clientId = useWatch({ name: 'client_id' });
  const field = decl.fields.find((f) => f.source === 'site_id')!;
  return (
    <ReferenceInput
      source="site_id"
      reference="sites"
      filter={clientId ? { client_id: clientId } : {}}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={20}
    >
      <AutocompleteInput
        label={field.label}
        helperText={field.helperText}
        filterToQuery={(q: string) => (q ? { q } : {})}
      />
    </ReferenceInput>
  );
}
