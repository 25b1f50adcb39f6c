import { loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { DEMO_LOGINS, seedDemo } from './seed/index.js';
import { buildApp } from './app.js';
import { loggerOptions } from './logging.js';
import { startNotifications } from './notifications/worker.js';
import { JobWorker } from './jobs/worker.js';
import { areas } from './areas/index.js';
import { registryOf } from './areas/registry.js';
import { setPasswordCostForTests } from './auth/passwords.js';
import { agreeOnKey, loadKey, loadOldKeys, useKey } from './secrets/sealing.js';

const started = performance.now();
const config = loadConfig();
// The browser tests start this server from Vitest and sign in over a hundred times, each a password hash at
// production cost. Refused outside Vitest (setPasswordCostForTests throws).
if (process.env.PASSWORD_COST_FOR_TESTS) setPasswordCostForTests(Number(process.env.PASSWORD_COST_FOR_TESTS));
const { db, created } = await openDatabase(config);
// The key that seals bank details: BANK_DETAILS_KEY, else the data directory's key file (made now on a first start);
// every process on this database must have the same one, or this one stops here saying so.
await agreeOnKey(db, useKey(loadKey(process.env, config.dataDir), loadOldKeys(process.env)));
// Only a brand-new embedded database gets the demo; a real server gets data by `npm run db:seed` or
// `npm run agency:create`.
if (created && !config.databaseUrl) {
  console.log('New embedded database: loading demo data…');
  await seedDemo(db, registryOf(areas), { history: config.demoHistory });
}
const app = await buildApp({
  db,
  config,
  // LOG_LEVEL (info, warn, …) turns the request log on; signing-link and invitation tokens never reach it.
  logger: process.env.LOG_LEVEL ? loggerOptions(process.env.LOG_LEVEL) : false,
});
await app.listen({ host: config.host, port: config.port });
// Mail goes out through SMTP_URL, or through the product's own mail server (readable at /report/EmailReport/mailbox).
const notifications = await startNotifications(db, {
  smtpUrl: config.smtpUrl,
  smtpPort: config.embeddedSmtpPort,
  publicUrl: config.publicUrl,
  from: config.mailFrom,
});
// Queued jobs (with progress) and the periodic ones (server/jobs/periodic.ts), shared with the other processes.
const jobs = new JobWorker(app.jobs, db);
jobs.start();

const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
console.log(
  `\nStaffing back office is running at ${address}  (ready in ${Math.round(performance.now() - started)} ms)`,
);
console.log(`Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`);
console.log(`API description: ${address}/api/docs`);
console.log(
  `E-mail: ${config.smtpUrl ? 'SMTP_URL' : `embedded mail server on ${config.embeddedSmtpPort ? `127.0.0.1:${config.embeddedSmtpPort}` : 'a free port of 127.0.0.1'}, started with the first mail to send (product's sender only; received mail: ${address}/report/EmailReport/mailbox)`}`,
);
if (!config.databaseUrl || created) {
  const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from users where email = 'admin@demo.test'`);
  if (n > 0) {
    console.log('\nDemo logins:');
    for (const l of DEMO_LOGINS) console.log(`  ${l.panel.padEnd(24)} ${l.email.padEnd(22)} password ${l.password}`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    await app.close();
    await jobs.stop();
    await notifications.close();
    await db.close();
    process.exit(0);
  });
}
