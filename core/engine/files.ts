/**
 * The file store's rules, shared by the API (server/files) and the screens (src/engine/react/files.tsx):
 * which files are accepted, how large they may be, and what an image or file field's value may be.
 * Plain TypeScript: no React, no Node.
 */

/** An image (logos, photos: PNG, JPEG, WebP up to 1 MB) or a document (those or PDF, up to 10 MB). */
export type FileKind = 'image' | 'document';

export const FILE_LIMITS: Record<FileKind, number> = { image: 1024 * 1024, document: 10 * 1024 * 1024 };
export const FILE_LIMIT_LABELS: Record<FileKind, string> = { image: '1 MB', document: '10 MB' };

export type AcceptedMime = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp';
export const FILE_MIMES: Record<FileKind, readonly AcceptedMime[]> = {
  image: ['image/png', 'image/jpeg', 'image/webp'],
  document: ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'],
};
/** What a file picker offers for each kind (MIME type → extensions). */
export const FILE_ACCEPT: Record<FileKind, Record<string, string[]>> = {
  image: { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/webp': ['.webp'] },
  document: {
    'application/pdf': ['.pdf'],
    'image/png': ['.png'],
    'image/jpeg': ['.jpg', '.jpeg'],
    'image/webp': ['.webp'],
  },
};
export const FILE_TYPE_MESSAGES: Record<FileKind, string> = {
  image: 'Only PNG, JPEG or WebP images can be uploaded here.',
  document: 'Only PDF, PNG, JPEG or WebP files can be uploaded.',
};

/** An image field takes images; a file field takes documents. */
export const fileKindOf = (fieldType: 'image' | 'file'): FileKind => (fieldType === 'image' ? 'image' : 'document');

const startsWith = (bytes: Uint8Array, at: number, ascii: number[]) => ascii.every((b, i) => bytes[at + i] === b);
const text = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * The type of a file, decided by its first bytes (never by its name or the type the browser claims), or null
 * when it is none of the accepted ones. SVG, HTML, GIF and everything else answer null.
 */
export function sniffMime(bytes: Uint8Array): AcceptedMime | null {
  if (startsWith(bytes, 0, text('%PDF-'))) return 'application/pdf';
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, 0, text('RIFF')) && startsWith(bytes, 8, text('WEBP'))) return 'image/webp';
  return null;
}

/** Types a browser may show in place: the accepted ones. Anything else (an SVG kept from before) is only downloaded. */
export const isInlineMime = (mime: string) => (FILE_MIMES.document as readonly string[]).includes(mime);
export const isImageMime = (mime: string) => (FILE_MIMES.image as readonly string[]).includes(mime);

/** A stored file's id (what an image or file field holds). */
export const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isFileId = (v: unknown): v is string => typeof v === 'string' && FILE_ID.test(v);

/**
 * A file the product itself ships, such as '/demo/agency-logo.svg': a path on this site. A protocol-relative
 * URL ('//host/pixel.png') would make the browser fetch from another site, so it is not one.
 */
export const isShippedPath = (v: unknown): v is string =>
  typeof v === 'string' && /^\/[\w/.-]+$/.test(v) && !v.startsWith('//');

/** What the checks read of a Blob. Core is typed without the DOM; Blob is a global of browsers and Node alike. */
interface ChosenBlob {
  readonly size: number;
  readonly type: string;
}
const Blob = (globalThis as { Blob?: abstract new (...args: never[]) => ChosenBlob }).Blob;

/** A file chosen in a form and not yet uploaded: react-admin keeps it as { rawFile, src, title } until the save. */
export const isChosenFile = (v: unknown): v is { rawFile: ChosenBlob } =>
  typeof v === 'object' && v !== null && Blob !== undefined && (v as { rawFile?: unknown }).rawFile instanceof Blob;
