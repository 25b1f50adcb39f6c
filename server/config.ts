import { resolve } from 'node:path';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** How long a bearer token lives, in seconds. */
  tokenLifetimeSeconds: number;
  /** Where the built single-page app lives; absent in API-only tests. */
  staticDir?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: env.HOST || '127.0.0.1',
    port: Number(env.PORT || 8080),
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    tokenLifetimeSeconds: Number(env.TOKEN_LIFETIME_SECONDS || 12 * 60 * 60),
    staticDir: resolve(env.STATIC_DIR || './dist/client'),
  };
}
