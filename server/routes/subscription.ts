// /appsetting/SubscriptionSetting (issue 35): the agency's plan, its usage against the plan's limits, and the change
// of plan through the installation's payment driver. The routes name no agency (as the agency settings): each caller
// reads and changes their own. Admins change the plan; consultants read it, as they read the agency settings.
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/index.js';
import { route } from './route.js';
import { ensureAgencySettings } from './agencySettings.js';
import { ChangePlanBody, SubscriptionAnswer, type Subscription } from '../../core/contracts/subscription.js';
import { installedPlans, LIMITS } from '../subscription/plans.js';
import { agencyPlan, usageOf } from '../subscription/usage.js';
import { paymentDriver } from '../subscription/payment.js';

const MB = 1024 * 1024;

/** The agency's plan, usage and the limits it has reached (a limit of 0 is reached at once). */
export async function subscriptionOf(db: Queryable, merchantId: number): Promise<Subscription> {
  // One after the other: within a transaction both run on its one connection.
  const plan = await agencyPlan(db, merchantId);
  const usage = await usageOf(db, merchantId);
  const used = { ...usage, storage_mb: usage.storage_bytes / MB };
  const at_limit = LIMITS.filter((k) => plan.limits[k] !== null && used[k] >= plan.limits[k]!);
  const driver = paymentDriver();
  return {
    plan,
    plans: installedPlans().plans,
    usage,
    at_limit,
    payment: { driver: driver.name, charges: driver.charges, notice: driver.notice },
  };
}

export async function subscriptionRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/subscription',
    may: { agency_settings: 'show' },
    schema: {
      tags: ['agency'],
      summary:
        "The agency's plan and its usage (active staff, agency users, active clients, storage) against its limits",
      response: { 200: SubscriptionAnswer },
    },
    handler: async ({ ctx }) => ({ data: await subscriptionOf(ctx.db, ctx.principal.merchantId) }),
  });

  route(app, {
    method: 'POST',
    url: '/api/subscription/plan',
    may: { agency_settings: 'change_plan' },
    schema: {
      tags: ['agency'],
      summary: "Change the agency's plan (its admins), through the installation's payment driver",
      description:
        "plan: the id of one of the plans GET /api/subscription lists. The bundled driver records the change (in the audit trail) and charges nothing. A plan below the agency's usage is allowed: nothing is deactivated, and the next activation over a limit is refused.",
      body: ChangePlanBody,
      response: { 200: SubscriptionAnswer },
    },
    handler: async ({ req, transaction }) => {
      const data = await transaction(async (ctx) => {
        const m = ctx.principal.merchantId;
        await ensureAgencySettings(ctx.db, m, ctx.principal);
        const driver = paymentDriver();
        await ctx.engine.act(
          'agency_settings',
          m,
          'change_plan',
          { plan: req.body.plan },
          {
            reason: `Payment driver: ${driver.name}${driver.charges ? '' : ' (nothing charged)'}`,
          },
        );
        return subscriptionOf(ctx.db, m);
      });
      return { data, message: 'Plan changed' };
    },
  });
}
