// Issue 35, subscription: how a change of plan is paid for. The product calls a driver and records the change; the
// bundled driver takes no payment (the page says so). An installation that charges its agencies supplies its own
// driver (a card processor's, its own invoicing) by installPaymentDriver as it builds the server.
import type { EngineContext } from '../engine/context.js';
import type { Plan } from './plans.js';

export interface PlanChange {
  merchantId: number;
  from: Plan;
  to: Plan;
}

export interface PaymentDriver {
  /** Named in the audit entry of each change it made. */
  name: string;
  /** Whether a change of plan takes money: the page says what happens before the admin confirms. */
  charges: boolean;
  /** What the page says about payment, in the agency's words. */
  notice: string;
  /**
   * Takes payment for the change (or arranges it), inside the change's transaction: a throw (an HttpError in words,
   * a card declined) refuses the change and nothing is recorded. Answers the payment's reference, if any.
   */
  changePlan(ctx: EngineContext, change: PlanChange): Promise<{ reference: string | null }>;
}

/** The bundled driver: records the change of plan (the engine's audit entry) and charges nothing. */
export const RecordOnlyDriver: PaymentDriver = {
  name: 'record-only',
  charges: false,
  notice:
    'This installation takes no payment: a change of plan is recorded (with who made it and when) and nothing is charged.',
  async changePlan() {
    return { reference: null };
  },
};

let installed: PaymentDriver = RecordOnlyDriver;

export function installPaymentDriver(driver: PaymentDriver) {
  installed = driver;
}

export const paymentDriver = (): PaymentDriver => installed;
