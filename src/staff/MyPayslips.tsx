import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Link,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Typography,
} from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Link as RouterLink } from 'react-router';
import { ApiFailure, request } from '../providers/request';
import { downloadFrom } from '../providers/download';
import { fill, staffTexts as say } from './messages';
import { formatPounds } from '../../core/engine/money';
import { NET_PAY, YEAR_TO_DATE, payslipView } from '../../core/domain/payroll/payslipView';
import type { OwnBankDetailsAnswer } from '../../core/contracts/payroll';

interface MyPayslip {
  id: number;
  period_start: string;
  period_end: string;
  gross: number;
  net: number;
  [field: string]: unknown;
}

/** Dates on the staff page read as the product's everywhere: yyyy-MM-dd. */
const asTyped = (date: string) => date;

/**
 * Where the staff member's pay goes, as the agency holds it: their own bank details masked ("Sort code ending 56,
 * account ending 5678"), never in full (the server answers only the masked line), or that the agency has none yet.
 */
export function MyBankDetails() {
  const [masked, setMasked] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    request<OwnBankDetailsAnswer>('/staff_bank_details')
      .then((r) => current && setMasked(r.data.masked))
      // Not worth failing the page for: the payslips still show.
      .catch(() => current && setMasked(undefined));
    return () => {
      current = false;
    };
  }, []);
  if (masked === undefined) return null;
  return (
    <Box component="section" aria-label={say.bank_details_title} sx={{ px: 2, pt: 1.5 }}>
      <Typography component="h2" variant="overline" sx={{ display: 'block' }}>
        {say.bank_details_title}
      </Typography>
      {masked ? (
        <>
          <Typography data-testid="own-bank-details">{fill(say.bank_details_masked, { masked })}</Typography>
          <Typography variant="body2" color="text.secondary">
            {say.bank_details_why}
          </Typography>
        </>
      ) : (
        <Alert severity="warning" data-testid="own-bank-details">
          {say.bank_details_none}
        </Alert>
      )}
    </Box>
  );
}

/**
 * The staff member's payslips (/staff-app/payslips): those of their finalised pay runs, newest pay day first (the
 * server's staff scope keeps everyone else's, and a run not yet finalised, from them), each opening its page.
 */
