import { Route } from 'react-router';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { timesheetLines, timesheets, timesheetSignatures } from '../../../core/resources/timesheets/resource';
import { WeeklyTimesheets } from './AgencyTimesheets';
import { CustomTimesheets } from './CustomTimesheets';
import { SignedTimesheets, TimesheetShow } from './TimesheetShow';
import { ClientTimesheets } from './ClientTimesheets';
import { EngineList } from '../../engine/react/list';

/**
 * The declaration's list and its three tabs are the spec's three screens: the week (generated from worked shifts,
 * reviewed, submitted), the custom periods, and the signatures given. Each needs more than a list (a week chooser
 * and generation, a range, the signature images), so each tab has its own view; everything else is generated.
 */
function TimesheetScreens(props: ViewOptions & { tabId?: string }) {
  if (props.tabId === 'custom') return <CustomTimesheets {...props} />;
  if (props.tabId === 'signed') return <SignedTimesheets {...props} />;
  // Sent for signature and not signed yet: the chase list.
  if (props.tabId === 'awaiting') return <EngineList {...props} />;
  return <WeeklyTimesheets />;
}

const area: Area = {
  resources: [
    buildResource(timesheets, {
      icon: AccessTimeIcon,
      list: TimesheetScreens,
      show: (options) => <TimesheetShow {...options} lines={timesheetLines} signatures={timesheetSignatures} />,
    }),
    // Their own screens (a line's details and history, a signature's), reached from the timesheet's tabs.
    buildResource(timesheetLines),
    buildResource(timesheetSignatures),
  ],
  clientRoutes: [<Route key="client-timesheets" path="/client/signedTimesheet" element={<ClientTimesheets />} />],
};

export default area;
