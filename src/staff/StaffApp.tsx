import { useCallback, useEffect, useReducer, useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  AppBar,
  BottomNavigation,
  BottomNavigationAction,
  Box,
  Button,
  CircularProgress,
  CssBaseline,
  List,
  ListItem,
  ListItemText,
  TextField,
  ThemeProvider,
  Toolbar,
  Typography,
  createTheme,
} from '@mui/material';
import { Link as RouterLink, Navigate, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import EventIcon from '@mui/icons-material/Event';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import DescriptionIcon from '@mui/icons-material/Description';
import ChatIcon from '@mui/icons-material/Chat';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { ApiFailure, request } from '../providers/request';
import {
  clearExpired,
  getLoginType,
  getToken,
  hasValidSession,
  saveSession,
  type LoginResponse,
} from '../providers/session';
import { revokeToken, signIn } from '../providers/signIn';
import { createChannel } from '../resources/communication/chat/api';
import { ChatConversation } from '../resources/communication/chat/ChatConversation';
import { chatReducer, closedChat } from '../resources/communication/chat/chatState';
import { useChatLive } from '../resources/communication/chat/useChatLive';
import { staffTexts as say } from './messages';
import { documentTitle } from '../layout/usePageTitle';
import { t } from '../i18n/light';
import { MyShiftsList } from './MyShifts';
import { OpenShiftsList } from './OpenShifts';
import { MyDocuments } from './MyDocuments';
import { MyTimesheets } from './MyTimesheets';
import { MyPayslip, MyPayslipsList } from './MyPayslips';
import type { Inbox, Notification } from '../../core/contracts/notifications';
import type { StaffInviteInfo } from '../../core/contracts/auth';
import { palette } from '../palette';

// The agency panel's colours, without react-admin's theme (this page never loads react-admin).
const theme = createTheme({ palette });

/**
 * A phone-sized column, centred on wider screens. The tab is titled "<screen> · <agency>" like the panels'; before
 * the agency is known (signing in) the product's name stands in, as on the panels' sign-in page.
 */
export function Phone({
  title,
  agency,
  children,
  actions,
  nav,
}: {
  title: string;
  agency?: string | null;
  children: ReactNode;
  actions?: ReactNode;
  /** The signed-in pages: the tabs between them at the bottom. */
  nav?: boolean;
}) {
  useEffect(() => {
    document.title = documentTitle(title, agency || t('app.name'));
  }, [title, agency]);
  return (
    <Box
      sx={{
        maxWidth: 480,
        mx: 'auto',
        height: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: 'background.paper',
        boxShadow: { sm: 2 },
      }}
    >
      <AppBar position="static" elevation={0}>
        <Toolbar variant="dense" sx={{ flexWrap: 'wrap' }}>
          <Typography component="h1" variant="h6" sx={{ flex: 1 }}>
            {title}
          </Typography>
          {actions}
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        {children}
      </Box>
      {nav && <StaffNav />}
    </Box>
  );
}

const TABS = [
  { path: '/staff-app/shifts', label: say.nav_shifts, icon: <EventIcon /> },
  { path: '/staff-app/open-shifts', label: say.nav_open, icon: <EventAvailableIcon /> },
  { path: '/staff-app/timesheets', label: say.nav_timesheets, icon: <AccessTimeIcon /> },
  { path: '/staff-app/documents', label: say.nav_documents, icon: <DescriptionIcon /> },
  { path: '/staff-app/payslips', label: say.nav_payslips, icon: <ReceiptLongIcon /> },
  { path: '/staff-app/chat', label: say.nav_messages, icon: <ChatIcon /> },
];

/** The staff page's sections, as links along the bottom of the phone (the current one marked). */
function StaffNav() {
  const { pathname } = useLocation();
  const current = TABS.findIndex((tab) => pathname.startsWith(tab.path));
  return (
    <Box component="nav" aria-label={say.nav_label} sx={{ borderTop: 1, borderColor: 'divider' }}>
      <BottomNavigation
        showLabels
        value={current}
        sx={{ '& .MuiBottomNavigationAction-root': { minWidth: 0, px: 0.25 } }}
      >
        {TABS.map((tab, i) => (
          <BottomNavigationAction
            key={tab.path}
            component={RouterLink}
            to={tab.path}
            label={tab.label}
            icon={tab.icon}
            value={i}
            aria-current={i === current ? 'page' : undefined}
          />
        ))}
      </BottomNavigation>
    </Box>
  );
}

const isStaffSession = () => hasValidSession() && getLoginType() === 'staff';

/** The staff page's own guard: a valid staff session, or its sign-in page. */
function Guarded({ children }: { children: ReactNode }) {
  if (!isStaffSession()) {
    clearExpired();
    return <Navigate to="/staff-app/login" replace />;
  }
  return <>{children}</>;
}

function SignInForm() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (isStaffSession()) return <Navigate to="/staff-app" replace />;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) return setError(say.fill_both);
    setBusy(true);
    setError('');
    try {
      remember(await signIn('staff', email, password));
      navigate('/staff-app', { replace: true });
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : say.network);
      setBusy(false);
    }
  };
  return (
    <Phone title={say.sign_in_title}>
      <Box
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        <Typography>{say.sign_in_intro}</Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          label={say.email}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          autoFocus
        />
        <TextField
          label={say.password}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <Button type="submit" variant="contained" disabled={busy}>
          {say.sign_in}
        </Button>
      </Box>
    </Phone>
  );
}

