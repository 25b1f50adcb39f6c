import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../http.js';
import { FILE_LIMITS, FILE_LIMIT_LABELS, fileKindOf, isInlineMime, type FileKind } from '../../core/engine/files.js';
import { permits, rolesOf } from '../../core/resources/access.js';
import { route } from '../routes/route.js';
import type { ResourceDeclaration } from '../../core/engine/types.js';
import type { AuthUser } from '../auth/sessions.js';
import { canReadFile, readFile, readFileBytes, saveUpload } from './store.js';
import { FileBytes, FileParams, Uploaded, UploadQuery } from '../../core/contracts/files.js';

/** A Content-Disposition that keeps any name intact (RFC 6266) and gives old clients a plain ASCII one. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function decodeName(header: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(header) ? header[0] : header;
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // not URI-encoded after all: the name is cleaned before it is kept either way
  }
}

/**
 * The kinds of file a user may upload: those taken by an image or file field of a resource they may create or
 * edit. A file no form of theirs can attach would only sit in the store (a client user could otherwise store
 * 10 MB documents at will). The agency's logo (PUT /api/merchants/:id) is an image, and admins edit images
 * elsewhere too.
 */
export function uploadKinds(
  declarations: Iterable<ResourceDeclaration>,
  user: Pick<AuthUser, 'loginType' | 'role' | 'privileges'>,
): Set<FileKind> {
  const principal = { loginType: user.loginType, role: user.role, privileges: user.privileges ?? undefined };
  const kinds = new Set<FileKind>();
  for (const decl of declarations) {
    if (!permits(principal, decl, 'create') && !permits(principal, decl, 'edit')) continue;
    for (const f of decl.fields) {
      if ((f.type === 'image' || f.type === 'file') && !f.computed && !f.readOnly)
        kinds.add(f.file?.kind ?? fileKindOf(f.type));
    }
  }
  return kinds;
}

const KIND_WORDS: Record<FileKind, string> = {
  image: `images (PNG, JPEG or WebP, up to ${FILE_LIMIT_LABELS.image})`,
  document: `documents (PDF or images, up to ${FILE_LIMIT_LABELS.document})`,
};

/** Uploading (POST /api/files) and reading (GET /api/files/:id) stored files. */
export async function fileRoutes(app: FastifyInstance) {
  // Inside this plugin only: any body is taken as raw bytes (whatever type the browser claims, the bytes decide),
  // up to the largest file a user may upload.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FILE_LIMITS.document }, (_req, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((err: Error & { code?: string }, _req, _reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      throw new HttpError(413, `The file is too large: at most ${FILE_LIMIT_LABELS.document}.`);
    throw err; // everything else is answered by the application's handler
  });

  // Staff too: their phone page uploads their own documents (uploadKinds asks their declarations, as for anyone).
  route(app, {
    method: 'POST',
    url: '/api/files',
    // Which kinds of file each may upload, the declarations say (uploadKinds), before the body is read.
    roles: rolesOf('agency', 'client', 'staff'),
    bodyLimit: FILE_LIMITS.document,
    schema: {
      tags: ['files'],
      summary: 'Upload a file: the raw bytes as the body, its name (URI-encoded) in x-file-name',
      description:
        'kind=image takes PNG, JPEG or WebP up to 1 MB; kind=document also PDF, up to 10 MB. The type is decided by the bytes. ' +
        'The file belongs to the uploader until a saved record refers to it.',
      querystring: UploadQuery,
      response: { 201: Uploaded },
    },
    // Decided before the body is read: a refused upload costs no memory.
    preParsing: async (req, _reply, payload) => {
      const kind = (req.query as { kind?: string }).kind;
      const allowed = uploadKinds(
        [...app.engine.values()].map((c) => c.decl),
        req.auth!,
      );
      // Someone who may upload nothing is refused whatever they sent; the schema answers a bad kind for the others.
      if (allowed.size > 0 && kind !== 'image' && kind !== 'document') return payload;
      if (!allowed.has(kind as FileKind)) {
        const words = [...allowed].map((k) => KIND_WORDS[k]);
        throw new HttpError(
          403,
          words.length
            ? `You can upload only ${words.join(' and ')}: nothing you can edit takes other files.`
            : 'You cannot upload files: nothing you can edit takes one.',
        );
      }
      if (Number(req.headers['content-length']) > FILE_LIMITS[kind as FileKind])
        throw new HttpError(413, `The file is too large: at most ${FILE_LIMIT_LABELS[kind as FileKind]}.`);
      return payload;
    },
    handler: async ({ req, reply }) => {
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const data = await saveUpload(app.db, req.auth!, req.query.kind, decodeName(req.headers['x-file-name']), bytes);
      return reply.status(201).send({ data });
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/files/:id',
    roles: rolesOf('agency', 'client', 'staff'),
    // Another agency's file, or one of a record the caller may not see, does not exist for them.
    record: async (req) => {
      const file = await readFile(app.db, req.auth!.merchant_id, String((req.params as { id?: unknown }).id));
      if (!file || !(await canReadFile(app.db, req.auth!, file))) throw notFound('File');
      return file;
    },
    schema: {
      tags: ['files'],
      summary: 'A stored file, to those who may see the record it belongs to (404 otherwise)',
      params: FileParams,
      // The bytes are sent as they are (a Buffer is never serialised): this documents them.
      response: { 200: { description: 'The file', content: { 'application/octet-stream': { schema: FileBytes } } } },
    },
    handler: async ({ reply, record: file }) => {
      const bytes = await readFileBytes(app.db, file);
      return (
        reply
          .header('content-type', file.mime)
          // Only the accepted types may show in place; anything kept from before (an SVG logo) is only downloaded.
          .header(
            'content-disposition',
            contentDisposition(isInlineMime(file.mime) ? 'inline' : 'attachment', file.name),
          )
          .header('x-content-type-options', 'nosniff')
          // Opened on its own, a file can run nothing and load nothing.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, no-store')
          .send(bytes)
      );
    },
  });
}
