import { Box } from '@mui/material';
import { MyNotifications } from '../pages/MyNotifications';
import { useCanAccess, useGetIdentity, useTranslate } from 'react-admin';
import { ClientUsersCard } from '../resources/users';
import { ChangePassword, MyName, Section } from '../pages/AccountForms';
import { PageHeader } from '../pages/PageHeader';
import { AccountFacts } from '../pages/PersonalSettings';

/**
 * /client/account: a client user's own name and password, and for a manager their colleagues who sign in to the
 * client's panel (invited and removed here, issue 35). The agency's details are not theirs to change, so they are
 * not offered here (and PUT merchants refuses client users).
 */
export function MyAccount() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  // A manager's; a viewer has no colleagues section (not an empty row of the grid).
  const { canAccess: managesColleagues } = useCanAccess({ resource: 'users', action: 'list' });
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
        {managesColleagues && identity?.clientId != null && (
          <Box sx={{ gridColumn: { md: '1 / -1' }, '& > section': { mt: 0 } }}>
            <ClientUsersCard
              clientId={Number(identity.clientId)}
              title={translate('app.account.colleagues')}
              intro={translate('app.account.colleagues_intro')}
              approvers
            />
          </Box>
        )}
        <Box sx={{ gridColumn: { md: '1 / -1' } }}>
          <Section id="account-notifications" title={translate('app.my_notifications.title')}>
            <MyNotifications />
          </Section>
        </Box>
      </Box>
    </Box>
  );
}
