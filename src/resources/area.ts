import type { ReactElement } from 'react';
import type { BuiltResource } from '../engine/react/buildResource';

/**
 * One area of the product (rates, shifts, communication, notes): its resources' screens, and screens of its own
 * that no single resource owns, for the agency panel and the client panel.
 */
export interface Area {
  resources: BuiltResource[];
  /** Agency-panel routes beyond the resources' own (a calendar, a chat screen). */
  adminRoutes?: ReactElement[];
  /** Client-panel routes (/client/...): the guard classes them as client screens. */
  clientRoutes?: ReactElement[];
}
