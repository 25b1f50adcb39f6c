import BusinessIcon from '@mui/icons-material/Business';
import { Alert, Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useGetIdentity, useTranslate } from 'react-admin';
import { useParams } from 'react-router';
import { useAgency } from '../layout/useShellData';
import { getMerchantId } from '../providers/session';
import { PageHeader } from './PageHeader';
import { FileAvatar, StoredImage } from '../engine/react/files';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="div" sx={{ display: 'grid', gridTemplateColumns: '140px 1fr', py: 1, borderBottom: 1, borderColor: 'divider' }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** /admin/{id}: the admin page of the user's own agency, with the signed-in user. */
export function PersonalSettings() {
  const translate = useTranslate();
  const { id } = useParams();
  const { identity } = useGetIdentity();
  const agency = useAgency();
  const own = id === getMerchantId();
  return (
    <Box>
      <PageHeader title={translate('app.personal.title')} />
      {!own ? (
        <Alert severity="warning">{translate('app.personal.not_yours')}</Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="personal-agency">
            <Typography id="personal-agency" variant="h6" component="h2" sx={{ mb: 2 }}>
              {translate('app.personal.agency')}
            </Typography>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
              {agency.data?.logoUrl ? (
                <StoredImage value={agency.data.logoUrl} alt={translate('app.personal.logo')} sx={{ height: 48, maxWidth: 200, objectFit: 'contain' }} />
              ) : (
                <FileAvatar variant="rounded" value={agency.data?.profilePhoto} sx={{ width: 48, height: 48, bgcolor: 'primary.main' }} role="img" aria-label={translate('app.topbar.default_logo')}>
                  <BusinessIcon />
                </FileAvatar>
              )}
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {agency.data?.companyName}
              </Typography>
            </Box>
          </Paper>
          <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="personal-user">
            <Typography id="personal-user" variant="h6" component="h2" sx={{ mb: 1 }}>
              {translate('app.personal.user')}
            </Typography>
            <Box component="dl" sx={{ m: 0 }}>
              <Row label={translate('app.personal.name')}>{identity?.fullName}</Row>
              <Row label={translate('app.personal.email')}>{identity?.email}</Row>
              <Row label={translate('app.personal.role')}>{identity?.role}</Row>
              <Row label={translate('app.personal.panel')}>{identity?.loginType ? translate(`app.panel.${identity.loginType}`) : ''}</Row>
            </Box>
          </Paper>
        </Box>
      )}
    </Box>
  );
}
