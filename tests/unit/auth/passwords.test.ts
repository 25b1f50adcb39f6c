// @vitest-environment node
import { scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword, setPasswordCostForTests, verifyPassword } from '../../../server/auth/passwords';

// The API tests hash at a lower cost (tests/api/setup.ts); the product's own cost is held here.
describe('password hashes', () => {
  it('are Argon2id at the OWASP cost (19 MiB, 2 passes, 1 lane), with a salt of their own', async () => {
    const [one, two] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(one).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(two).not.toBe(one);
    expect(await verifyPassword('correct horse', one)).toBe(true);
    expect(await verifyPassword('correct horsf', one)).toBe(false);
  }, 30_000);

  it('compare the NFKC form: the same characters composed or not sign in alike', async () => {
    const stored = await hashPassword('café-crème');
    expect(await verifyPassword('cafe\u0301-cre\u0300me', stored)).toBe(true);
  }, 30_000);

  it('made with scrypt before Argon2id still verify, with the parameters stored in them', async () => {
    // scrypt of 'correct horse' at N=2^10, salt 'test-salt-16byte', as the hashes made before Argon2id are stored.
    const salt = Buffer.from('test-salt-16byte');
    const stored = `scrypt$1024$8$1$${salt.toString('base64')}$${scryptSync('correct horse', salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64')}`;
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong', stored)).toBe(false);
  });

  it('of another scheme, or none, never match', async () => {
    expect(await verifyPassword('correct horse', '')).toBe(false);
    expect(await verifyPassword('correct horse', 'md5$abc')).toBe(false);
    expect(await verifyPassword('correct horse', 'correct horse')).toBe(false);
  });
});

describe('the lower cost for tests (PASSWORD_COST_FOR_TESTS)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is refused outside Vitest, so a production server cannot be started with cheap hashes', () => {
    vi.stubEnv('VITEST', '');
    expect(() => setPasswordCostForTests(256)).toThrow('The password hashing cost is lowered only in tests.');
  });

  it('refuses a memory Argon2id cannot use', () => {
    for (const bad of [0, 7, 2.5, Number.NaN]) expect(() => setPasswordCostForTests(bad)).toThrow(/at least 8/);
  });
});
