// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { KEY_FILE, loadKey, loadOldKeys, parseKey, sealedKeyId, sealerOf } from '../../../server/secrets/sealing';

describe('sealing (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const s = sealerOf(key);

  it('opens what it sealed, under the same context only; each sealing differs', () => {
    const a = s.seal('{"sortCode":"123456"}', 'candidates:1:2');
    expect(a).not.toContain('123456');
    expect(s.seal('{"sortCode":"123456"}', 'candidates:1:2')).not.toBe(a);
    expect(s.open(a, 'candidates:1:2')).toBe('{"sortCode":"123456"}');
    // Copied to another staff member's row, it does not open.
    expect(() => s.open(a, 'candidates:1:3')).toThrow();
  });

  it('refuses a value changed at rest, and names the key that sealed one it does not have', () => {
    const a = s.seal('secret', 'x');
    const parts = a.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => s.open(parts.join('.'), 'x')).toThrow();
    expect(() => sealerOf(randomBytes(32)).open(a, 'x')).toThrow(
      new RegExp(`sealed with another key \\(${s.keyId}\\).*BANK_DETAILS_KEY`),
    );
  });

  it('takes BANK_DETAILS_KEY first, else makes a key file in the data directory once, readable by its owner', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sealing-'));
    try {
      const hex = key.toString('hex');
      expect(loadKey({ BANK_DETAILS_KEY: hex }, dir)).toEqual(key);
      expect(loadKey({ BANK_DETAILS_KEY: key.toString('base64') }, dir)).toEqual(key);
      const made = loadKey({}, join(dir, 'data'));
      expect(made).toHaveLength(32);
      expect(statSync(join(dir, 'data', KEY_FILE)).mode & 0o777).toBe(0o600);
      // The next start (or another process on the same data directory) reads the same key.
      expect(loadKey({}, join(dir, 'data'))).toEqual(made);
      expect(readFileSync(join(dir, 'data', KEY_FILE), 'utf8').trim()).toBe(made.toString('hex'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['', 'abc', 'zz'.repeat(32), Buffer.alloc(16).toString('base64')])('refuses a key that is none: %j', (t) => {
    expect(() => parseKey(t, 'BANK_DETAILS_KEY')).toThrow(/must be 32 bytes/);
  });
});

describe('a rotation of the key', () => {
  const old = randomBytes(32);
  const next = randomBytes(32);

  it('opens values of the old keys it is given, and seals under its own only', () => {
    const sealedOld = sealerOf(old).seal('details', 'candidates:1:2');
    const rotating = sealerOf(next, [old]);
    expect(rotating.keyIds).toEqual([sealerOf(next).keyId, sealerOf(old).keyId]);
    expect(rotating.open(sealedOld, 'candidates:1:2')).toBe('details');
    const sealedNew = rotating.seal('details', 'candidates:1:2');
    expect(sealedKeyId(sealedNew)).toBe(rotating.keyId);
    expect(sealedKeyId(sealedOld)).toBe(sealerOf(old).keyId);
    // Without the old key, its values are refused in words naming the rotation's setting.
    expect(() => sealerOf(next).open(sealedOld, 'candidates:1:2')).toThrow(/BANK_DETAILS_OLD_KEYS/);
  });

  it('reads BANK_DETAILS_OLD_KEYS: keys separated by commas or spaces, hex or base64; a bad one named', () => {
    expect(loadOldKeys({})).toEqual([]);
    expect(loadOldKeys({ BANK_DETAILS_OLD_KEYS: `${old.toString('hex')}, ${next.toString('base64')}` })).toEqual([
      old,
      next,
    ]);
    expect(() => loadOldKeys({ BANK_DETAILS_OLD_KEYS: `${old.toString('hex')},abc` })).toThrow(
      /BANK_DETAILS_OLD_KEYS \(key 2\).*must be 32 bytes/,
    );
  });
});
