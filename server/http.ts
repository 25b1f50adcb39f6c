import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import type { LoginType } from '../core/engine/types.js';

/** An error the caller can act on: its status, its message and, for bad input, what is wrong with each field. */
export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public errors?: Record<string, string>,
    /** More for the caller to act on, sent beside the message (a refused move's clashing booking). */
    public details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badInput = (errors: Record<string, string>, message = 'Some fields need your attention.') =>
  new HttpError(422, message, errors);
export const notFound = (what = 'Record') => new HttpError(404, `${what} not found.`);
export const forbidden = () => new HttpError(403, 'You do not have permission to do that.');

export type Access = 'public' | LoginType | 'any';

/**
 * The largest body a public route (sign-in, invitations, a link) reads: a few KB holds any of their forms. A caller
 * without an account cannot make the server parse megabytes (or a body of 100,000 keys); Fastify answers 413 from
 * the length before parsing anything. A capability link's action takes what its declared input needs on top.
 */
export const PUBLIC_BODY_LIMIT = 8 * 1024;

/** A size in words: "8 KB", "210 KB", "2 MB". */
export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.ceil(n / 1024)} KB`;
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every route not marked public needs a valid token. */
    access?: Access;
    /** Staff tokens reach only 'staff' routes and routes that say `staff: true` (their chat, signing out). */
    staff?: boolean;
    /**
     * Who may make this call, decided before its body, query or parameters are validated (server/app.ts): a caller
     * who may not learns nothing from a validation error (403, or 404 for a record outside their scope). Params are
     * still as sent (strings) here.
     */
    authorize?: (req: FastifyRequest) => void | Promise<void>;
  }
}

// Fastify's JSON-schema messages name the path; the field name is what a form needs.
function fieldOf(e: { instancePath?: string; params?: any }): string {
  const missing = e.params?.missingProperty;
  if (missing) return String(missing);
  const path = (e.instancePath ?? '').replace(/^\//, '').split('/')[0];
  return path || '_';
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { errors?: Record<string, string> }, req, reply) => {
    if (err instanceof HttpError) {
      return reply
        .status(err.status)
        .send({ ...err.details, message: err.message, ...(err.errors ? { errors: err.errors } : {}) });
    }
    if (err.validation) {
      const errors: Record<string, string> = {};
      for (const v of err.validation) {
        const field = fieldOf(v as any);
        errors[field] ??= v.params && (v as any).params.missingProperty ? 'Required' : (v.message ?? 'Invalid value');
      }
      return reply.status(422).send({ message: 'Some fields need your attention.', errors });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? `The request is too large: at most ${formatBytes(req.routeOptions.bodyLimit ?? 0)} here.`
            : err.message;
      return reply.status(err.statusCode).send({ message });
    }
    // Postgres input errors (bad number, out of range, malformed date) are the caller's fault, not ours.
    const pgCode = (err as any).code as string | undefined;
    if (pgCode && /^(22|23)/.test(pgCode)) {
      req.log.info({ err }, 'database rejected input');
      if (pgCode === '23505') return reply.status(409).send({ message: 'A record with these details already exists.' });
      if (pgCode === '23503') return reply.status(409).send({ message: 'This record is in use by other records.' });
      return reply.status(422).send({ message: 'Some values are not valid.' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: 'An unexpected error occurred. Please try again later.' });
  });
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api')) return reply.status(404).send({ message: 'Not found.' });
    return reply.status(404).send('Not found');
  });
}

/**
 * The Content-Security-Policy of every answer: the built app loads only its own scripts; MUI (emotion) writes
 * its styles into <style> elements at run time, hence 'unsafe-inline' for styles (never for scripts); uploaded
 * images preview as blob: URLs and small icons are data: URLs; the app talks only to its own API; no page may
 * frame it. Swagger UI at /api/docs works within the same rules (its scripts and styles are files of this site).
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Whether a request was routed to the API. Decided on the matched route, never on the raw URL: the router
 * decodes the path, so '/%61pi/clients' is routed to '/api/clients' although its raw URL does not say '/api/'.
 */
export const isApiRoute = (req: FastifyRequest) => req.routeOptions.url?.startsWith('/api/') ?? false;

/** Security headers on every answer (pages, files, API, errors), and no caching of any API answer. */
export async function installSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  // Set as the answer leaves, so errors thrown anywhere carry it too. Unmatched paths (404s) are not cached either.
  app.addHook('onSend', async (req, reply) => {
    if (req.is404 || isApiRoute(req)) reply.header('cache-control', 'no-store');
  });
}

/** No query value is longer than this (the free-text `q` included); a longer one answers 400 naming it. */
export const MAX_QUERY_VALUE = 200;
/**
 * Except id lists (react-admin fetches a page of references at once: 100 ids of up to 10 digits) and the fields a
 * list screen asks for (every column of a wide list).
 */
const LONG_QUERY_VALUES: Record<string, number> = { ids: 1100, id: 1100, fields: 2000 };

/** Refuses over-long query parameters before any handler or database sees them. */
export function checkQueryBounds(query: unknown) {
  if (!query || typeof query !== 'object') return;
  const errors: Record<string, string> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (key.length > MAX_QUERY_VALUE) {
      errors.query = `Parameter names must be at most ${MAX_QUERY_VALUE} characters`;
      continue;
    }
    const value = Array.isArray(raw) ? raw.join(',') : String(raw ?? '');
    const max = LONG_QUERY_VALUES[key] ?? MAX_QUERY_VALUE;
    if (value.length > max) errors[key] = `Must be at most ${max} characters`;
  }
  if (Object.keys(errors).length) throw new HttpError(400, 'Some query parameters are too long.', errors);
}
