import { Box, Card, CardContent, Chip, Stack, Tab, Tabs, Typography } from '@mui/material';
import { Link, Navigate, useParams } from 'react-router';
import {
  ChipField,
  DeleteButton,
  EditButton,
  useCanAccess,
  Labeled,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  RecordContextProvider,
  ShowBase,
  SingleFieldList,
  TextField,
  Title,
  useListContext,
  useRecordContext,
  useShowContext,
  useTranslate,
} from 'react-admin';
import { ShowFields } from '../../engine/react/show';
import { type ViewOptions } from '../../engine/react/viewOptions';
import { FileAvatar } from '../../engine/react/files';
import { RecordActions } from '../../engine/react/actions';
import { ChildList, SingleChildForm } from '../../engine/react/children';
import { HistoryPanel } from '../../engine/react/history';
import { candidateDocuments, candidatePreferences } from '../../../core/resources/compliance/resource';
import { staffHolidays } from '../../../core/resources/payroll/resource';
import { RestrictionsTab } from '../compliance/RestrictionBookings';
import { DocumentCheckField } from '../compliance/DocumentCheckField';
import { ComplianceSummary } from './ComplianceSummary';
import { CandidateRateCard } from '../rates/CandidateRateCard';
import { DeductionsTab } from '../payroll/DeductionsTab';
import { NotesAbout } from '../notes/NotesAbout';
import { HelpLink } from '../notes/HelpLink';
import { StaffChatActions } from '../communication/chat/StaffChatActions';
import { PayStaffButton } from '../payroll/PayRunShow';

/** The profile's tabs, in the spec's order; each is a route /staffs/{id}/{tab}. */
export const PROFILE_TABS = [
  'overview',
  'document',
  'profiles',
  'restricted',
  'rate-card',
  'notes',
  'staff-id',
  'candidate-history',
  'candidate-preference',
  'deductions',
  'holiday',
] as const;
type ProfileTab = (typeof PROFILE_TABS)[number];
// Tabs whose content a later release brings; their routes resolve and say so.
const LATER: ProfileTab[] = [];
// The documents tab's columns: what a check needs at a glance (file, dates, check status, expiry).
const DOCUMENT_COLUMNS = [
  'document_category_id',
  'number',
  'issue_date',
  'expiry_date',
  'file',
  'status',
  'expiry_state',
  'days_left',
];

export function CandidateProfileRoute(options: ViewOptions) {
  const { id, tab } = useParams();
  if (!tab) return <Navigate to={`/staffs/${id}/overview`} replace />;
  if (!PROFILE_TABS.includes(tab as ProfileTab)) return <Navigate to={`/staffs/${id}/overview`} replace />;
  return (
    <ShowBase resource="candidates" id={id}>
      <CandidateProfile tab={tab as ProfileTab} options={options} />
    </ShowBase>
  );
}

const fullName = (r: any) => `${r?.first_name ?? ''} ${r?.last_name ?? ''}`.trim();

function StatusChips() {
  const r = useRecordContext();
  const translate = useTranslate();
  if (!r) return null;
  const active = r.status === 'approved' && r.activated;
  return (
    <Stack direction="row" spacing={1}>
      <Chip
        size="small"
        label={translate(`resources.candidates.choices.status.${r.status}`, { _: r.status })}
        color={r.status === 'approved' ? 'success' : r.status === 'rejected' ? 'error' : 'warning'}
      />
      {r.status === 'approved' && (
        <Chip size="small" variant="outlined" label={translate(active ? 'app.staff.active' : 'app.staff.inactive')} />
      )}
    </Stack>
  );
}

