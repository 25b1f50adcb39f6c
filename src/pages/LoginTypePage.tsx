import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useState } from 'react';
import { useAuthProvider, useGetIdentity, useResetStore, useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router';
import { getLoginType, homeOf } from '../providers/session';
import type { LoginState } from './Login';
import { PageHeader } from './PageHeader';

/** /LoginType: which panel you are signed into, and a switch to the other (signs out, opens Login preselected). */
export function LoginTypePage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const authProvider = useAuthProvider();
  const resetStore = useResetStore();
  const { identity } = useGetIdentity();
  const [busy, setBusy] = useState(false);
  const current = getLoginType() ?? 'agency';
  const other = current === 'agency' ? 'client' : 'agency';
  const panel = translate(`app.panel.${current}`);
  const otherPanel = translate(`app.panel.${other}`);

  const switchPanel = async () => {
    setBusy(true);
    try {
      await authProvider?.logout({});
    } finally {
      resetStore();
      const state: LoginState = { reason: 'switch_panel', panel: other };
      navigate('/', { state });
    }
  };

  return (
    <Box>
      <PageHeader title={translate('app.login_type.title')} />
      <Paper
        variant="outlined"
        sx={{ p: 3, maxWidth: 640, display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}
      >
        <Typography>
          {identity?.fullName
            ? translate('app.login_type.current', { panel, name: identity.fullName })
            : translate('app.login_type.current_anonymous', { panel })}
        </Typography>
        <Button component={Link} to={homeOf(current)} variant="contained">
          {translate('app.login_type.continue', { panel })}
        </Button>
        <Typography color="text.secondary">{translate('app.login_type.switch_help')}</Typography>
        <Button onClick={switchPanel} disabled={busy} variant="outlined" startIcon={<SwapHorizIcon />}>
          {translate('app.login_type.switch', { panel: otherPanel })}
        </Button>
      </Paper>
    </Box>
  );
}
