import type { LoginType } from '../../core/engine/types.js';
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/index.js';
import { HttpError } from '../http.js';
import {
  FILE_LIMITS,
  FILE_LIMIT_LABELS,
  FILE_MIMES,
  FILE_TYPE_MESSAGES,
  isFileId,
  isShippedPath,
  sniffMime,
  type AcceptedMime,
  type FileKind,
} from '../../core/engine/files.js';
import { withoutHiddenCharacters } from '../../core/engine/text.js';

/**
 * The file store: uploads are rows of `files` (bytes in a bytea column), owned by one agency and, once its
 * form is saved, by one record. Image and file fields hold the file's id.
 */

/** Who is asking: the signed-in user (server/auth/sessions.ts AuthUser has this shape). */
export interface FilePrincipal {
  id: number;
  merchant_id: number;
  loginType: LoginType;
  client_id: number | null;
  role: string;
  /** A custom role's privileges (AuthUser's): who may see a file's record is asked of permits with them. */
  privileges?: string[] | null;
}

export interface StoredFile {
  id: string;
  merchant_id: number;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  owner_resource: string | null;
  owner_id: number | null;
  owner_field: string | null;
  uploaded_by: number | null;
  created_at: string;
}

/** What an upload answers. */
export interface FileInfo {
  id: string;
  name: string;
  mime: string;
  size: number;
}

