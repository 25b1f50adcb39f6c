import ConstructionIcon from '@mui/icons-material/Construction';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { getLoginType, homeOf } from '../providers/session';
import { PageHeader } from './PageHeader';

/** An honest placeholder for a screen of a later release: its name, one sentence, and a way back. */
export function ComingSoon({ screen }: { screen: string }) {
  const translate = useTranslate();
  const title = translate(`app.screens.${screen}`, { _: screen });
  return (
    <Box data-testid="coming-soon">
      <PageHeader title={title} />
      <Paper
        variant="outlined"
        sx={{ p: 4, display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2, maxWidth: 640 }}
      >
        <ConstructionIcon color="action" fontSize="large" aria-hidden="true" />
        <Typography>{translate('app.coming_soon.text')}</Typography>
        <Button component={Link} to={homeOf(getLoginType())} variant="outlined">
          {translate('app.coming_soon.back')}
        </Button>
      </Paper>
    </Box>
  );
}
