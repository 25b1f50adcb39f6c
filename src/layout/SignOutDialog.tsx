import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState } from 'react';
import { useLogout, useTranslate } from 'react-admin';

/**
 * The sign-out confirmation: "Are you sure want to sign out?" with "Yes, sign me out!" and "Cancel".
 * Confirming calls react-admin's logout (authProvider.logout revokes the token, clears it and returns "/").
 */
export function SignOutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const logout = useLogout();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const textId = useId();
  const confirm = async () => {
    setBusy(true);
    try {
      await logout();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{translate('app.signout.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{translate('app.signout.question')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('app.signout.cancel')}
        </Button>
        <Button onClick={confirm} disabled={busy} variant="contained" color="error" autoFocus>
          {translate('app.signout.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