function CandidateProfile({ tab, options }: { tab: ProfileTab; options: ViewOptions }) {
  const translate = useTranslate();
  const { record, isPending, error } = useShowContext();
  const { canAccess: canDelete } = useCanAccess({ resource: 'candidates', action: 'delete' });
  if (isPending) return null;
  if (error || !record) return <Typography sx={{ p: 3 }}>{translate('ra.page.not_found')}</Typography>;
  return (
    <RecordContextProvider value={record}>
      <Title title={fullName(record)} />
      <Card sx={{ mt: 2 }}>
        {/* On a phone the header wraps: the name under the photo, then the chips, then the actions on their own
            lines. */}
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <FileAvatar value={record.profile_photo} alt={fullName(record)} sx={{ width: 64, height: 64 }} />
          <Box sx={{ flex: '1 1 12rem', minWidth: 0 }}>
            <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
              {fullName(record)}
            </Typography>
            <ReferenceField source="job_role_id" reference="job_roles" link={false} emptyText="—" />
          </Box>
          <StatusChips />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }} data-testid="profile-actions">
            <RecordActions decl={options.decl} />
            <StaffChatActions candidateId={Number(record.id)} />
            <PayStaffButton candidateId={Number(record.id)} />
            <EditButton to={options.paths.edit(record.id)} />
            {canDelete && <DeleteButton mutationMode="pessimistic" redirect={options.paths.list} />}
            <HelpLink topic="staff" />
          </Box>
        </CardContent>
        {/* The tabs scroll within the card: without `contain` their full width would widen the page on a phone. */}
        <Tabs
          value={tab}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label={translate('app.staff.profile_tabs')}
          sx={{ contain: 'inline-size' }}
        >
          {PROFILE_TABS.map((t) => (
            <Tab
              key={t}
              value={t}
              label={translate(`app.staff.tabs.${t}`)}
              component={Link}
              to={`/staffs/${record.id}/${t}`}
            />
          ))}
        </Tabs>
      </Card>
      <Card sx={{ mt: 2 }}>
        {/* Long values (addresses, e-mails) wrap; wide tables scroll inside their own box (see ChildList). */}
        <CardContent sx={{ overflowWrap: 'anywhere', '& table': { overflowWrap: 'normal' } }}>
          {tab === 'overview' && (
            <>
              <ComplianceSummary id={record.id} />
              <ShowFields decl={options.decl} fieldOverrides={options.fieldOverrides} />
            </>
          )}
          {tab === 'document' && (
            <ChildList
              decl={candidateDocuments}
              parentId={record.id}
              columns={DOCUMENT_COLUMNS}
              header={<ComplianceSummary id={record.id} />}
              cells={{ status: <DocumentCheckField /> }}
            />
          )}
          {tab === 'restricted' && <RestrictionsTab candidateId={record.id} staffName={fullName(record)} />}
          {tab === 'rate-card' && <CandidateRateCard candidateId={record.id} />}
          {tab === 'candidate-preference' && <SingleChildForm decl={candidatePreferences} parentId={record.id} />}
          {tab === 'deductions' && (
            <DeductionsTab candidateId={record.id} employmentTypeId={record.employment_type_id} />
          )}
          {/* Holiday taken, paid from the balance where their employment type accrues holiday (issue 33). */}
          {tab === 'holiday' && (
            <ChildList
              decl={staffHolidays}
              parentId={record.id}
              header={
                <Labeled label="resources.candidates.fields.holiday_balance_hours">
                  <NumberField source="holiday_balance_hours" emptyText="0" />
                </Labeled>
              }
            />
          )}
          {tab === 'candidate-history' && (
            <HistoryPanel target={{ resource: 'candidates', id: record.id, subject: true }} />
          )}
          {tab === 'profiles' && <ProfilesTab />}
          {tab === 'notes' && (
            <Labeled label="resources.candidates.fields.notes">
              <TextField source="notes" emptyText={translate('app.staff.no_notes')} sx={{ whiteSpace: 'pre-wrap' }} />
            </Labeled>
          )}
          {tab === 'notes' && <NotesAbout field="candidate_id" id={record.id} />}
          {tab === 'staff-id' && <StaffIdCard />}
          {LATER.includes(tab) && (
            <Box role="status">
              <Typography variant="h6">{translate(`app.staff.tabs.${tab}`)}</Typography>
              <Typography color="text.secondary">
                {translate('app.coming_soon.body', { _: 'This screen is part of a later release.' })}
              </Typography>
            </Box>
          )}
        </CardContent>
      </Card>
    </RecordContextProvider>
  );
}

function ProfilesTab() {
  const translate = useTranslate();
  const r = useRecordContext();
  if (!r?.staff_profile_ids?.length) return <Typography>{translate('app.staff.no_profiles')}</Typography>;
  return (
    <ReferenceArrayField source="staff_profile_ids" reference="staff_profiles">
      <ProfileCards />
    </ReferenceArrayField>
  );
}

function ProfileCards() {
  const translate = useTranslate();
  const { data } = useListContext();
  return (
    <Stack spacing={2}>
      {(data ?? []).map((p: any) => (
        <RecordContextProvider key={p.id} value={p}>
          <Box>
            <Typography variant="subtitle1">{p.name}</Typography>
            {p.description && <Typography color="text.secondary">{p.description}</Typography>}
            <Labeled label={translate('resources.staff_profiles.fields.document_category_ids')}>
              <ReferenceArrayField source="document_category_ids" reference="document_categories">
                <SingleFieldList linkType={false}>
                  <ChipField source="name" size="small" />
                </SingleFieldList>
              </ReferenceArrayField>
            </Labeled>
          </Box>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

/** A printable staff ID: photo, name, role and staff number. */
function StaffIdCard() {
  const translate = useTranslate();
  const r = useRecordContext();
  if (!r) return null;
  return (
    <Box
      sx={{
        width: 320,
        maxWidth: '100%',
        boxSizing: 'border-box',
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
        p: 2,
        textAlign: 'center',
      }}
      aria-label={translate('app.staff.tabs.staff-id')}
    >
      <FileAvatar value={r.profile_photo} alt={fullName(r)} sx={{ width: 96, height: 96, mx: 'auto', mb: 1 }} />
      <Typography variant="h6">{fullName(r)}</Typography>
      <ReferenceField source="job_role_id" reference="job_roles" link={false} emptyText="—" />
      <Typography sx={{ mt: 1, fontFamily: 'monospace' }}>
        {translate('app.staff.staff_number')}: {String(r.id).padStart(6, '0')}
      </Typography>
      <StatusChips />
    </Box>
  );
}
