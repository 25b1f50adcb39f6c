import type { ResourceBehaviour } from '../engine/context.js';
import { wageFlagSql } from './wageFlag.js';

/** A job role's default pay below the adult minimum wage in force today is flagged, as rate cards are (issue 30.6). */
export const jobRolesBehaviour: ResourceBehaviour = {
  computed: {
    wage_flag: (bind, { today }) => wageFlagSql('job_roles', today, bind, ['default_pay_rate'], false),
  },
};
