import { lazy } from 'react';
import { Route } from 'react-router';
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import { EngineList } from '../../engine/react/list';
import { type ViewOptions } from '../../engine/react/viewOptions';
import { ShiftCreateForm } from './ShiftCreate';
import { ShiftCardLine, ShiftShow, shiftFieldOverrides, withoutView } from './ShiftViews';
import { CLIENT_REQUEST_PATH, CLIENT_TABS, ClientShiftList, ClientShiftRequest } from './ClientShifts';
import { shiftsDecl } from './shared';
import { shiftRequests } from '../../../core/resources/shifts/requests';

// The calendar library is large: the schedule loads as a chunk of its own when first opened.
const Schedule = lazy(() => import('./Schedule'));

const decl = shiftsDecl();

/** /shift-list opens its first tab (Open); each tab is its own address. */
function ShiftList(props: ViewOptions & { tabId?: string }) {
  return (
    <EngineList
      {...props}
      decl={withoutView(props.decl, 'candidate_id', 'list')}
      tabId={props.tabId ?? props.decl.tabs?.[0]?.id}
      card={<ShiftCardLine />}
    />
  );
}

const area: Area = decl
  ? {
      resources: [
        buildResource(decl, {
          icon: WorkHistoryIcon,
          list: ShiftList,
          show: ShiftShow,
          create: () => <ShiftCreateForm panel="agency" done="/shift-list/open" />,
          fields: shiftFieldOverrides(Object.fromEntries(decl.fields.map((f) => [f.source, f.label]))),
        }),
        // Staff members' requests for open shifts, all in one list (the dashboard's "awaiting an answer": issue 34);
        // each shift shows its own.
        buildResource(shiftRequests),
      ],
      adminRoutes: [<Route key="schedule" path="/schedule" element={<Schedule panel="agency" />} />],
      clientRoutes: [
        ...CLIENT_TABS.map((t) => <Route key={t.path} path={t.path} element={<ClientShiftList tab={t.tab} />} />),
        <Route key="request" path={CLIENT_REQUEST_PATH} element={<ClientShiftRequest />} />,
        <Route key="client-schedule" path="/client/schedule" element={<Schedule panel="client" />} />,
      ],
    }
  : { resources: [] };

export default area;
