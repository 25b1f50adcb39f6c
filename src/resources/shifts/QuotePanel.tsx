import { useEffect, useState } from 'react';
import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { api } from '../../providers/http';
import { shiftInstants } from '../../../core/domain/shifts/times';
import { hours, money, type Quote, type QuoteLine } from './shared';

export interface QuoteRequest {
  client_id?: number | string | null;
  site_id?: number | string | null;
  job_role_id?: number | string | null;
  candidate_id?: number | string | null;
  dates: string[];
  start_time?: string | null;
  end_time?: string | null;
  break_minutes?: number | null;
  staff_needed?: number | null;
}

/** At most this many dates are priced live; a longer run is priced when saved. */
export const QUOTED_DATES = 31;
const TIME = /^\d{2}:\d{2}$/;

/** Lines of several quotes (one a date) added up per band, in the order the bands first appear. */
export function sumQuotes(quotes: Quote[], times = 1): Quote {
  const byBand = new Map<string, QuoteLine>();
  const add = (a: number | undefined, b: number | undefined) =>
    a == null && b == null ? undefined : (a ?? 0) + (b ?? 0);
  for (const q of quotes)
    for (const l of q.lines) {
      const seen = byBand.get(l.band);
      byBand.set(
        l.band,
        seen
          ? { ...seen, hours: seen.hours + l.hours, pay: add(seen.pay, l.pay), charge: seen.charge + l.charge }
          : { ...l },
      );
    }
  const total = (k: 'hours' | 'pay' | 'charge' | 'margin') => {
    const values = quotes.map((q) => q.totals[k]).filter((v): v is number => typeof v === 'number');
    return values.length ? values.reduce((a, b) => a + b, 0) * times : undefined;
  };
  return {
    lines: [...byBand.values()].map((l) => ({
      ...l,
      hours: l.hours * times,
      pay: l.pay == null ? undefined : l.pay * times,
      charge: l.charge * times,
    })),
    totals: { hours: total('hours') ?? 0, pay: total('pay'), charge: total('charge') ?? 0, margin: total('margin') },
    warnings: [...new Set(quotes.flatMap((q) => (q.warnings ?? []).map(warningText)))],
  };
}

/** A quote's warning, sent as words or as { code, message }. */
export const warningText = (w: unknown) =>
  typeof w === 'string' ? w : String((w as { message?: string })?.message ?? '');

/** 'weekday_night' → 'Weekday night'. */
export const bandName = (band: string) => (band.charAt(0).toUpperCase() + band.slice(1)).replace(/_/g, ' ');

/**
 * The live price of what the form describes (POST /api/rates/quote for each date, after typing pauses): lines
 * per band and totals for all the shifts. Pay and margin appear only when the server sends them.
 */
