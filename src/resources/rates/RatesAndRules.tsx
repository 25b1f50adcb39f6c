import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link } from 'react-router';
import {
  Button,
  DataTable,
  FunctionField,
  ListBase,
  Pagination,
  Title,
  useCanAccess,
  useListContext,
  useRecordContext,
  useTranslate,
  type Identifier,
} from 'react-admin';
import { EngineList } from '../../engine/react/list';
import { type ViewOptions } from '../../engine/react/viewOptions';
import { TableScroll } from '../../engine/react/children';
import { pathsOf } from '../../engine/react/paths';
import { clientRules } from '../../../core/resources/rates/resource';
import { BreakRulesField } from './BreakRules';

const rulesPaths = pathsOf(clientRules);
const hours = (v: unknown) => (v == null ? '—' : `${Number(v)} h`);

/** Whose rules a row is: the client's name, or "Agency default" for the row without a client. */
export function AppliesToField({ to }: { to?: (id: Identifier) => string; label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record) return null;
  const text = record.client_id == null ? <strong>{translate('app.rates.agency_default')}</strong> : record.applies_to;
  return to ? (
    <Link to={to(record.id)} onClick={(e) => e.stopPropagation()}>
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

function RulesTable() {
  const translate = useTranslate();
  const { total, isPending } = useListContext();
  if (!isPending && !total) return <Typography color="text.secondary">{translate('app.rates.no_rules')}</Typography>;
  return (
    <>
      <TableScroll>
        <DataTable bulkActionButtons={false} rowClick={(id) => rulesPaths.edit(id)}>
          <DataTable.Col source="applies_to" label="resources.client_rules.fields.applies_to">
            <AppliesToField to={rulesPaths.edit} />
          </DataTable.Col>
          <DataTable.Col label="app.rates.night" disableSort>
            <FunctionField render={(r: any) => `${r.night_start}–${r.night_end}`} />
          </DataTable.Col>
          <DataTable.Col label="app.rates.weekend" disableSort>
            <FunctionField
              render={(r: any) =>
                `${translate(`app.rates.days.${r.weekend_start_day}`)} ${r.weekend_start_time} – ${translate(`app.rates.days.${r.weekend_end_day}`)} ${r.weekend_end_time}`
              }
            />
          </DataTable.Col>
          <DataTable.Col label="app.rates.split" disableSort>
            <FunctionField
              render={(r: any) => translate(r.split_at_boundaries ? 'app.rates.split_yes' : 'app.rates.split_no')}
            />
          </DataTable.Col>
          <DataTable.Col label="resources.client_rules.fields.break_rules" disableSort>
            <BreakRulesField />
          </DataTable.Col>
          <DataTable.Col label="app.rates.minimum" disableSort>
            <FunctionField render={(r: any) => hours(r.minimum_charge_hours)} />
          </DataTable.Col>
          <DataTable.Col label="app.rates.late_cancellation" disableSort>
            <FunctionField
              render={(r: any) =>
                r.late_cancel_within_hours == null
                  ? translate('app.rates.none')
                  : translate('app.rates.late_cancel_value', {
                      within: Number(r.late_cancel_within_hours),
                      charged: Number(r.late_cancel_charge_hours),
                    })
              }
            />
          </DataTable.Col>
        </DataTable>
      </TableScroll>
      {!!total && total > 25 && <Pagination rowsPerPageOptions={[25]} />}
    </>
  );
}

/** The client rules: the agency's default first (its "applies to" is empty), then each client's own. */
function RulesSection() {
  const translate = useTranslate();
  const { canAccess: canCreate } = useCanAccess({ resource: 'client_rules', action: 'create' });
  return (
    <Card component="section" aria-labelledby="rules-heading" sx={{ mt: 3 }}>
      <CardContent>
        <Stack
          direction="row"
          sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}
        >
          <Box>
            <Typography id="rules-heading" variant="h6" component="h2">
              {translate('app.rates.rules_heading')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate('app.rates.rules_help')}
            </Typography>
          </Box>
          {canCreate && (
            <Button component={Link} to={rulesPaths.create} label="app.rates.add_rules" variant="outlined">
              <AddIcon />
            </Button>
          )}
        </Stack>
        <ListBase
          resource="client_rules"
          sort={clientRules.defaultSort}
          perPage={25}
          disableSyncWithLocation
          storeKey={false}
        >
          <RulesTable />
        </ListBase>
      </CardContent>
    </Card>
  );
}

/** /rates_and_rules: every rate card (filtered by client, site, job role, in force on a date) and the pricing rules. */
export function RatesAndRules(options: ViewOptions) {
  const translate = useTranslate();
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('app.menu.rates_and_rules')} />
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {translate('app.menu.rates_and_rules')}
      </Typography>
      <Box component="section" aria-labelledby="cards-heading">
        <Typography id="cards-heading" variant="h6" component="h2">
          {translate('app.rates.cards_heading')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('app.rates.cards_help')}
        </Typography>
        <EngineList {...options} title={false} />
      </Box>
      <RulesSection />
    </Box>
  );
}
