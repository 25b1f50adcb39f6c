import type { ReactNode } from 'react';
import {
  Box,
  Card,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';

/**
 * A list as a table on a wide screen and as one card per row on a phone (390 px), so every figure is on the screen
 * without a sideways scroll. `cells` are the columns; the first names the row on its card.
 */
export function RowsOrCards<T extends { id: number }>({
  rows,
  label,
  columns,
}: {
  rows: T[];
  label: string;
  columns: { header: string; cell: (r: T) => ReactNode; align?: 'right' }[];
}) {
  const phone = useMediaQuery(useTheme().breakpoints.down('md'));
  if (phone)
    return (
      <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={label}>
        {rows.map((r) => (
          <Card component="li" key={r.id} variant="outlined" sx={{ p: 1.5 }}>
            <Box sx={{ fontWeight: 'bold', mb: 0.5 }}>{columns[0].cell(r)}</Box>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2 }}>
              {columns.slice(1).map((c) => (
                <Box key={c.header} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {c.header}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: c.align ?? 'left' }}>
                    {c.cell(r)}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Card variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.header} align={c.align}>
                {c.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id}>
              {columns.map((c) => (
                <TableCell key={c.header} align={c.align}>
                  {c.cell(r)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
