import { forgetCustomFieldDefinitions } from '../../server/engine/customFields';
import { forgetAgencyZones } from '../../server/engine/routes';
import { setPasswordCostForTests } from '../../server/auth/passwords';
import { setPublicUrl } from '../../server/notifications/outbox';
import { forgetServedCopies } from '../../server/documents/records';
import { inject } from 'vitest';
import { useKey } from '../../server/secrets/sealing';

// Argon2id with 256 KiB instead of 19 MiB for the hashes this process makes (the template's demo users, invitations,
// password changes; the decoy): about 1 ms instead of 0.1 s of CPU each, over the API tests' hundreds of sign-ins.
// Verifying reads the cost from each hash, so every path is the production one; tests/unit/auth/passwords.test.ts
// holds the production cost itself.
setPasswordCostForTests(256);

// The api project runs its files one after another in the same worker process (isolate: false, vitest.config.ts),
// so module state outlives a file. Each file has its own database, in which the same agency ids mean other
// agencies: the caches keyed by agency id (kept PDFs served included) start empty for each file, and so does the
// public address of e-mail links.
forgetAgencyZones();
forgetCustomFieldDefinitions();
forgetServedCopies();
setPublicUrl(null);

// The bank details' key (server/secrets/sealing.ts): the run's own (tests/api/global-setup.ts), so the tests never make
// a key file in the working copy's data directory (the server's start does, for `npm start`), and one for every
// worker: the demo's bank details, sealed by the worker that seeded the demo, open in the files of the others.
useKey(Buffer.from(inject('bankDetailsKey'), 'hex'));
