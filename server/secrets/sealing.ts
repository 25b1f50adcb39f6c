// Values kept encrypted at rest (issue 33: staff bank details), with AES-256-GCM from node:crypto. The key is
// BANK_DETAILS_KEY (64 hex digits or the base64 of 32 bytes), else a key file in the data directory, made at the
// first start: `npm start` on a fresh clone needs nothing more. The database keeps the key's fingerprint (never the
// key), so a second process whose key differs (another machine's data directory on one PostgreSQL) refuses to start
// in words rather than sealing with a key the others cannot open. docs/decisions.md, "Issue 33 — bank details".
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../db/index.js';

export const KEY_ENV = 'BANK_DETAILS_KEY';
/** Keys still read while their values are sealed again under BANK_DETAILS_KEY (a rotation), separated by commas. */
export const OLD_KEYS_ENV = 'BANK_DETAILS_OLD_KEYS';
export const KEY_FILE = 'bank-details.key';
const VERSION = 'v1';

/** A key in the words it was given: 64 hex digits, or base64 of 32 bytes. */
export function parseKey(text: string, where: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32)
    throw new Error(
      `${where}: the bank details key must be 32 bytes, written as 64 hex digits or in base64 (openssl rand -hex 32).`,
    );
  return key;
}

/** The key's public name: a fingerprint that says which key sealed a value, and nothing of the key itself. */
export const keyIdOf = (key: Buffer) =>
  createHmac('sha256', key).update('staffing bank details key id').digest('hex').slice(0, 16);

/**
 * The process's key: BANK_DETAILS_KEY, else `<dataDir>/bank-details.key`, made (32 random bytes, readable by its
 * owner only) when neither exists. Two processes making it at once: the file is written only if absent ('wx'), and
 * both read what is there.
 */
export function loadKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  if (env[KEY_ENV]?.trim()) return parseKey(env[KEY_ENV]!, KEY_ENV);
  const file = join(dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return parseKey(readFileSync(file, 'utf8'), file);
}

/** The old keys of a rotation (BANK_DETAILS_OLD_KEYS): none when unset. */
export function loadOldKeys(env: NodeJS.ProcessEnv): Buffer[] {
  return (env[OLD_KEYS_ENV] ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((k, i) => parseKey(k, `${OLD_KEYS_ENV} (key ${i + 1})`));
}

export interface Sealer {
  /** The key every value is sealed with. */
  keyId: string;
  /** Every key this process opens values of: its own first, then the old keys of a rotation. */
  keyIds: string[];
  /** The text sealed, bound to `context` (what it belongs to: opening it under another context fails). */
  seal(plain: string, context: string): string;
  /** Opened with whichever known key sealed it. */
  open(sealed: string, context: string): string;
}

/** The id of the key a sealed value names. */
export const sealedKeyId = (sealed: string) => sealed.split('.')[1] ?? '';

export function sealerOf(key: Buffer, old: readonly Buffer[] = []): Sealer {
  const keyId = keyIdOf(key);
  const keys = new Map<string, Buffer>([[keyId, key], ...old.map((k): [string, Buffer] => [keyIdOf(k), k])]);
  const aad = (context: string) => Buffer.from(`${VERSION}:${context}`);
  return {
    keyId,
    keyIds: [...keys.keys()],
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, keyId, iv, cipher.getAuthTag(), body]
        .map((p) => (Buffer.isBuffer(p) ? p.toString('base64url') : p))
        .join('.');
    },
    open(sealed, context) {
      const [version, id, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || body === undefined) throw new Error('This value is not sealed by this product.');
      const opening = keys.get(id);
      if (!opening)
        throw new Error(
          `These bank details were sealed with another key (${id}); this server's key is ${keyId}. Start it with the key that sealed them (${KEY_ENV}, or the data directory's ${KEY_FILE}; during a rotation, ${OLD_KEYS_ENV}).`,
        );
      const decipher = createDecipheriv('aes-256-gcm', opening, Buffer.from(iv, 'base64url'));
      decipher.setAAD(aad(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

let current: Sealer | undefined;

/** The process's sealer: the one `useKey` set, else the key of the environment and data directory (made if need be). */
export function sealer(): Sealer {
  current ??= sealerOf(loadKey(process.env, process.env.DATA_DIR || './data'), loadOldKeys(process.env));
  return current;
}

/** Sets the process's key, and the old keys it still reads (the server's start, a test of another key). */
export function useKey(key: Buffer, old: readonly Buffer[] = []): Sealer {
  current = sealerOf(key, old);
  return current;
}

/** What the database records of a key: a hash of its id, which opens nothing. */
const fingerprintOf = (keyId: string) => createHash('sha256').update(keyId).digest('hex');

/**
 * The database's agreement with this process's key: the first process to start records its fingerprint; any later one
 * must have the same key, or refuses to start naming what to do. The fingerprint is a hash of the key id, so the
 * database never holds anything that opens what it keeps.
 */
export async function agreeOnKey(db: Queryable, s: Sealer = sealer()) {
  await db.query('insert into sealing_key (id, fingerprint) values (true, $1) on conflict (id) do nothing', [
    fingerprintOf(s.keyId),
  ]);
  const [stored] = await db.query<{ fingerprint: string }>('select fingerprint from sealing_key where id');
  // During a rotation the database still names the old key, which this process reads (BANK_DETAILS_OLD_KEYS): the
  // resealing job names the new one once no value is sealed under another.
  if (!s.keyIds.some((id) => fingerprintOf(id) === stored.fingerprint))
    throw new Error(
      `This database's bank details were sealed with another key than this server's (${s.keyId}). Give every server ` +
        `process on this database the same key: set ${KEY_ENV} (or copy the first server's ${KEY_FILE} into this ` +
        'data directory).',
    );
}

/**
 * The end of a rotation: the database names this process's key, so from now on a process without it refuses to
 * start. Only once no value is sealed under another key (the resealing job's last step).
 */
export async function recordKey(db: Queryable, s: Sealer = sealer()) {
  await db.query('update sealing_key set fingerprint = $1 where id', [fingerprintOf(s.keyId)]);
}
