// @vitest-environment node
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/auth/passwords';

// The API tests hash at a lower cost (tests/api/setup.ts); the product's own cost is held here.
describe('password hashes', () => {
  it('are scrypt at the OWASP cost, N=2^17, r=8, p=1, with a salt of their own', async () => {
    const [one, two] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(one).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(two).not.toBe(one);
    expect(await verifyPassword('correct horse', one)).toBe(true);
    expect(await verifyPassword('correct horsf', one)).toBe(false);
    // Four hashes at the production cost: about 1.5 s of CPU on a quiet machine, far more with other work beside it.
  }, 30_000);

  it('verify with the parameters stored in them: a hash made at another cost still signs its user in', async () => {
    // scrypt of 'correct horse' at N=2^10 (as the API tests make them), salt 'test-salt-16byte'.
    const salt = Buffer.from('test-salt-16byte');
    const stored = `scrypt$1024$8$1$${salt.toString('base64')}$${scryptSync('correct horse', salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64')}`;
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong', stored)).toBe(false);
  });
});
