import type { ResourceDeclaration } from '../../engine/types';
import { notificationResources } from './emailResource';

export const communicationResources: ResourceDeclaration[] = [...notificationResources];
