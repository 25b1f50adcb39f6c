import { Navigate, Route } from 'react-router';
import DescriptionIcon from '@mui/icons-material/Description';
import { buildResource } from '../../engine/react/buildResource';
import { EngineList } from '../../engine/react/list';
import { type ViewOptions } from '../../engine/react/viewOptions';
import {
  availability,
  candidateDocuments,
  candidatePreferences,
  candidateRestrictions,
} from '../../../core/resources/compliance/resource';
import { AvailabilityGrid } from './AvailabilityGrid';
import { DocumentCheckField } from './DocumentCheckField';

/**
 * The document report: /report/DocumentReport opens its first tab (All); each tab is its own address. A report
 * only reads (and exports): a document is verified, rejected or removed on its own page, where its file is.
 */
function DocumentReport(props: ViewOptions & { tabId?: string }) {
  if (!props.tabId) return <Navigate to={props.paths.tab('AllDoc')} replace />;
  return <EngineList {...props} readOnly />;
}

export const documents = buildResource(candidateDocuments, {
  icon: DescriptionIcon,
  list: DocumentReport,
  fields: { status: { column: <DocumentCheckField /> } },
});

// Shown inside the staff profile's tabs; registered so react-admin knows the resources (no menu entries).
export const restrictions = buildResource(candidateRestrictions);
export const preferences = buildResource(candidatePreferences);

/** Availability is edited on the week grid, /staff/availability. */
export const availabilityResource = buildResource(availability, {
  extraRoutes: () => [<Route key="grid" path="/staff/availability" element={<AvailabilityGrid />} />],
});

export default [documents, restrictions, preferences, availabilityResource];