/** The invitation link's page: the staff member chooses a password and is signed in. */
function InvitePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [invite, setInvite] = useState<{ name: string; email: string; agency: string } | null>(null);
  const [invalid, setInvalid] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    request<StaffInviteInfo>(`/staff_invites/${encodeURIComponent(token)}`)
      .then(setInvite)
      .catch((e) => setInvalid(e instanceof ApiFailure ? e.message : say.network));
  }, [token]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const session = await request<LoginResponse>(`/staff_invites/${encodeURIComponent(token)}`, {
        method: 'POST',
        json: { password },
      });
      saveSession(session);
      remember(session);
      navigate('/staff-app', { replace: true });
    } catch (err) {
      setError(err instanceof ApiFailure ? (err.body?.errors?.password ?? err.message) : say.network);
      setBusy(false);
    }
  };
  return (
    <Phone title={say.invite_title} agency={invite?.agency}>
      <Box
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        {invalid && <Alert severity="error">{invalid}</Alert>}
        {!invite && !invalid && <CircularProgress aria-label={say.loading} />}
        {invite && (
          <>
            <Typography>
              {say.invite_intro.replace('%{name}', invite.name).replace('%{agency}', invite.agency)}
            </Typography>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label={say.email}
              value={invite.email}
              slotProps={{ htmlInput: { readOnly: true } }}
              autoComplete="username"
            />
            <TextField
              label={say.new_password}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              helperText={say.password_rule}
              required
              autoFocus
            />
            <Button type="submit" variant="contained" disabled={busy}>
              {say.set_password}
            </Button>
          </>
        )}
      </Box>
    </Phone>
  );
}

/** What a failed request of the staff page means: an ended session goes to the sign-in page; anything else is said. */
function useFailure(setError: (text: string) => void) {
  const navigate = useNavigate();
  return useCallback(
    (e: unknown) => {
      if (e instanceof ApiFailure && e.status === 401) {
        clearExpired();
        navigate('/staff-app/login', { replace: true });
      } else setError(e instanceof ApiFailure ? e.message : say.network);
    },
    [navigate, setError],
  );
}

/**
 * The signed-in staff member as the sign-in (or the last GET staff_login) answered, kept for the session's token: the
 * first screen after signing in, and each section after it, start from it instead of asking again before their own
 * call (a round trip less on a phone's network).
 */
let known: LoginResponse | null = null;
const remember = (r: LoginResponse) => {
  known = r;
};
const knownForThisSession = () => (known && known.token === getToken() ? known : null);

/**
 * The signed-in staff member (GET staff_login: their name, staff record and agency, unless known for this session), or
 * the error in words; a session that has ended sends them to the sign-in page.
 */
