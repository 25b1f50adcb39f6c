import type { ResourceDeclaration } from '../../engine/types';
import { notificationResources } from './emailResource';
import { notificationSettingResources } from './settingsResource';

export const communicationResources: ResourceDeclaration[] = [
  ...notificationResources,
  ...notificationSettingResources,
];
