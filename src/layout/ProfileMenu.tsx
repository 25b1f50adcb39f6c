import EditNoteIcon from '@mui/icons-material/EditNote';
import LogoutIcon from '@mui/icons-material/Logout';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import SettingsIcon from '@mui/icons-material/Settings';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { UserMenu, useGetIdentity, useTranslate, useUserMenu } from 'react-admin';
import { Link } from 'react-router';
import { getMerchantId } from '../providers/session';
import { SignOutDialog } from './SignOutDialog';
import { DiaryNoteCount } from '../resources/notes/NoteCount';

function LinkItem({ to, label, icon, extra }: { to: string; label: string; icon: ReactNode; extra?: ReactNode }) {
  const translate = useTranslate();
  const menu = useUserMenu();
  return (
    <MenuItem component={Link} to={to} onClick={() => menu?.onClose()}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{translate(label)}</ListItemText>
      {extra}
    </MenuItem>
  );
}

/**
 * The profile button's accessible name. On wider screens the button shows the user's name, so the name starts
 * with it ("Jo Bloggs, profile menu"): what people see is what they can say to voice control.
 */
export function useProfileMenuLabel() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const menu = translate('app.profile.menu');
  return identity?.fullName ? `${identity.fullName}, ${menu}` : menu;
}

/** "Sign Out": closes the menu and asks for confirmation first. */
export function SignOutItem({ onSignOut }: { onSignOut: () => void }) {
  const translate = useTranslate();
  const menu = useUserMenu();
  return (
    <MenuItem
      onClick={() => {
        menu?.onClose();
        onSignOut();
      }}
    >
      <ListItemIcon>
        <LogoutIcon />
      </ListItemIcon>
      <ListItemText>{translate('app.profile.sign_out')}</ListItemText>
    </MenuItem>
  );
}

/** The profile menu of the agency panel: App Settings, Diary Notes, Personal Settings, Sign Out. */
export function AdminProfileMenu() {
  const [confirming, setConfirming] = useState(false);
  const label = useProfileMenuLabel();
  return (
    <>
      <UserMenu label={label}>
        <LinkItem to="/appsetting" label="app.profile.app_settings" icon={<SettingsIcon />} />
        <LinkItem
          to="/dairy_notes"
          label="app.profile.diary_notes"
          icon={<EditNoteIcon />}
          extra={<DiaryNoteCount />}
        />
        <LinkItem
          to={`/admin/${getMerchantId() ?? ''}`}
          label="app.profile.personal_settings"
          icon={<ManageAccountsIcon />}
        />
        <SignOutItem onSignOut={() => setConfirming(true)} />
      </UserMenu>
      <SignOutDialog open={confirming} onClose={() => setConfirming(false)} />
    </>
  );
}

/** The client panel's profile menu: My account (their own name and password), Sign Out. */
export function ClientProfileMenu() {
  const [confirming, setConfirming] = useState(false);
  const label = useProfileMenuLabel();
  return (
    <>
      <UserMenu label={label}>
        <LinkItem to="/client/account" label="app.account.menu" icon={<ManageAccountsIcon />} />
        <SignOutItem onSignOut={() => setConfirming(true)} />
      </UserMenu>
      <SignOutDialog open={confirming} onClose={() => setConfirming(false)} />
    </>
  );
}