const EXTENSIONS: Record<AcceptedMime, string[]> = {
  'application/pdf': ['.pdf'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/webp': ['.webp'],
};

/**
 * The name a file is kept under: the uploaded name without any folder or control characters, with the extension
 * of its real type (a PNG named report.pdf is kept as report.png, so a download opens in the right program).
 */
export function cleanFileName(raw: string | undefined, mime: AcceptedMime): string {
  const name = withoutHiddenCharacters((raw ?? '').split(/[/\\]/).pop()!)
    .normalize('NFC')
    .trim()
    .slice(0, 200);
  const current = /\.[a-z0-9]{1,5}$/i.exec(name);
  if (current && current.index > 0 && EXTENSIONS[mime].includes(current[0].toLowerCase())) return name;
  const base = current ? name.slice(0, current.index) : name;
  return `${base || 'file'}${EXTENSIONS[mime][0]}`;
}

const UNATTACHED_LIFETIME = '1 day';

/**
 * Checks and stores an upload for the signed-in user. Refuses (HttpError) an empty file (422), one over the
 * kind's limit (413), and any type other than PDF, PNG, JPEG or WebP as decided by the bytes (415); an image
 * upload takes no PDF. The file is the uploader's alone until a saved record takes it (attachFiles); principal 0 is
 * the product itself (the public job board), whose uploads have no uploader user.
 */
export async function saveUpload(
  db: Queryable,
  principal: Pick<FilePrincipal, 'id' | 'merchant_id'>,
  kind: FileKind,
  name: string | undefined,
  bytes: Uint8Array,
): Promise<FileInfo> {
  if (bytes.length === 0) throw new HttpError(422, 'The file is empty.');
  if (bytes.length > FILE_LIMITS[kind])
    throw new HttpError(413, `The file is too large: at most ${FILE_LIMIT_LABELS[kind]}.`);
  const mime = sniffMime(bytes);
  if (!mime || !FILE_MIMES[kind].includes(mime)) throw new HttpError(415, FILE_TYPE_MESSAGES[kind]);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const [row] = await db.query<FileInfo>(
    `insert into files (merchant_id, name, mime, size, sha256, data, uploaded_by)
     values ($1, $2, $3, $4, $5, $6, $7) returning id::text, name, mime, size`,
    [principal.merchant_id, cleanFileName(name, mime), mime, bytes.length, sha256, bytes, principal.id || null],
  );
  // Uploads whose form was never saved are of no use to anyone; sweeping them here needs no scheduler.
  if (Math.random() < 0.05)
    await db.query(
      `delete from files where owner_id is null and created_at < now() - interval '${UNATTACHED_LIFETIME}'`,
    );
  return row;
}

/**
 * SQL for the stored name of the file a record's column holds (null when it holds no file id): the expression
 * of a computed field such as a document's file_name, so a link can say "passport.pdf" instead of its id.
 */
export const fileNameSql = (table: string, column: string) =>
  `(select f.name from files f where f.merchant_id = ${table}.merchant_id
      and f.id = case when ${table}."${column}" ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then ${table}."${column}"::uuid end)`;

/** A file's description (not its bytes) within the agency, or null; anything that is not a file id is null too. */
export async function readFile(db: Queryable, merchantId: number, id: string): Promise<StoredFile | null> {
  if (!isFileId(id)) return null;
  const [row] = await db.query<StoredFile>(
    `select id::text, merchant_id, name, mime, size, sha256, owner_resource, owner_id, owner_field, uploaded_by, created_at
       from files where id = $1 and merchant_id = $2`,
    [id, merchantId],
  );
  return row ?? null;
}

/** A file's bytes (read only once the caller may see them: a file can be 10 MB). */
export async function readFileBytes(db: Queryable, file: Pick<StoredFile, 'id' | 'merchant_id'>): Promise<Buffer> {
  const [row] = await db.query<{ data: Uint8Array }>('select data from files where id = $1 and merchant_id = $2', [
    file.id,
    file.merchant_id,
  ]);
  // pg answers a Buffer, PGlite a Uint8Array: one shape for the caller, without copying.
  return Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
}

/** Whether the principal may see one record that owns files; the engine registers the real rule. */
export type FileOwnerCheck = (
  db: Queryable,
  principal: FilePrincipal,
  ownerResource: string,
  ownerId: number,
) => Promise<boolean>;

// Until the engine registers its rule, a record's files are for its agency's own users, never for client users.
let ownerCheck: FileOwnerCheck = async (_db, principal) => principal.loginType === 'agency';

/** Replaces the rule deciding whether a principal may see the record that owns a file; answers the one it replaced. */
export function registerFileOwnerCheck(check: FileOwnerCheck): FileOwnerCheck {
  const previous = ownerCheck;
  ownerCheck = check;
  return previous;
}

/**
 * Whether the principal may read the file: only within its agency; an unattached upload only by its uploader;
 * an attached one by whoever may see its record. The agency's own pictures (owner 'agency_settings') are the shell's,
 * shown to every user of the agency in both panels.
 */
export async function canReadFile(db: Queryable, principal: FilePrincipal, file: StoredFile): Promise<boolean> {
  if (file.merchant_id !== principal.merchant_id) return false;
  if (file.owner_resource === null || file.owner_id === null) return file.uploaded_by === principal.id;
  // Its logo and favicon belong to its settings (issue 35; 'merchants' before): the shell shows them to all its users.
  if (file.owner_resource === 'merchants' || file.owner_resource === 'agency_settings')
    return file.owner_id === principal.merchant_id;
  return ownerCheck(db, principal, file.owner_resource, file.owner_id);
}

/**
 * The values of image and file fields that cannot be saved: ids that are not this agency's files, unattached
 * uploads of another user, and files that belong to another record. Shipped paths ('/demo/logo.png') pass;
 * any other string is answered as invalid. `owner` is the record being edited (files it already owns pass);
 * leave it out on create. Answered in the order given.
 */
export async function checkFileRefs(
  db: Queryable,
  merchantId: number,
  principalUserId: number,
  values: string[],
  owner?: { resource: string; id: number },
): Promise<string[]> {
  const ids = values.filter(isFileId);
  const usable = new Set(values.filter(isShippedPath));
  if (ids.length === 0) return values.filter((v) => !usable.has(v));
  const rows = await db.query<{
    id: string;
    owner_resource: string | null;
    owner_id: number | null;
    uploaded_by: number | null;
  }>(
    'select id::text, owner_resource, owner_id, uploaded_by from files where merchant_id = $1 and id = any($2::uuid[])',
    [merchantId, ids],
  );
  const found = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const r = found.get(id.toLowerCase());
    const free =
      r &&
      (r.owner_id === null
        ? // The product's own uploads (the public job board's CVs, principal 0) have no uploader user.
          (r.uploaded_by ?? 0) === principalUserId
        : !!owner && r.owner_resource === owner.resource && r.owner_id === owner.id);
    if (free) usable.add(id);
  }
  return values.filter((v) => !usable.has(v));
}

