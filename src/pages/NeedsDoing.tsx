import { Alert, Box, Button, Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { api } from '../providers/http';
import { useChatUnread } from '../layout/useShellData';
import { formatPounds } from '../../core/engine/money';
import { NEEDS_DOING, queueSentence, type NeedsDoingItem } from '../../core/resources/needsDoing';
import type { NeedsDoingAnswer } from '../../core/contracts/dashboard';

/** A list of cards as a grid of columns at least `min` px wide (one column on a phone): the dashboard's lists. */
export const cardGrid = (min: number) => ({
  listStyle: 'none',
  p: 0,
  m: 0,
  display: 'grid',
  gap: 2,
  gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))`,
});

/** One entry of the queue as shown: its sentence, where it leads, and the amount under it. */
interface Entry {
  id: string;
  count: number;
  sentence: string;
  to: string;
  amount?: string;
}

/** The list a count opens, with the count's filters: it shows the rows counted. */
export const queueLink = (route: string, filter: Record<string, string>) =>
  `${route}?${new URLSearchParams({ filter: JSON.stringify(filter) })}`;

function entryOf(item: NeedsDoingItem, figure: NeedsDoingAnswer['data'][number], translate: Translate): Entry {
  return {
    id: item.id,
    count: figure.count,
    sentence: queueSentence(item, figure.count),
    to: queueLink(figure.route, figure.filter),
    amount:
      figure.sum !== undefined && figure.count > 0
        ? translate('app.needs_doing.amount', { amount: formatPounds(figure.sum) })
        : undefined,
  };
}
type Translate = ReturnType<typeof useTranslate>;

function QueueCard({ entry }: { entry: Entry }) {
  const zero = entry.count === 0;
  // The link's name is the whole sentence ("3 unfilled shifts in the next 24 hours, £120.00 outstanding"): the
  // number is drawn large, the words under it.
  const name = entry.amount ? `${entry.sentence}, ${entry.amount}` : entry.sentence;
  const words = zero ? entry.sentence : entry.sentence.slice(String(entry.count).length + 1);
  return (
    <Card variant="outlined" sx={{ height: '100%', ...(zero ? { borderStyle: 'dashed' } : {}) }}>
      <CardActionArea
        component={Link}
        to={entry.to}
        aria-label={name}
        data-queue={entry.id}
        data-count={entry.count}
        sx={{ height: '100%', alignItems: 'flex-start' }}
      >
        <CardContent>
          {!zero && (
            <Typography component="span" variant="h4" sx={{ display: 'block', fontWeight: 600 }}>
              {entry.count}{' '}
            </Typography>
          )}
          <Typography component="span" color={zero ? 'text.secondary' : 'text.primary'} sx={{ display: 'block' }}>
            {words}
          </Typography>
          {entry.amount && (
            <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
              {' '}
              {entry.amount}
            </Typography>
          )}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** The queue's one request; the dashboard's charts share it to wait for it (they load after the figures). */
export const needsDoingQuery = {
  queryKey: ['home', 'needs_doing'],
  retry: false,
  staleTime: 30_000,
  queryFn: ({ signal }: { signal: AbortSignal }) => api<NeedsDoingAnswer>('/dashboard/needs_doing', { signal }),
};

/**
 * The agency dashboard's work queue (issue 34): every count the caller may see, each a link to the list of exactly
 * those rows. The figures come in one request (GET /api/dashboard/needs_doing); the unread messages are the top
 * bar's own count (the chat is not a declared list), leading to the chat.
 */
export function NeedsDoing() {
  const translate = useTranslate();
  const figures = useQuery(needsDoingQuery);
  const messages = useChatUnread();
  const heading = (
    <Typography variant="subtitle1" component="h2" id="needs-doing" sx={{ fontWeight: 600, mb: 1.5 }}>
      {translate('app.needs_doing.title')}
    </Typography>
  );

  if (figures.isPending)
    return (
      <Box component="section" aria-labelledby="needs-doing" aria-busy="true" sx={{ mb: 3 }}>
        {heading}
        <Typography role="status" color="text.secondary" sx={{ mb: 1 }}>
          {translate('app.needs_doing.loading')}
        </Typography>
        <Box sx={{ ...cardGrid(220), listStyle: undefined }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={96} />
          ))}
        </Box>
      </Box>
    );
  if (figures.isError)
    return (
      <Box component="section" aria-labelledby="needs-doing" sx={{ mb: 3 }}>
        {heading}
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void figures.refetch()}>
              {translate('app.needs_doing.retry')}
            </Button>
          }
        >
          {translate('app.needs_doing.failed')}
        </Alert>
      </Box>
    );

  const byId = new Map(figures.data.data.map((f) => [f.id, f]));
  const entries: Entry[] = NEEDS_DOING.filter((i) => byId.has(i.id)).map((i) => entryOf(i, byId.get(i.id)!, translate));
  if (typeof messages.data === 'number') {
    const label = {
      one: translate('app.needs_doing.messages.one'),
      many: translate('app.needs_doing.messages.many'),
    };
    entries.push({
      id: 'messages',
      count: messages.data,
      sentence: queueSentence({ label }, messages.data),
      to: '/chat',
    });
  }
  const waiting = entries.filter((e) => e.count > 0);
  // What waits comes first; what is clear follows, in words ("No staff awaiting approval").
  const ordered = [...waiting, ...entries.filter((e) => e.count === 0)];
  return (
    <Box component="section" aria-labelledby="needs-doing" sx={{ mb: 3 }} data-testid="needs-doing">
      {heading}
      {waiting.length === 0 && (
        <Typography color="text.secondary" sx={{ mb: 1.5 }}>
          {translate('app.needs_doing.nothing')}
        </Typography>
      )}
      {ordered.length > 0 && (
        <Box component="ul" sx={cardGrid(220)}>
          {ordered.map((e) => (
            <li key={e.id}>
              <QueueCard entry={e} />
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
}
