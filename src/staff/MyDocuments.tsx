import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormHelperText,
  List,
  ListItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { format, isValid } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { ApiFailure, request } from '../providers/request';
import { getToken } from '../providers/session';
import { fill, staffTexts as say } from './messages';
import type { Compliance } from '../../core/contracts/compliance';

interface MyDocument {
  id: number;
  document_category_id: number;
  category_name: string | null;
  expiry_date: string | null;
  status: 'awaiting' | 'verified' | 'rejected';
  rejection_reason: string | null;
  file_name: string | null;
}

/** A category the staff member may upload under: the one missing, expired or expiring, or one they hold. */
interface Wanted {
  category_id: number;
  name: string;
}

/** Sends the file's bytes to the file store (the staff member's own upload until the document takes it). */
async function uploadFile(file: File): Promise<string> {
  const res = await fetch('/api/files?kind=document', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${getToken()}`,
      'content-type': 'application/octet-stream',
      'x-file-name': encodeURIComponent(file.name),
    },
    body: file,
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiFailure(body?.message ?? res.statusText, res.status, body);
  return body.data.id;
}

function UploadDialog({
  candidateId,
  wanted,
  onClose,
  onDone,
}: {
  candidateId: number;
  wanted: Wanted;
  onClose: () => void;
  onDone: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState<Date | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return setErrors({ file: say.file_missing });
    if (expiry && !isValid(expiry)) return setErrors({ expiry_date: say.date_invalid });
    setBusy(true);
    setErrors({});
    try {
      const id = await uploadFile(file);
      await request('/candidate_documents', {
        method: 'POST',
        json: {
          candidate_id: candidateId,
          document_category_id: wanted.category_id,
          file: id,
          number: number.trim() || null,
          expiry_date: expiry ? format(expiry, 'yyyy-MM-dd') : null,
        },
      });
      onDone();
    } catch (err) {
      const fields = err instanceof ApiFailure ? (err.body?.errors ?? {}) : {};
      setErrors(Object.keys(fields).length ? fields : { _: err instanceof ApiFailure ? err.message : say.network });
      setBusy(false);
    }
  };
  const title = fill(say.upload_title, { name: wanted.name });
  return (
    <Dialog open onClose={onClose} fullWidth aria-labelledby="upload-title">
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle id="upload-title">{title}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {errors._ && <Alert severity="error">{errors._}</Alert>}
          <Box>
            <input
              ref={input}
              id="document-file"
              type="file"
              accept="application/pdf,image/png,image/jpeg,image/webp"
              hidden
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            <Button variant="outlined" onClick={() => input.current?.click()} aria-describedby="document-file-help">
              {say.choose_file}
            </Button>
            <FormHelperText id="document-file-help" error={!!errors.file}>
              {errors.file ?? (file ? fill(say.file_chosen, { name: file.name }) : '')}
            </FormHelperText>
          </Box>
          <TextField
            label={say.document_number}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            error={!!errors.number}
            helperText={errors.number}
            slotProps={{ htmlInput: { maxLength: 60 } }}
          />
          <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={enGB}>
            <DatePicker
              label={say.expiry_date}
              value={expiry}
              onChange={setExpiry}
              format="yyyy-MM-dd"
              slotProps={{ textField: { error: !!errors.expiry_date, helperText: errors.expiry_date } }}
            />
          </LocalizationProvider>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{say.cancel}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {say.save_upload}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography component="h2" variant="overline" sx={{ px: 2, pt: 1.5, display: 'block' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * The staff member's documents: what is missing, expired and expiring for their job role (their compliance), each
 * with Upload, and the documents they hold with the agency's check. An upload awaits the agency's check.
 */
export function MyDocuments({ candidateId, onFailure }: { candidateId: number; onFailure: (e: unknown) => void }) {
  const [state, setState] = useState<{ compliance: Compliance; documents: MyDocument[] } | null>(null);
  const [uploading, setUploading] = useState<Wanted | null>(null);
  const [notice, setNotice] = useState('');
  const load = useCallback(
    () =>
      Promise.all([
        request<{ data: Compliance }>('/staff_compliance'),
        request<{ data: MyDocument[] }>('/candidate_documents?current=true&sort=expiry_date&order=asc&per_page=100'),
      ])
        .then(([c, d]) => setState({ compliance: c.data, documents: d.data }))
        .catch(onFailure),
    [onFailure],
  );
  useEffect(() => {
    void load();
  }, [load]);
  if (!state) return <CircularProgress aria-label={say.loading} sx={{ m: 2 }} />;
  const { compliance, documents } = state;
  const held = new Map(documents.map((d) => [d.document_category_id, d]));
  const uploadButton = (w: Wanted) => (
    <Button
      size="small"
      variant="outlined"
      onClick={() => setUploading(w)}
      aria-label={fill(say.upload_label, { name: w.name })}
    >
      {say.upload}
    </Button>
  );
  const checkChip = (d: MyDocument | undefined) =>
    !d ? null : d.status === 'awaiting' ? (
      <Chip size="small" color="info" label={say.awaiting_check} />
    ) : d.status === 'rejected' ? (
      <Chip size="small" color="error" label={fill(say.rejected, { reason: d.rejection_reason ?? '' })} />
    ) : (
      <Chip size="small" color="success" label={say.verified} />
    );
  const row = (key: string, name: string, detail: string, w: Wanted, d?: MyDocument) => (
    <ListItem key={key} divider sx={{ display: 'block', py: 1 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 'bold', flex: 1, minWidth: '8rem' }}>{name}</Typography>
        {checkChip(d)}
        {uploadButton(w)}
      </Stack>
      {detail && (
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      )}
    </ListItem>
  );
  return (
    <Box sx={{ overflowY: 'auto' }}>
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1.5 }}>
        {say.documents_intro}
      </Typography>
      <Box aria-live="polite">
        {notice && (
          <Alert severity="success" sx={{ m: 2, mb: 0 }} onClose={() => setNotice('')}>
            {notice}
          </Alert>
        )}
      </Box>
      {compliance.compliant && compliance.expiring.length === 0 && (
        <Alert severity="success" sx={{ m: 2, mb: 0 }}>
          {say.compliant}
        </Alert>
      )}
      {compliance.missing.length > 0 && (
        <Section title={say.missing}>
          <List disablePadding>
            {compliance.missing.map((m) =>
              row(
                `m${m.category_id}`,
                m.name,
                '',
                { category_id: m.category_id, name: m.name },
                held.get(m.category_id),
              ),
            )}
          </List>
        </Section>
      )}
      {compliance.expired.length > 0 && (
        <Section title={say.expired}>
          <List disablePadding>
            {compliance.expired.map((m) =>
              row(`x${m.category_id}`, m.name, fill(say.expired_on, { date: m.expiry_date }), {
                category_id: m.category_id,
                name: m.name,
              }),
            )}
          </List>
        </Section>
      )}
      {compliance.expiring.length > 0 && (
        <Section title={say.expiring}>
          <List disablePadding>
            {compliance.expiring.map((m) =>
              row(
                `e${m.category_id}`,
                m.name,
                fill(say.expires_on, { date: m.expiry_date, smart_count: m.days_left }),
                { category_id: m.category_id, name: m.name },
              ),
            )}
          </List>
        </Section>
      )}
      <Section title={say.mine}>
        {documents.length === 0 ? (
          <Typography sx={{ px: 2, pb: 1 }} color="text.secondary">
            {say.no_documents}
          </Typography>
        ) : (
          <List disablePadding>
            {documents.map((d) => {
              const name = d.category_name ?? '';
              return row(
                `d${d.id}`,
                name,
                d.expiry_date ? fill(say.valid_until, { date: d.expiry_date }) : say.no_expiry,
                { category_id: d.document_category_id, name },
                d,
              );
            })}
          </List>
        )}
      </Section>
      {uploading && (
        <UploadDialog
          candidateId={candidateId}
          wanted={uploading}
          onClose={() => setUploading(null)}
          onDone={() => {
            setUploading(null);
            setNotice(say.uploaded);
            void load();
          }}
        />
      )}
    </Box>
  );
}
