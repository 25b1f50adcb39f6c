import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A screen's heading (the page's h1); the layout names the browser tab after it (usePageTitle). */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 3, flexWrap: 'wrap' }}
    >
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
