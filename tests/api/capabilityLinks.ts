import type { TestApp } from './helpers';
import type { EngineContext } from '../../server/engine/context';
import { withEngine } from '../../server/engine/handle';
import { agencyZone, principalFromUser } from '../../server/engine/routes';
import { agencyToday } from '../../core/domain/time/agencyTime';

/** An engine context of the agency's first admin, for minting capability links as the agency would. */
export async function contextFor(t: TestApp, merchantId: number): Promise<EngineContext> {
  const [u] = await t.db.query<any>(
    `select id, name, merchant_id, kind, client_id, role from users
      where merchant_id = $1 and kind = 'admin' and role = 'admin' order by id limit 1`,
    [merchantId],
  );
  const timeZone = await agencyZone(t.db, merchantId);
  const now = t.app.clock();
  return withEngine(
    { db: t.db, principal: principalFromUser(u), now, timeZone, today: agencyToday(timeZone, now) },
    t.app.engine,
  );
}