function useStaffMe() {
  const [me, setMe] = useState<LoginResponse | null>(knownForThisSession);
  const [error, setError] = useState('');
  const fail = useFailure(setError);
  const asked = me !== null;
  useEffect(() => {
    if (asked) return;
    let current = true;
    request<LoginResponse>('/staff_login')
      .then((answer) => {
        remember({ ...answer, token: getToken() ?? '' });
        if (current) setMe(answer);
      })
      .catch((e) => current && fail(e));
    return () => {
      current = false;
    };
  }, [asked, fail]);
  return { me, error };
}

/** The top bar's buttons of every signed-in section: their notifications, and signing out. */
function SessionActions() {
  const navigate = useNavigate();
  const signOut = async () => {
    await revokeToken();
    clearExpired();
    navigate('/staff-app/login', { replace: true });
  };
  return (
    <>
      <Button color="inherit" onClick={() => navigate('/staff-app/notifications')}>
        {say.notifications_title}
      </Button>
      <Button color="inherit" onClick={signOut}>
        {say.sign_out}
      </Button>
    </>
  );
}

/** The staff member's conversation with their agency, live. */
function StaffChat() {
  const [state, dispatch] = useReducer(chatReducer, closedChat);
  const { me: who, error: whoError } = useStaffMe();
  const [error, setError] = useState('');
  const fail = useFailure(setError);
  const { live, connected } = useChatLive();
  useEffect(() => {
    if (whoError) dispatch({ type: 'failed' });
  }, [whoError]);
  useEffect(() => {
    if (!who) return;
    let current = true;
    dispatch({ type: 'open', candidateId: who.candidate_id! });
    createChannel(who.candidate_id!, who.merchant_id)
      .then((sid) => current && dispatch({ type: 'opened', channelSid: sid, candidateId: who.candidate_id }))
      .catch((e) => {
        if (!current) return;
        dispatch({ type: 'failed' });
        fail(e);
      });
    return () => {
      current = false;
    };
  }, [who, fail]);
  return (
    <Phone title={say.chat_title} agency={who?.agency_name} nav actions={<SessionActions />}>
      {who && (
        <Typography variant="body2" sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
          {say.signed_in_as.replace('%{name}', who.user.name)}
        </Typography>
      )}
      {!connected && <Alert severity="warning">{say.reconnecting}</Alert>}
      {(whoError || error) && <Alert severity="error">{whoError || error}</Alert>}
      <ChatConversation state={state} live={live} emptyText={say.no_messages} />
    </Phone>
  );
}

type StaffNotice = Notification;

/**
 * The staff member's own notifications (bookings, moves, cancellations), newest first; opening them marks them read.
 */
