/** The agency's plan and usage (server/routes/subscription.ts, /appsetting/SubscriptionSetting; issue 35). */
import Type, { type Static } from 'typebox';
import { Nullable } from './common.js';

export const PlanLimitsSchema = Type.Object({
  active_staff: Nullable(Type.Integer()),
  users: Nullable(Type.Integer()),
  clients: Nullable(Type.Integer()),
  storage_mb: Nullable(Type.Integer()),
});

export const PlanSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Per month, in pence. */
  price_pence: Type.Integer(),
  /** null: no limit. */
  limits: PlanLimitsSchema,
});

export const Subscription = Type.Object({
  /** The agency's plan: the one it chose, else the installation's default. */
  plan: PlanSchema,
  /** Every plan the installation offers, in the operator's order. */
  plans: Type.Array(PlanSchema),
  usage: Type.Object({
    active_staff: Type.Integer(),
    users: Type.Integer(),
    clients: Type.Integer(),
    storage_bytes: Type.Integer(),
  }),
  /** The limits the agency has reached or passed: the page warns of each. */
  at_limit: Type.Array(Type.String()),
  payment: Type.Object({ driver: Type.String(), charges: Type.Boolean(), notice: Type.String() }),
});
export type Subscription = Static<typeof Subscription>;
export const SubscriptionAnswer = Type.Object({ data: Subscription, message: Type.Optional(Type.String()) });
export const ChangePlanBody = Type.Object({ plan: Type.String({ maxLength: 40 }) });
