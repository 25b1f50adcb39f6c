import type { InjectOptions } from 'fastify';
import type { TestApp } from '../helpers';
import type { MatrixRow, Principal } from '../authz-matrix';

// remoteAddress: the address a request comes from (the job board counts applications per address).
export type Req = Pick<InjectOptions, 'method' | 'url' | 'payload' | 'headers' | 'remoteAddress'>;

/** What an area's rows run with: the app, the setup sessions and the records both agencies hold. */
export interface AuthzContext {
  t: TestApp;
  /** Admin sessions of agency A and agency B, for preparing records (not the principals' own). */
  setup: string;
  setupB: string;
  tokens: Record<Principal, string | undefined>;
  today: string;
  ids: { merchantA: number; merchantB: number; clientA: number; clientB: number };
  /** Agency A's record per resource (of client A where it has a client), and agency B's. */
  shared: Record<string, number | string>;
  sharedB: Record<string, number | string>;
  /** The staff principal's own record per resource with staffScope (their own shift), for the `staffOwn` outcomes. */
  ownedByStaff: Record<string, number>;
  /** The data of a call that must answer `status` (else the setup fails loudly). */
  must(res: { statusCode: number; body: string; json(): any }, status?: number): Promise<any>;
  /** A number unique in this run, for unique names. */
  next(): number;
  /**
   * A record for a request that changes it, made by `make` or, under the same `key`, one the row made for a principal
   * that was refused (and so left it as it was). A request that makes its own records should take them from here.
   */
  unused<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/**
 * One area's part of the authorization matrix (tests/api/authz-matrix.ts lists the foundation's rows): its rows,
 * the records they act on and the requests that are not the engine's standard ones.
 */
export interface AuthzArea {
  rows: MatrixRow[];
  /** Fills ctx.shared[resource] and ctx.sharedB[resource]: each agency's record for the `:id` rows. */
  prepare?(ctx: AuthzContext): Promise<void>;
  /** Bodies that an allowed principal of agency A could store (POST /api/{resource}). */
  createBody?: Record<string, (ctx: AuthzContext, token: string) => Promise<Record<string, unknown>>>;
  /**
   * A new record of agency A in the state an action needs: keyed 'resource action', or 'resource' for any action and
   * DELETE.
   */
  fresh?: Record<string, (ctx: AuthzContext) => Promise<number>>;
  /** The input of an action: 'resource action' → body. */
  actionInput?: Record<string, Record<string, unknown>>;
  /**
   * Requests of non-engine routes: 'METHOD url' → the request for this principal (agency B's record when otherAgency).
   */
  requests?: Record<string, (ctx: AuthzContext, p: Principal, otherAgency: boolean) => Promise<Req> | Req>;
}
