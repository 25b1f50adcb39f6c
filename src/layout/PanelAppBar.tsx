import { Box } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import { AppBar, LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { visuallyHidden } from '../theme';
import { AgencyBrand } from './AgencyBrand';
import { usePageTitle } from './usePageTitle';
import { useAgency } from './useShellData';

/**
 * The top bar both panels share: agency logo and name (linking to the panel's home), page title, tools, profile
 * menu. On a phone the title is read by screen readers only and the tools shrink to icons, so the menu button,
 * the logo, the tools and the profile menu always fit.
 */
export function PanelAppBar({ home, userMenu, tools }: { home: string; userMenu: ReactElement; tools?: ReactNode }) {
  const translate = useTranslate();
  const { data } = useAgency();
  usePageTitle(data?.companyName || translate('app.name'));
  return (
    <AppBar
      color="inherit"
      elevation={1}
      alwaysOn
      userMenu={userMenu}
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center', flexShrink: 0 }}>
          {tools}
          <LoadingIndicator />
        </Box>
      }
    >
      <AgencyBrand home={home} />
      {/* A div: usePageTitle makes it the page's h1 when the screen has none of its own. */}
      <TitlePortal
        component="div"
        variant="subtitle1"
        sx={{ color: 'text.secondary', display: 'block', '@media (max-width: 1199.95px)': visuallyHidden }}
      />
      {/* Pushes the tools to the right while the title is hidden. */}
      <Box sx={{ flex: 1, display: { xs: 'block', lg: 'none' } }} />
    </AppBar>
  );
}
