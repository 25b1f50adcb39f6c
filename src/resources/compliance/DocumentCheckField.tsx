import { Box, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { EMPTY } from '../../engine/react/fields';
import { DOCUMENT_STATUS } from '../../../core/resources/compliance/resource';

/**
 * A document's check where documents are listed (the staff member's Documents tab, the document report): its
 * state and, for a rejected one, the reason, so that whoever uploads the next one knows what was wrong.
 */
export function DocumentCheckField(_: { source?: string; label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record?.status) return <span>{EMPTY}</span>;
  const choice = DOCUMENT_STATUS.find((c) => c.id === record.status);
  const state = choice
    ? translate(`resources.candidate_documents.choices.status.${choice.id}`, { _: choice.name })
    : String(record.status);
  const reason =
    record.status === 'rejected' && typeof record.rejection_reason === 'string' ? record.rejection_reason.trim() : '';
  return (
    <Box sx={{ whiteSpace: 'normal', minWidth: reason ? 160 : undefined, maxWidth: 320 }}>
      <span>{state}</span>
      {reason && (
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {translate('app.documents.rejected_because', { reason, _: `Because: ${reason}` })}
        </Typography>
      )}
    </Box>
  );
}
