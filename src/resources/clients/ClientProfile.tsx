import { Box, Button as MuiButton, Card, CardContent, Grid, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link, useParams } from 'react-router';
import {
  DataTable,
  EditButton,
  Labeled,
  ReferenceManyField,
  SelectField,
  ShowBase,
  Title,
  useRecordContext,
  useShowContext,
  useTranslate,
  Pagination,
  useCanAccess,
} from 'react-admin';
import { FieldFor } from '../../engine/react/fields';
import { StoredImage } from '../../engine/react/files';
import { TableScroll } from '../../engine/react/children';
import type { ViewOptions } from '../../engine/react/viewOptions';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { pathsOf } from '../../engine/react/paths';
import { sites } from '../../../core/resources/sites/resource';
import { candidateRestrictions } from '../../../core/resources/compliance/resource';
import { STATUS_CHOICES } from '../../../core/resources/clients/resource';
import { ClientNotesCard } from '../notes/NotesAbout';
import { HelpLink } from '../notes/HelpLink';
import { ClientUsersCard } from '../users';

const sitePaths = pathsOf(sites);

/** /client/client/{id}: the client with its sites and the people to contact there. */
export function ClientProfileRoute(options: ViewOptions) {
  const { id } = useParams();
  return (
    <ShowBase resource="clients" id={id}>
      <ClientProfile options={options} />
    </ShowBase>
  );
}

function ClientProfile({ options }: { options: ViewOptions }) {
  const translate = useTranslate();
  const { record, isPending, error } = useShowContext();
  if (isPending) return null;
  if (error || !record) return <Typography sx={{ p: 3 }}>{translate('ra.page.not_found')}</Typography>;
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={record.name} />
      <Card>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <StoredImage value={record.logo} alt="" sx={{ height: 48, maxWidth: 160, objectFit: 'contain' }} />
            <Typography variant="h5" component="h1" sx={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>
              {record.name}
            </Typography>
            <SelectField source="status" choices={STATUS_CHOICES} />
            <EditButton to={options.paths.edit(record.id)} />
            <HelpLink topic="clients" />
          </Box>
          <FieldGrid
            decl={options.decl}
            sources={['code', 'client_type', 'business_unit_id', 'address', 'vat_number', 'payment_terms_days']}
            columns={3}
          />
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('app.clients.contacts')}
          </Typography>
          <FieldGrid decl={options.decl} sources={['contact_name', 'phone', 'email', 'billing_email']} columns={4} />
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
              {translate('resources.sites.name', { smart_count: 2 })}
            </Typography>
            <AddSiteButton />
          </Box>
          <ReferenceManyField
            reference="sites"
            target="client_id"
            sort={{ field: 'name', order: 'ASC' }}
            perPage={10}
            pagination={<Pagination />}
            empty={<Typography color="text.secondary">{translate('app.clients.no_sites')}</Typography>}
          >
            <TableScroll>
              <DataTable rowClick={(id) => sitePaths.show(id)} bulkActionButtons={false}>
                <DataTable.Col source="name" label="resources.sites.fields.name" />
                <DataTable.Col source="business_unit" label="resources.sites.fields.business_unit" />
                <DataTable.Col source="contact_name" label="resources.sites.fields.contact_name" />
                <DataTable.Col source="contact_phone" label="resources.sites.fields.contact_phone" />
                <DataTable.Col source="status" label="resources.sites.fields.status">
                  <SelectField source="status" choices={STATUS_CHOICES} />
                </DataTable.Col>
              </DataTable>
            </TableScroll>
          </ReferenceManyField>
        </CardContent>
      </Card>
      <ClientUsersCard clientId={Number(record.id)} />
      <RestrictedStaffCard />
      <ClientNotesCard id={record.id} />
    </Box>
  );
}

/** The staff barred from this client or one of its sites (recorded on each staff member's Restricted tab). */
function RestrictedStaffCard() {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'candidate_restrictions', action: 'list' });
  if (!canAccess) return null;
  const col = (source: string) => {
    const field = candidateRestrictions.fields.find((f) => f.source === source)!;
    return (
      <DataTable.Col key={source} source={source} label={field.label}>
        <FieldFor of={field} />
      </DataTable.Col>
    );
  };
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('app.restrictions.on_client')}
        </Typography>
        <ReferenceManyField
          reference="candidate_restrictions"
          target="client_id"
          sort={{ field: 'restricted_on', order: 'DESC' }}
          perPage={10}
          pagination={<Pagination />}
          empty={<Typography color="text.secondary">{translate('app.restrictions.none_on_client')}</Typography>}
        >
          <TableScroll>
            <DataTable
              rowClick={(_id, _r, record) => `/staffs/${record.candidate_id}/restricted`}
              bulkActionButtons={false}
            >
              {['candidate_id', 'site_id', 'reason', 'restricted_on', 'recorded_by'].map(col)}
            </DataTable>
          </TableScroll>
        </ReferenceManyField>
      </CardContent>
    </Card>
  );
}

/** Declared fields of the record, labelled, in a grid of `columns` on wide screens. */
function FieldGrid({ decl, sources, columns }: { decl: ResourceDeclaration; sources: string[]; columns: 3 | 4 }) {
  return (
    <Grid container spacing={2} sx={{ mt: 1, overflowWrap: 'anywhere' }}>
      {sources.map((source) => {
        const field = decl.fields.find((f) => f.source === source)!;
        return (
          <Grid key={source} size={{ xs: 12, sm: 6, md: 12 / columns }}>
            <Labeled label={field.label}>
              <FieldFor of={field} emptyText="—" />
            </Labeled>
          </Grid>
        );
      })}
    </Grid>
  );
}

function AddSiteButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  // react-admin's create form reads its initial values from ?source=.
  const to = `${sitePaths.create}?source=${encodeURIComponent(JSON.stringify({ client_id: record.id }))}`;
  return (
    <MuiButton component={Link} to={to} startIcon={<AddIcon />}>
      {translate('app.clients.add_site')}
    </MuiButton>
  );
}
