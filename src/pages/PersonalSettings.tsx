import { Alert, Box, Typography } from '@mui/material';
import { MyNotifications } from './MyNotifications';
import type { ReactNode } from 'react';
import { useGetIdentity, useTranslate } from 'react-admin';
import { useParams } from 'react-router';
import { getMerchantId } from '../providers/session';
import { AgencyDetails, ChangePassword, MyName, Section } from './AccountForms';
import { PageHeader } from './PageHeader';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="div"
      sx={{ display: 'grid', gridTemplateColumns: '140px 1fr', py: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** The signed-in user's e-mail, role and panel (what they cannot change here). */
export function AccountFacts() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  return (
    <Box component="dl" sx={{ m: 0, mb: 3 }}>
      <Row label={translate('app.personal.email')}>{identity?.email}</Row>
      <Row label={translate('app.personal.role')}>{identity?.role}</Row>
      <Row label={translate('app.personal.panel')}>
        {identity?.loginType ? translate(`app.panel.${identity.loginType}`) : ''}
      </Row>
    </Box>
  );
}

/**
 * /admin/{id}: the user's own agency and account. An admin changes the agency's name and logo; every user their
 * own name and password. Consultants see the agency's details read-only (the API refuses them too).
 */
export function PersonalSettings() {
  const translate = useTranslate();
  const { id } = useParams();
  const { identity } = useGetIdentity();
  const own = id === getMerchantId();
  return (
    <Box>
      <PageHeader title={translate('app.personal.title')} />
      {!own ? (
        <Alert severity="warning">{translate('app.personal.not_yours')}</Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <Section id="personal-agency" title={translate('app.personal.agency')}>
            {/* Until the identity is known nothing is offered for editing. */}
            <AgencyDetails editable={identity?.loginType === 'agency' && identity?.role === 'admin'} />
          </Section>
          <Section id="personal-user" title={translate('app.personal.user')}>
            <AccountFacts />
            <MyName />
          </Section>
          <Section id="personal-password" title={translate('app.personal.password')}>
            <ChangePassword />
          </Section>
          <Box sx={{ gridColumn: { md: '1 / -1' } }}>
            <Section id="personal-notifications" title={translate('app.my_notifications.title')}>
              <MyNotifications />
            </Section>
          </Box>
        </Box>
      )}
    </Box>
  );
}
