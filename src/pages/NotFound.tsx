import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router';
import { getLoginType, homeOf } from '../providers/session';
import { PageHeader } from './PageHeader';

/** The catch-all inside the signed-in shell. */
export function NotFound() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  return (
    <Box data-testid="not-found">
      <PageHeader title={translate('app.not_found.title')} />
      <Paper
        variant="outlined"
        sx={{ p: 4, display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2, maxWidth: 640 }}
      >
        <SearchOffIcon color="action" fontSize="large" aria-hidden="true" />
        <Typography>{translate('app.not_found.text', { path: pathname })}</Typography>
        <Button component={Link} to={homeOf(getLoginType())} variant="contained">
          {translate('app.not_found.back')}
        </Button>
      </Paper>
    </Box>
  );
}