export function QuotePanel({
  request,
  tz,
  panel = 'agency',
}: {
  request: QuoteRequest;
  tz?: string;
  /** A client's user chooses no client: the hint does not ask for one. */ panel?: 'agency' | 'client';
}) {
  const translate = useTranslate();
  const [state, setState] = useState<{ quote?: Quote; error?: string; loading?: boolean; forbidden?: boolean }>({});
  const ready = !!(
    tz &&
    request.client_id &&
    request.site_id &&
    request.job_role_id &&
    request.dates.length &&
    TIME.test(request.start_time ?? '') &&
    TIME.test(request.end_time ?? '')
  );
  const key = JSON.stringify(request);
  useEffect(() => {
    if (!ready) return setState({});
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setState((s) => ({ ...s, loading: true }));
      try {
        const quotes = await Promise.all(
          request.dates.slice(0, QUOTED_DATES).map((date) => {
            const { start, end } = shiftInstants(date, request.start_time!, request.end_time!, tz!);
            return api<Quote>('/rates/quote', {
              method: 'POST',
              signal: controller.signal,
              json: {
                client_id: Number(request.client_id),
                site_id: Number(request.site_id),
                job_role_id: Number(request.job_role_id),
                ...(request.candidate_id ? { candidate_id: Number(request.candidate_id) } : {}),
                start,
                end,
                ...(request.break_minutes != null && String(request.break_minutes) !== ''
                  ? { break_minutes: Number(request.break_minutes) }
                  : {}),
              },
            }).then((r: any) => (r?.data ?? r) as Quote);
          }),
        );
        setState({ quote: sumQuotes(quotes, Math.max(1, Number(request.staff_needed) || 1)) });
      } catch (e: any) {
        // A user who may not price (no quote for them) simply sees no quote.
        if (!controller.signal.aborted)
          setState(
            e?.status === 403 ? { forbidden: true } : { error: e?.message ?? translate('app.shifts.quote.failed') },
          );
      }
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ready, tz]);

  if (state.forbidden) return null;
  return (
    <Box component="section" aria-labelledby="shift-quote-title" aria-busy={!!state.loading} sx={{ mt: 2, mb: 2 }}>
      <Typography id="shift-quote-title" variant="subtitle1" component="h2" gutterBottom>
        {translate('app.shifts.quote.title')}
      </Typography>
      {!ready && (
        <Typography color="text.secondary">
          {translate(panel === 'client' ? 'app.shifts.quote.incomplete_client' : 'app.shifts.quote.incomplete')}
        </Typography>
      )}
      {ready && state.error && <Alert severity="warning">{state.error}</Alert>}
      {ready && state.quote && (
        <QuoteTable
          quote={state.quote}
          note={
            request.dates.length > QUOTED_DATES
              ? translate('app.shifts.quote.partial', { count: QUOTED_DATES })
              : undefined
          }
        />
      )}
    </Box>
  );
}

/** A quote's lines per band and its totals. */
export function QuoteTable({ quote, note }: { quote: Quote; note?: string }) {
  const translate = useTranslate();
  const showPay = quote.lines.some((l) => l.pay != null) || quote.totals.pay != null;
  return (
    <Box data-testid="quote">
      <Table size="small" aria-label={translate('app.shifts.quote.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.shifts.quote.band')}</TableCell>
            <TableCell align="right">{translate('app.shifts.quote.hours')}</TableCell>
            {showPay && <TableCell align="right">{translate('app.shifts.quote.pay_rate')}</TableCell>}
            <TableCell align="right">{translate('app.shifts.quote.charge_rate')}</TableCell>
            {showPay && <TableCell align="right">{translate('app.shifts.quote.pay')}</TableCell>}
            <TableCell align="right">{translate('app.shifts.quote.charge')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {quote.lines.map((l, i) => (
            <TableRow key={`${l.band}-${i}`}>
              <TableCell>{bandName(l.band)}</TableCell>
              <TableCell align="right">{hours(l.hours)}</TableCell>
              {showPay && <TableCell align="right">{money(l.pay_rate)}</TableCell>}
              <TableCell align="right">{money(l.charge_rate)}</TableCell>
              {showPay && <TableCell align="right">{money(l.pay)}</TableCell>}
              <TableCell align="right">{money(l.charge)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, mt: 1 }} data-testid="quote-totals">
        <Typography>{translate('app.shifts.quote.total_hours', { value: hours(quote.totals.hours) })}</Typography>
        {quote.totals.pay != null && (
          <Typography>{translate('app.shifts.quote.total_pay', { value: money(quote.totals.pay) })}</Typography>
        )}
        <Typography sx={{ fontWeight: 600 }}>
          {translate('app.shifts.quote.total_charge', { value: money(quote.totals.charge) })}
        </Typography>
        {quote.totals.margin != null && (
          <Typography>{translate('app.shifts.quote.total_margin', { value: money(quote.totals.margin) })}</Typography>
        )}
      </Box>
      {note && (
        <Typography variant="body2" color="text.secondary">
          {note}
        </Typography>
      )}
      {(quote.warnings ?? []).map(warningText).map((w) => (
        <Alert key={w} severity="warning" sx={{ mt: 1 }}>
          {w}
        </Alert>
      ))}
    </Box>
  );
}
