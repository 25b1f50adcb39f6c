// The request log (LOG_LEVEL): what it writes of a request, with the secrets some paths carry taken out.
import type { FastifyServerOptions } from 'fastify';

/**
 * Paths whose next segment is a secret: a capability link's token (a signing link), an invitation's token (staff and
 * users), and the app's pages that carry them. Whoever reads the log must not be able to use them.
 */
const TOKEN_IN_PATH =
  /^(\/+(?:api\/+capability|api\/+staff_invites|api\/+user_invites|invite|sign-timesheet)\/+)[^/?#]+/i;
/** A query parameter named like a secret (a token in ?token=…), wherever it appears. */
const TOKEN_IN_QUERY = /([?&](?:token|access_token|invite|code)=)[^&#]*/gi;

/** The URL as the log may keep it: tokens replaced by [redacted]. */
export function redactUrl(url: string): string {
  return url.replace(TOKEN_IN_PATH, '$1[redacted]').replace(TOKEN_IN_QUERY, '$1[redacted]');
}

/**
 * Fastify's logger at `level`: its request line as Fastify writes it (method, URL, host, address), the URL redacted.
 * `stream` is where lines go (standard output unless a test captures them).
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
