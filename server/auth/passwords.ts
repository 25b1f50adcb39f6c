import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';
import { HashQueue } from './hashQueue.js';

export { PASSWORD_MIN } from '../../core/domain/accounts/passwords.js';

// OWASP Password Storage Cheat Sheet, its first choice: Argon2id with 19 MiB of memory, 2 passes, 1 lane. About
// 0.1 s of a core per hash here, where scrypt at OWASP's equivalent (N=2^17, r=8, p=1, which hashes made before
// this choice hold) took 0.4–0.9 s: a sign-in waited on it. The parameters are stored with each hash (PHC format),
// so raising them later re-hashes nothing and breaks no login, and the older scrypt hashes still verify.
const PRODUCTION_MEMORY_KIB = 19 * 1024;
let memoryCost = PRODUCTION_MEMORY_KIB;
const timeCost = 2;
const parallelism = 1;

/**
 * Tests only (refused elsewhere): new hashes of this process with `memoryKiB` of memory (and the same passes) instead
 * of 19 MiB. The API tests, and the server the browser tests start (PASSWORD_COST_FOR_TESTS, server/index.ts), sign
 * in hundreds of times. What they check does not depend on the cost: a hash verifies with the parameters stored in
 * it, and the hashing queue's order is driven by latches.
 */
export function setPasswordCostForTests(memoryKiB: number) {
  if (!process.env.VITEST) throw new Error('The password hashing cost is lowered only in tests.');
  if (!Number.isInteger(memoryKiB) || memoryKiB < 8)
    throw new Error(`The password hashing memory must be a whole number of KiB, at least 8, not ${memoryKiB}.`);
  memoryCost = memoryKiB;
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

/** scrypt of a hash made before Argon2id: `scrypt$N$r$p$salt$key`, base64 salt and key. */
function scryptMatches(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, key] = stored.split('$');
  if (!key) return Promise.resolve(false);
  const expected = Buffer.from(key, 'base64');
  return new Promise((ok, fail) =>
    scrypt(
      password,
      Buffer.from(salt, 'base64'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 },
      (err, actual) => (err ? fail(err) : ok(actual.length === expected.length && timingSafeEqual(actual, expected))),
    ),
  );
}

// A password is compared as its NFKC form, so the same characters typed on another keyboard (composed or not) match.
export async function hashPassword(password: string, turn: HashTurn = ownTurn()): Promise<string> {
  return turn.queue.run(turn.key, () =>
    argon2.hash(password.normalize('NFKC'), { type: argon2.argon2id, memoryCost, timeCost, parallelism }),
  );
}

export async function verifyPassword(password: string, stored: string, turn: HashTurn = ownTurn()): Promise<boolean> {
  const typed = password.normalize('NFKC');
  if (stored.startsWith('$argon2id$')) return turn.queue.run(turn.key, () => argon2.verify(stored, typed));
  if (stored.startsWith('scrypt$')) return turn.queue.run(turn.key, () => scryptMatches(typed, stored));
  return false;
}

/** A hash of a random password: verifying against it costs the same as a real one (no user-enumeration by timing). */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(16).toString('hex')));
