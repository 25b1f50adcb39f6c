import { Box } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import { AppBar, LoadingIndicator, TitlePortal } from 'react-admin';
import { AgencyBrand } from './AgencyBrand';

/** The top bar both panels share: agency logo and name (linking to the panel's home), page title, tools, profile menu. */
export function PanelAppBar({ home, userMenu, tools }: { home: string; userMenu: ReactElement; tools?: ReactNode }) {
  return (
    <AppBar
      color="inherit"
      elevation={1}
      alwaysOn
      userMenu={userMenu}
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          {tools}
          <LoadingIndicator />
        </Box>
      }
    >
      <AgencyBrand home={home} />
      <TitlePortal variant="subtitle1" sx={{ color: 'text.secondary', display: { xs: 'none', lg: 'block' } }} />
    </AppBar>
  );
}