function StaffNotifications() {
  const navigate = useNavigate();
  const { me } = useStaffMe();
  const [list, setList] = useState<StaffNotice[] | null>(null);
  const [error, setError] = useState('');
  const fail = useFailure(setError);
  useEffect(() => {
    let current = true;
    request<Inbox>('/staff_notifications?page=1&per_page=20')
      .then((r) => {
        if (!current) return;
        setList(r.notifications);
        if (r.notifications.some((n) => !n.read))
          void request('/staff_notification_read_all', { method: 'PUT' }).catch(() => undefined);
      })
      .catch((e) => current && fail(e));
    return () => {
      current = false;
    };
  }, [fail]);
  return (
    <Phone
      title={say.notifications_title}
      agency={me?.agency_name}
      nav
      actions={
        <Button color="inherit" onClick={() => navigate('/staff-app/chat')}>
          {say.chat_title}
        </Button>
      }
    >
      {error && <Alert severity="error">{error}</Alert>}
      {!list && !error && <CircularProgress aria-label={say.loading} sx={{ m: 2 }} />}
      {list && list.length === 0 && <Typography sx={{ p: 2 }}>{say.no_notifications}</Typography>}
      {list && list.length > 0 && (
        <List aria-label={say.notifications_title} sx={{ overflowY: 'auto' }}>
          {list.map((n) => (
            <ListItem key={n.id} divider>
              <ListItemText
                primary={n.title}
                secondary={`${n.body ? `${n.body} ` : ''}(${new Date(n.created_at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })})`}
                slotProps={{ primary: { sx: { fontWeight: n.read ? 'normal' : 'bold' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Phone>
  );
}

/** The staff member's own shifts, upcoming and past, on the agency's clock. */
function StaffShifts() {
  return (
    <StaffPage title={say.shifts_title}>
      {(me, fail) => <MyShiftsList timeZone={me.agency_time_zone ?? undefined} onFailure={fail} />}
    </StaffPage>
  );
}

/**
 * A signed-in section of the staff page: its title, the sections' tabs, and its content once the staff member is
 * known (their agency's zone); a failure is said above it, and an ended session goes to the sign-in page.
 */
function StaffPage({
  title,
  children,
}: {
  title: string;
  children: (me: LoginResponse, fail: (e: unknown) => void) => ReactNode;
}) {
  const { me, error: meError } = useStaffMe();
  const [error, setError] = useState('');
  const fail = useFailure(setError);
  return (
    <Phone title={title} agency={me?.agency_name} nav actions={<SessionActions />}>
      {(meError || error) && (
        <Alert severity="error" onClose={error ? () => setError('') : undefined}>
          {meError || error}
        </Alert>
      )}
      {me && children(me, fail)}
    </Phone>
  );
}

/** One of the staff member's payslips, by its address (the e-mail's button leads here). */
function StaffPayslip() {
  const { id = '' } = useParams();
  return <StaffPage title={say.payslip_title}>{(_me, fail) => <MyPayslip id={id} onFailure={fail} />}</StaffPage>;
}

/**
 * The staff member's own page (/staff-app): its sign-in, the invitation link's page, their chat, their
 * notifications, their shifts, the open shifts they may ask for, their timesheets (and the end-of-shift signing),
 * their documents and their payslips.
 */
export default function StaffApp() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Routes>
        <Route path="login" element={<SignInForm />} />
        <Route path="invite/:token" element={<InvitePage />} />
        <Route
          path="chat"
          element={
            <Guarded>
              <StaffChat />
            </Guarded>
          }
        />
        <Route
          path="notifications"
          element={
            <Guarded>
              <StaffNotifications />
            </Guarded>
          }
        />
        <Route
          path="shifts"
          element={
            <Guarded>
              <StaffShifts />
            </Guarded>
          }
        />
        <Route
          path="open-shifts"
          element={
            <Guarded>
              <StaffPage title={say.open_title}>
                {(me, fail) => <OpenShiftsList timeZone={me.agency_time_zone ?? undefined} onFailure={fail} />}
              </StaffPage>
            </Guarded>
          }
        />
        <Route
          path="documents"
          element={
            <Guarded>
              <StaffPage title={say.documents_title}>
                {(me, fail) => <MyDocuments candidateId={me.candidate_id!} onFailure={fail} />}
              </StaffPage>
            </Guarded>
          }
        />
        <Route
          path="timesheets"
          element={
            <Guarded>
              <StaffPage title={say.timesheets_title}>
                {(me, fail) => <MyTimesheets timeZone={me.agency_time_zone ?? 'Europe/London'} onFailure={fail} />}
              </StaffPage>
            </Guarded>
          }
        />
        <Route
          path="payslips"
          element={
            <Guarded>
              <StaffPage title={say.payslips_title}>{(_me, fail) => <MyPayslipsList onFailure={fail} />}</StaffPage>
            </Guarded>
          }
        />
        <Route
          path="payslips/:id"
          element={
            <Guarded>
              <StaffPayslip />
            </Guarded>
          }
        />
        {/* Shifts first (issue 29.17): where they work next is what a staff member opens the page for. */}
        <Route index element={<Navigate to="/staff-app/shifts" replace />} />
        <Route path="*" element={<Navigate to="/staff-app/shifts" replace />} />
      </Routes>
    </ThemeProvider>
  );
}
