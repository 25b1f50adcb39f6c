import { Box, Typography } from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** A screen's heading (the page's h1), also used as the document title. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const translate = useTranslate();
  useEffect(() => {
    document.title = `${title} · ${translate('app.name')}`;
  }, [title, translate]);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 3, flexWrap: 'wrap' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
