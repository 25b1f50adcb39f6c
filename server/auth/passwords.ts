import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { HashQueue } from './hashQueue.js';

export { PASSWORD_MIN } from '../../core/domain/accounts/passwords.js';

// OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1. Parameters are stored with each hash,
// so raising them later re-hashes nothing and breaks no login.
const PRODUCTION_N = 2 ** 17;
let N = PRODUCTION_N;
const r = 8;
const p = 1;
const KEYLEN = 32;
const maxmem = 256 * 1024 * 1024;

/**
 * Tests only (refused elsewhere): new hashes of this process at cost `n` instead of 2^17. The API tests, and the
 * server the browser tests start (PASSWORD_COST_FOR_TESTS, server/index.ts), sign in hundreds of times; at production
 * cost each sign-in takes 0.4–0.7 s of CPU. What they check does not depend on the cost: a hash verifies with the
 * parameters stored in it, and the hashing queue's order is driven by latches.
 */
export function setPasswordCostForTests(n: number) {
  if (!process.env.VITEST) throw new Error('The password hashing cost is lowered only in tests.');
  if (!Number.isInteger(Math.log2(n)) || n < 2)
    throw new Error(`The password hashing cost must be a power of 2, not ${n}.`);
  N = n;
}

/**
 * Every password hash of this process waits its turn here (server/auth/hashQueue.ts); buildApp applies the configured
 * bounds.
 */
export const passwordHashing = new HashQueue();

/**
 * Whose turn a hash takes: a sign-in gives the caller's address (and may be refused); other hashing gives none and
 * waits.
 */
export interface HashTurn {
  queue: HashQueue;
  key: string | null;
}
const ownTurn = (): HashTurn => ({ queue: passwordHashing, key: null });

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number, turn: HashTurn): Promise<Buffer> {
  return turn.queue.run(
    turn.key,
    () =>
      new Promise<Buffer>((ok, fail) =>
        scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r: rr, p: pp, maxmem }, (err, key) =>
          err ? fail(err) : ok(key),
        ),
      ),
  );
}

export async function hashPassword(password: string, turn: HashTurn = ownTurn()): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, r, p, turn);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string, turn: HashTurn = ownTurn()): Promise<boolean> {
  const [scheme, n, rr, pp, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(rr), Number(pp), turn);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same as a real one (no user-enumeration by timing). */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(16).toString('hex')));
