import type { ReactElement } from 'react';

/** The react-admin <Resource> elements of the agency panel, built from the resource declarations. */
export const adminResources: ReactElement[] = [];
