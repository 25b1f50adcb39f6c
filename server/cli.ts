import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { createAgency, seedDemo } from './seed/index.js';
import { agreeOnKey, loadKey, loadOldKeys, useKey } from './secrets/sealing.js';
import { queueRotation } from './services/bankDetails.js';
import { areas } from './areas/index.js';
import { registryOf } from './areas/registry.js';
import { createTableSql } from './engine/ddl.js';
import { rebuildReportSummaries } from './engine/reportSummaries.js';
import { declarationByName, declarations } from '../core/resources/declarations.js';
import { recordTypesSource } from '../core/engine/recordTypes.js';
import { EMAIL } from '../core/engine/formats.js';

const usage = `Usage:
  npm run db:seed                       load the demo agencies into the configured database
  npm run agency:create -- --company "Acme Staffing" --name "Jo Bloggs" --email jo@acme.example --password '…'
                                        create an agency and its first admin (no demo data)
  npm run engine:sql -- <resource>      print the table and indexes a declared resource needs (to start a migration)
  npm run engine:records                write core/resources/records.ts, the record types, from the declarations
  npm run summaries:rebuild             count the reports' summaries (shift_days) again from the shifts, every agency
  npm run bank-key:rotate               queue the jobs that seal every staff member's bank details again under
                                        BANK_DETAILS_KEY (the old key in BANK_DETAILS_OLD_KEYS; see the README)`;

const [command, ...rest] = process.argv.slice(2);
if (command === 'sql') {
  const decl = declarationByName.get(rest[0] ?? '');
  if (!decl) {
    console.error(`No resource named ${rest[0] ?? '(none)'}; declared: ${[...declarationByName.keys()].join(', ')}`);
    process.exit(1);
  }
  console.log(createTableSql(decl));
  process.exit(0);
}
if (command === 'records') {
  const file = resolve('core/resources/records.ts');
  writeFileSync(file, recordTypesSource(declarations));
  console.log(`Wrote ${file}`);
  process.exit(0);
}
const config = loadConfig();
const { db } = await openDatabase(config);
try {
  if (command === 'seed') {
    // The demo's bank details are sealed with the key the server will open them with (server/index.ts does the same).
    await agreeOnKey(db, useKey(loadKey(process.env, config.dataDir), loadOldKeys(process.env)));
    const [{ n }] = await db.query<{ n: number }>(
      `select count(*)::int as n from users where email = 'admin@demo.test'`,
    );
    if (n > 0) {
      console.log('The demo data is already loaded; nothing to do.');
    } else {
      await seedDemo(db, registryOf(areas), { history: config.demoHistory });
      console.log('Demo data loaded.');
    }
  } else if (command === 'rebuild-summaries') {
    // The triggers keep the summaries; this is for data written with them off (a restore), or to make sure.
    await rebuildReportSummaries(db);
    console.log('The reports’ summaries are counted again from their rows.');
  } else if (command === 'rotate-bank-key') {
    // This process opens what the old keys sealed and seals under the new one, as the server's workers must.
    await agreeOnKey(db, useKey(loadKey(process.env, config.dataDir), loadOldKeys(process.env)));
    const jobs = await db.transaction((tx) => queueRotation(tx));
    console.log(
      jobs.length
        ? `Queued ${jobs.length} job${jobs.length === 1 ? '' : 's'} (${jobs.map((j) => `agency ${j.merchantId}: ${j.staff} staff, job ${j.jobId}`).join('; ')}). The server's workers run them; once the last is done the database names the new key.`
        : 'Every bank detail is sealed with BANK_DETAILS_KEY already: the database now names it.',
    );
  } else if (command === 'create-agency') {
    const { values } = parseArgs({
      args: rest,
      options: {
        company: { type: 'string' },
        name: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
      },
    });
    const missing = ['company', 'name', 'email', 'password'].filter((k) => !(values as any)[k]);
    if (missing.length) throw new Error(`Missing --${missing.join(', --')}\n${usage}`);
    if (!EMAIL.test(values.email!)) throw new Error('Invalid email address');
    if (values.password!.length < 10) throw new Error('The password must be at least 10 characters long.');
    const r = await db.transaction((tx) =>
      createAgency(tx, {
        companyName: values.company!,
        adminName: values.name!,
        email: values.email!,
        password: values.password!,
      }),
    );
    console.log(`Agency ${r.merchantId} created; ${values.email} can now sign in to the agency panel.`);
  } else {
    console.log(usage);
    process.exitCode = command ? 1 : 0;
  }
} catch (e) {
  console.error((e as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
