import type { FastifyError, FastifyInstance } from 'fastify';

/** An error the caller can act on: its status, its message and, for bad input, what is wrong with each field. */
export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public errors?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badInput = (errors: Record<string, string>, message = 'Some fields need your attention.') =>
  new HttpError(422, message, errors);
export const notFound = (what = 'Record') => new HttpError(404, `${what} not found.`);
export const forbidden = () => new HttpError(403, 'You do not have permission to do that.');

export type Access = 'public' | 'admin' | 'client' | 'any';
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every route not marked public needs a valid token. */
    access?: Access;
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
      return reply.status(err.status).send({ message: err.message, ...(err.errors ? { errors: err.errors } : {}) });
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
      const message = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The request body is not valid JSON.'
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
