import type { ResourceBehaviour } from '../engine/context.js';

export const candidateRestrictionsBehaviour: ResourceBehaviour = {
  computed: {
    // The staff member's future bookings the restriction covers: the screen offers to unassign them (the shifts'
    // bulk unassign, which tells the staff member); bookings from now on are refused by the booking checks.
    affected_shifts:
      () => `(select coalesce(json_agg(json_build_object('id', s.id, 'start_at', s.start_at, 'end_at', s.end_at, 'site', si.name) order by s.start_at, s.id), '[]'::json)
      from shifts s join sites si on si.merchant_id = s.merchant_id and si.id = s.site_id
     where s.merchant_id = candidate_restrictions.merchant_id and s.candidate_id = candidate_restrictions.candidate_id
       and s.client_id = candidate_restrictions.client_id and (candidate_restrictions.site_id is null or s.site_id = candidate_restrictions.site_id)
       and s.status = 'assigned' and s.deleted_at is null and s.start_at > now())`,
  },
  async beforeSave(ctx, { stored, record }) {
    if (!stored) record.recorded_by = ctx.principal.name;
  },
};
