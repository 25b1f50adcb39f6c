import { useState } from 'react';
import { Button } from '@mui/material';
import ChatIcon from '@mui/icons-material/Chat';
import MailOutlineIcon from '@mui/icons-material/EmailOutlined';
import { useNotify } from 'react-admin';
import { Link } from 'react-router';
import { ApiFailure, request } from '../../../providers/request';
import { chatText } from './messages';

/**
 * A staff profile's chat actions: "Message" opens (or starts) the conversation with them; "Invite to sign in"
 * e-mails them a link to set a password for their own page.
 */
export function StaffChatActions({ candidateId }: { candidateId: number }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const invite = async () => {
    setBusy(true);
    try {
      const r = await request<{ email: string }>(`/candidates/${candidateId}/staff_invite`, {
        method: 'POST',
        json: {},
      });
      notify(chatText('invite_sent', { email: r.email }), { type: 'success' });
    } catch (e) {
      notify(e instanceof ApiFailure ? e.message : chatText('send_network'), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<ChatIcon />}
        component={Link}
        to={`/chat?staff=${candidateId}`}
      >
        {chatText('message_staff')}
      </Button>
      <Button size="small" startIcon={<MailOutlineIcon />} onClick={invite} disabled={busy}>
        {chatText('invite_staff')}
      </Button>
    </>
  );
}