export function MyPayslipsList({ onFailure }: { onFailure: (e: unknown) => void }) {
  const [slips, setSlips] = useState<MyPayslip[] | null>(null);
  useEffect(() => {
    let current = true;
    request<{ data: MyPayslip[] }>('/payslips?sort=period_end&order=DESC&per_page=100')
      .then((r) => current && setSlips(r.data))
      .catch((e) => current && onFailure(e));
    return () => {
      current = false;
    };
  }, [onFailure]);
  if (!slips) return <CircularProgress aria-label={say.loading} sx={{ m: 2 }} />;
  if (slips.length === 0)
    return (
      <Box sx={{ overflowY: 'auto' }}>
        <MyBankDetails />
        <Typography sx={{ p: 2 }}>{say.no_payslips}</Typography>
      </Box>
    );
  return (
    <Box sx={{ overflowY: 'auto' }}>
      <MyBankDetails />
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1.5 }}>
        {say.payslips_intro}
      </Typography>
      <List aria-label={say.payslips_title}>
        {slips.map((p) => (
          <ListItem key={p.id} disablePadding divider>
            <ListItemButton component={RouterLink} to={`/staff-app/payslips/${p.id}`}>
              <ListItemText
                primary={fill(say.payslip_paid_on, { date: asTyped(p.period_end) })}
                secondary={fill(say.payslip_summary, {
                  from: asTyped(p.period_start),
                  to: asTyped(p.period_end),
                  net: formatPounds(Number(p.net)),
                  gross: formatPounds(Number(p.gross)),
                })}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

/** A label and its amount, as one row of a definition list. */
function Figure({ label, amount, strong }: { label: string; amount: number; strong?: boolean }) {
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5, fontWeight: strong ? 'bold' : 'normal' }}
    >
      <Box component="dt">{label}</Box>
      <Box component="dd" sx={{ m: 0, textAlign: 'right', whiteSpace: 'nowrap' }}>
        {formatPounds(amount)}
      </Box>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ px: 2, pt: 1.5 }}>
      <Typography component="h2" variant="overline" sx={{ display: 'block' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * One payslip, readable on the phone without downloading it (/staff-app/payslips/{id}): what its kept PDF says, from
 * the same payslipView (its period, each line with its hours and rate, the figures taken off, net pay and the year to
 * date), and the PDF itself to download. Someone else's, or one not yet finalised, is not found.
 */
export function MyPayslip({ id, onFailure }: { id: string; onFailure: (e: unknown) => void }) {
  const [state, setState] = useState<{ slip: MyPayslip; lines: Record<string, unknown>[] } | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => {
    let current = true;
    Promise.all([
      request<{ data: MyPayslip }>(`/payslips/${encodeURIComponent(id)}`),
      request<{ data: Record<string, unknown>[] }>(`/payslip_lines?payslip_id=${encodeURIComponent(id)}&per_page=100`),
    ])
      .then(([s, l]) => current && setState({ slip: s.data, lines: l.data }))
      .catch((e) => {
        if (!current) return;
        if (e instanceof ApiFailure && (e.status === 404 || e.status === 400)) setMissing(true);
        else onFailure(e);
      });
    return () => {
      current = false;
    };
  }, [id, onFailure]);
  const back = (
    <Link component={RouterLink} to="/staff-app/payslips" sx={{ px: 2, py: 1.5, display: 'inline-block' }}>
      {say.all_payslips}
    </Link>
  );
  if (missing)
    return (
      <Box>
        <Typography sx={{ p: 2 }}>{say.payslip_missing}</Typography>
        {back}
      </Box>
    );
  if (!state) return <CircularProgress aria-label={say.loading} sx={{ m: 2 }} />;
  const view = payslipView(state.slip, state.lines, '', asTyped);
  const download = async () => {
    setBusy(true);
    setError('');
    try {
      await downloadFrom(`/payslips/${state.slip.id}/pdf`);
    } catch (e) {
      setError(e instanceof Error ? e.message : say.network);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ overflowY: 'auto', pb: 2 }}>
      {back}
      <Box sx={{ px: 2 }}>
        <Typography component="h2" variant="h6">
          {fill(say.payslip_period, { period: view.period })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {view.basis}
        </Typography>
      </Box>
      <Section title={say.payslip_lines}>
        {view.lines.length === 0 ? (
          <Typography color="text.secondary">{say.payslip_no_lines}</Typography>
        ) : (
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {view.lines.map((l, i) => (
              <Box component="li" key={i} sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
                  <Typography sx={{ fontWeight: 'bold', overflowWrap: 'anywhere' }}>{l.description}</Typography>
                  <Typography sx={{ whiteSpace: 'nowrap' }}>{formatPounds(l.amount)}</Typography>
                </Box>
                <Typography variant="body2" color="text.secondary">
                  {[
                    l.date,
                    l.kind,
                    l.hours && l.rate
                      ? fill(say.payslip_hours_at, { hours: l.hours, rate: l.rate })
                      : l.hours
                        ? fill(say.payslip_hours, { hours: l.hours })
                        : l.rate,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </Section>
      <Section title={say.payslip_figures}>
        <Box component="dl" sx={{ m: 0 }}>
          {view.figures.map((f) => (
            <Figure key={f.label} label={f.label} amount={f.amount} />
          ))}
          <Figure label={NET_PAY} amount={view.net} strong />
          {view.vat.map((v) => (
            <Figure key={v.label} label={v.label} amount={v.amount} />
          ))}
        </Box>
        {view.holidayHours && <Typography variant="body2">{view.holidayHours}</Typography>}
      </Section>
      <Section title={YEAR_TO_DATE}>
        <Box component="dl" sx={{ m: 0 }}>
          {view.yearToDate.map((y) => (
            <Figure key={y.label} label={y.label} amount={y.amount} />
          ))}
        </Box>
      </Section>
      <Box sx={{ px: 2, pt: 2 }}>
        <Button
          variant="contained"
          startIcon={<PictureAsPdfIcon />}
          onClick={download}
          disabled={busy}
          aria-busy={busy}
        >
          {say.payslip_download}
        </Button>
        <Box aria-live="polite">
          {error && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {error}
            </Alert>
          )}
        </Box>
      </Box>
    </Box>
  );
}
