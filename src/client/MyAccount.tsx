import { Box } from '@mui/material';
import { MyNotifications } from '../pages/MyNotifications';
import { useTranslate } from 'react-admin';
import { ChangePassword, MyName, Section } from '../pages/AccountForms';
import { PageHeader } from '../pages/PageHeader';
import { AccountFacts } from '../pages/PersonalSettings';

/**
 * /client/account: a client user's own name and password. The agency's details are not theirs to change, so
 * they are not offered here (and PUT merchants refuses client users).
 */
export function MyAccount() {
  const translate = useTranslate();
  return (
    <Box>
      <PageHeader title={translate('app.account.title')} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <Section id="account-user" title={translate('app.personal.user')}>
          <AccountFacts />
          <MyName />
        </Section>
        <Section id="account-password" title={translate('app.personal.password')}>
          <ChangePassword />
        </Section>
        <Box sx={{ gridColumn: { md: '1 / -1' } }}>
          <Section id="account-notifications" title={translate('app.my_notifications.title')}>
            <MyNotifications />
          </Section>
        </Box>
      </Box>
    </Box>
  );
}
