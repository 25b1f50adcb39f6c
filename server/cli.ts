import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { createAgency, seedDemo } from './seed/index.js';
import { agreeOnKey, loadKey, useKey } from './secrets/sealing.js';
import { areas } from './areas/index.js';
import { registryOf } from './areas/registry.js';
import { createTableSql } from './engine/ddl.js';
import { declarationByName, declarations } from '../core/resources/declarations.js';
import { recordTypesSource } from '../core/engine/recordTypes.js';
import { EMAIL } from '../core/engine/formats.js';

const usage = `Usage:
  npm run db:seed                       load the demo agencies into the configured database
  npm run agency:create -- --company "Acme Staffing" --name "Jo Bloggs" --email jo@acme.example --password '…'
                                        create an agency and its first admin (no demo data)
  npm run engine:sql -- <resource>      print the table and indexes a declared resource needs (to start a migration)
  npm run engine:records                write core/resources/records.ts, the record types, from the declarations`;

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
    await agreeOnKey(db, useKey(loadKey(process.env, config.dataDir)));
    const [{ n }] = await db.query<{ n: number }>(
      `select count(*)::int as n from users where email = 'admin@demo.test'`,
    );
    if (n > 0) {
      console.log('The demo data is already loaded; nothing to do.');
    } else {
      await seedDemo(db, registryOf(areas));
      console.log('Demo data loaded.');
    }
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
