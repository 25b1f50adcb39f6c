import { setPasswordCostForTests } from '../../server/auth/passwords';

// scrypt at N=2^10 instead of 2^17 for the hashes this process makes (the template's demo users, invitations,
// password changes; the decoy): ~3 ms instead of ~370 ms of CPU each, over the hundreds of sign-ins of the API tests.
// Verifying reads the cost from each hash, so every path is the production one; tests/unit/auth/passwords.test.ts
// holds the production cost itself.
setPasswordCostForTests(2 ** 10);
