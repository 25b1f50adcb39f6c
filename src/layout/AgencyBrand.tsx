import BusinessIcon from '@mui/icons-material/Business';
import { Avatar, Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { useAgency } from './useShellData';
import { StoredImage } from '../engine/react/files';

/** Agency logo (or the default placeholder) and company name, linking to the panel's home. */
export function AgencyBrand({ home }: { home: string }) {
  const translate = useTranslate();
  const { data } = useAgency();
  const name = data?.companyName ?? '';
  return (
    <Box
      component={Link}
      to={home}
      aria-label={name || translate('app.menu.dashboard')}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        color: 'inherit',
        textDecoration: 'none',
        minWidth: 0,
        flex: '0 1 auto',
        mr: { xs: 0.5, sm: 2 },
      }}
    >
      {data?.logoUrl ? (
        // A shipped logo is a plain <img>; a stored one is fetched with the session's token.
        <StoredImage
          value={data.logoUrl}
          alt={translate('app.topbar.logo_alt', { name })}
          sx={{ height: 32, maxWidth: { xs: 96, sm: 140 }, objectFit: 'contain', display: 'block', flexShrink: 0 }}
        />
      ) : (
        <Avatar
          variant="rounded"
          sx={{ width: 32, height: 32, bgcolor: 'primary.main', flexShrink: 0 }}
          aria-label={translate('app.topbar.default_logo')}
          role="img"
        >
          <BusinessIcon fontSize="small" />
        </Avatar>
      )}
      <Typography
        component="span"
        variant="subtitle1"
        noWrap
        data-testid="agency-name"
        // The name gives way first on a narrow bar (ellipsis); the logo keeps its size.
        sx={{
          fontWeight: 600,
          minWidth: 0,
          fontSize: { xs: '0.875rem', sm: '1rem' },
          display: { xs: 'none', sm: 'block' },
        }}
      >
        {name}
      </Typography>
    </Box>
  );
}
