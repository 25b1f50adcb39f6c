/** Uploading and reading stored files (server/files/routes.ts). */
import Type, { type Static } from 'typebox';
import { OneOf } from './common.js';

export const UploadQuery = Type.Object({ kind: OneOf(['image', 'document']) });
export const UploadedFile = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  mime: Type.String(),
  size: Type.Integer(),
});
export type UploadedFile = Static<typeof UploadedFile>;
export const Uploaded = Type.Object({ data: UploadedFile });
export type Uploaded = Static<typeof Uploaded>;
export const FileParams = Type.Object({ id: Type.String() });
/** The file's bytes, typed as stored (documented only: a Buffer is sent as it is, never serialised). */
export const FileBytes = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description: "the file's bytes, its type in content-type",
});