/**
 * Of the given file ids, those that are not of the kind a field takes: an image field takes only an image (PNG,
 * JPEG, WebP) within the image limit, so an uploaded PDF or a 10 MB scan never becomes a photo or a logo.
 * Ids that are not files of the agency are checkFileRefs' question and pass here.
 */
export async function filesNotOfKind(
  db: Queryable,
  merchantId: number,
  ids: string[],
  kind: FileKind,
): Promise<{ id: string; problem: 'type' | 'size' }[]> {
  const fileIds = ids.filter(isFileId);
  if (fileIds.length === 0) return [];
  const rows = await db.query<{ id: string; mime: string; size: number }>(
    'select id::text, mime, size from files where merchant_id = $1 and id = any($2::uuid[])',
    [merchantId, fileIds],
  );
  const out: { id: string; problem: 'type' | 'size' }[] = [];
  for (const r of rows) {
    if (!(FILE_MIMES[kind] as readonly string[]).includes(r.mime)) out.push({ id: r.id, problem: 'type' });
    else if (Number(r.size) > FILE_LIMITS[kind]) out.push({ id: r.id, problem: 'size' });
  }
  return out;
}

/**
 * Makes the record the owner of the files (call inside the record's write transaction, after checkFileRefs).
 * Answers the ids that could not be attached: missing, or already another record's (also when a concurrent save
 * took them first). Shipped paths are skipped. Files the record owned before stay attached to it (its history).
 */
export async function attachFiles(
  tx: Queryable,
  merchantId: number,
  resource: string,
  recordId: number,
  field: string,
  ids: string[],
): Promise<string[]> {
  const fileIds = ids.filter(isFileId).map((id) => id.toLowerCase());
  if (fileIds.length === 0) return [];
  const attached = await tx.query<{ id: string }>(
    `update files set owner_resource = $3, owner_id = $4, owner_field = $5
      where merchant_id = $1 and id = any($2::uuid[])
        and (owner_id is null or (owner_resource = $3 and owner_id = $4))
      returning id::text`,
    [merchantId, fileIds, resource, recordId, field],
  );
  const done = new Set(attached.map((r) => r.id));
  return fileIds.filter((id) => !done.has(id));
}

/**
 * A copy of one of the agency's files (its name, type and bytes), as a new upload of `userId` (0: the product itself)
 * that a record's save then attaches: a file belongs to one record, so a second record keeping the same document
 * (a hired applicant's CV among the staff member's documents) keeps its own copy, and erasing one leaves the other.
 * Answers the new file's id, or null when the agency has no such file.
 */
export async function copyFile(tx: Queryable, merchantId: number, id: string, userId: number): Promise<string | null> {
  if (!isFileId(id)) return null;
  const [row] = await tx.query<{ id: string }>(
    `insert into files (merchant_id, name, mime, size, sha256, data, uploaded_by)
     select merchant_id, name, mime, size, sha256, data, $3 from files where merchant_id = $1 and id = $2
     returning id::text`,
    [merchantId, id, userId || null],
  );
  return row?.id ?? null;
}

/** Deletes the files a record owns: for a record that is itself deleted for good (a soft-deleted one keeps them). */
export async function deleteFilesOf(
  tx: Queryable,
  merchantId: number,
  resource: string,
  recordId: number,
): Promise<void> {
  await tx.query('delete from files where merchant_id = $1 and owner_resource = $2 and owner_id = $3', [
    merchantId,
    resource,
    recordId,
  ]);
}
