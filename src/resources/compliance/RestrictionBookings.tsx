import { useId, useState } from 'react';
import {
  Alert,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import {
  useDataProvider,
  useGetOne,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { ChildList } from '../../engine/react/children';
import { hasView } from '../../../core/engine/types';
import type { RunActionParams } from '../../providers/dataProvider';
import { shiftWhen, useAgencyTimeZone } from '../shifts/shared';
import { candidateRestrictions } from '../../../core/resources/compliance/resource';

/** A future booking a restriction covers (candidate_restrictions.affected_shifts, computed on the server). */
export interface CoveredShift {
  id: number;
  start_at: string;
  end_at: string;
  site: string;
}

const coveredBy = (r: RaRecord | undefined): CoveredShift[] =>
  Array.isArray(r?.affected_shifts) ? r.affected_shifts : [];

// The tab's columns: the list's, then the bookings each restriction still covers.
const COLUMNS = [
  ...candidateRestrictions.fields.filter((f) => hasView(f, 'list') && f.source !== 'candidate_id').map((f) => f.source),
  'affected_shifts',
];

/**
 * A staff member's Restricted tab: their restrictions, and for one that covers future bookings (added now, or kept
 * earlier) the offer to unassign them. Adding such a restriction opens the offer at once.
 */
export function RestrictionsTab({ candidateId, staffName }: { candidateId: Identifier; staffName: string }) {
  const [reviewing, setReviewing] = useState<RaRecord | null>(null);
  return (
    <>
      <ChildList
        decl={candidateRestrictions}
        parentId={candidateId}
        columns={COLUMNS}
        cells={{ affected_shifts: <CoveredCell onReview={setReviewing} /> }}
        onCreated={(saved) => coveredBy(saved).length > 0 && setReviewing(saved)}
      />
      {reviewing && (
        <CoveredBookingsDialog restriction={reviewing} staffName={staffName} onClose={() => setReviewing(null)} />
      )}
    </>
  );
}

/** A restriction's row: "None", or how many bookings it covers as a button that opens the offer again. */
function CoveredCell({ onReview }: { onReview: (r: RaRecord) => void }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const n = coveredBy(record).length;
  if (!record) return null;
  if (n === 0) return <span>{translate('app.restrictions.covered.none')}</span>;
  return (
    <MuiButton size="small" color="warning" onClick={() => onReview(record)} sx={{ whiteSpace: 'nowrap' }}>
      {translate('app.restrictions.covered.review', { smart_count: n })}
    </MuiButton>
  );
}

/**
 * The bookings a restriction covers (date, time, site) with "Unassign these N shifts" and "Keep them". Unassigning is
 * the shifts' own bulk `unassign` action (all or none; each staff member is told, each shift is open again).
 */
export function CoveredBookingsDialog({
  restriction,
  staffName,
  onClose,
}: {
  restriction: RaRecord;
  staffName: string;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const tz = useAgencyTimeZone();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider() as ReturnType<typeof useDataProvider> & {
    runAction(resource: string, p: RunActionParams): Promise<unknown>;
  };
  // The record as it is now (someone may have unassigned one meanwhile), the saved one until it is read.
  const { data: current, refetch } = useGetOne('candidate_restrictions', { id: restriction.id });
  const shifts = coveredBy(current ?? restriction);
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string>();
  const n = shifts.length;

  const unassign = async () => {
    setRunning(true);
    setFailure(undefined);
    try {
      await dataProvider.runAction('shifts', { ids: shifts.map((s) => s.id), action: 'unassign' });
      notify('app.restrictions.covered.unassigned', {
        type: 'success',
        messageArgs: { smart_count: n, name: staffName },
      });
      refresh();
      onClose();
    } catch (e: any) {
      // Nothing was unassigned (all or none): say why and show the bookings as they are now.
      setFailure(e?.message || translate('ra.notification.http_error'));
      void refetch();
    } finally {
      setRunning(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{translate('app.restrictions.covered.title', { smart_count: n })}</DialogTitle>
      <DialogContent>
        {n === 0 ? (
          <Typography role="status">{translate('app.restrictions.covered.none_left', { name: staffName })}</Typography>
        ) : (
          <>
            <Typography>
              {translate('app.restrictions.covered.explain', { smart_count: n, name: staffName })}
            </Typography>
            <List dense aria-label={translate('app.restrictions.covered.list')} data-testid="covered-shifts">
              {shifts.map((s) => (
                <ListItem key={s.id} disableGutters>
                  <ListItemText primary={shiftWhen(s.start_at, s.end_at, tz)} secondary={s.site} />
                </ListItem>
              ))}
            </List>
          </>
        )}
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <MuiButton onClick={onClose} disabled={running}>
          {translate(n === 0 ? 'ra.action.close' : 'app.restrictions.covered.keep', { smart_count: n })}
        </MuiButton>
        {n > 0 && (
          <MuiButton
            variant="contained"
            color="warning"
            startIcon={<PersonRemoveIcon />}
            onClick={unassign}
            disabled={running}
          >
            {translate('app.restrictions.covered.unassign', { smart_count: n })}
          </MuiButton>
        )}
      </DialogActions>
    </Dialog>
  );
}
