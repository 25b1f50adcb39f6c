import { useEffect, useState } from 'react';
import ImageNotSupportedOutlined from '@mui/icons-material/ImageNotSupportedOutlined';
import {
  Avatar,
  Box,
  CircularProgress,
  Link,
  Skeleton,
  Typography,
  type AvatarProps,
  type SxProps,
  type Theme,
} from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { request, requestFile } from '../../providers/request';
import { getToken } from '../../providers/session';
import { isFileId, isImageMime, isShippedPath, type FileKind } from '../../../core/engine/files';
import type { Uploaded, UploadedFile } from '../../../core/contracts/files';

/** What the API answers for an upload (core/contracts/files.ts). */
export type { UploadedFile };

/** An upload the API refused (type, size) or could not take; `field` names the form field it came from. */
export class UploadFailure extends Error {
  constructor(
    message: string,
    readonly field: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Sends a file to the store (POST /api/files, the raw bytes as the body); it is the caller's until a record is saved
 * with it.
 */
export async function uploadFile(file: File, kind: FileKind): Promise<UploadedFile> {
  const { data } = await request<Uploaded>(`/files?kind=${kind}`, {
    method: 'POST',
    // The bytes themselves: every fetch sends an ArrayBuffer as is (a File object is not a body everywhere, e.g. in
    // tests).
    body: await file.arrayBuffer(),
    headers: { 'content-type': file.type || 'application/octet-stream', 'x-file-name': encodeURIComponent(file.name) },
  });
  // What the browser already holds needs no second download to be shown.
  remember(data.id, Promise.resolve({ url: URL.createObjectURL(file), mime: data.mime, name: data.name }));
  return data;
}

interface LoadedFile {
  url: string;
  mime: string;
  name: string;
}

// An <img> or a link cannot send the bearer token, so files are fetched with it and shown from blob URLs. They
// are kept for the session (a stored file never changes), and forgotten when another token signs in.
const loaded = new Map<string, Promise<LoadedFile>>();
const MAX_LOADED = 200;
let loadedFor: string | null = null;

function forgetAll() {
  for (const p of loaded.values())
    p.then(
      (f) => URL.revokeObjectURL(f.url),
      () => undefined,
    );
  loaded.clear();
}

function remember(id: string, file: Promise<LoadedFile>) {
  if (loadedFor !== getToken()) {
    forgetAll();
    loadedFor = getToken();
  }
  if (loaded.size >= MAX_LOADED) {
    const [oldest] = loaded.keys();
    loaded.get(oldest)!.then(
      (f) => URL.revokeObjectURL(f.url),
      () => undefined,
    );
    loaded.delete(oldest);
  }
  loaded.set(id, file);
}

/** A stored file as a blob URL the page can use; fetched once per session. */
export function loadFile(id: string): Promise<LoadedFile> {
  if (loadedFor === getToken() && loaded.has(id)) return loaded.get(id)!;
  const file = (async () => {
    const { blob, name } = await requestFile(`/files/${encodeURIComponent(id)}`);
    return { url: URL.createObjectURL(blob), mime: blob.type, name };
  })();
  remember(id, file);
  // A failure is not kept: the next screen showing the file tries again.
  file.catch(() => loaded.get(id) === file && loaded.delete(id));
  return file;
}

/** The loaded file for an id: undefined while loading, null when it cannot be had. */
function useLoadedFile(id: string | undefined): LoadedFile | null | undefined {
  const [state, setState] = useState<{ id?: string; file?: LoadedFile | null }>({});
  useEffect(() => {
    if (!id) return;
    let live = true;
    loadFile(id).then(
      (file) => live && setState({ id, file }),
      () => live && setState({ id, file: null }),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return state.id === id ? state.file : undefined;
}

const sxList = (sx: SxProps<Theme> | undefined) => (Array.isArray(sx) ? sx : sx ? [sx] : []) as any[];

interface ImageProps {
  alt: string;
  sx?: SxProps<Theme>;
}

/**
 * A stored image, with a placeholder of the same size while it loads. Only PNG, JPEG and WebP are shown: a file
 * of another type kept from before (an SVG logo) is never rendered by the page.
 */
export function FileImage({ id, alt, sx }: ImageProps & { id: string }) {
  const translate = useTranslate();
  const file = useLoadedFile(id);
  if (file === undefined) {
    return (
      <Skeleton
        variant="rectangular"
        sx={[{ minWidth: 32, minHeight: 32 }, ...sxList(sx)]}
        aria-label={translate('engine.file.loading')}
        data-testid="file-loading"
      />
    );
  }
  if (file === null || !isImageMime(file.mime)) {
    return (
      <Box
        component="span"
        role="img"
        aria-label={translate('engine.file.unavailable')}
        sx={[{ display: 'inline-flex', alignItems: 'center', color: 'text.disabled' }, ...sxList(sx)]}
      >
        <ImageNotSupportedOutlined />
      </Box>
    );
  }
  return <Box component="img" src={file.url} alt={alt} sx={sx} />;
}

/** An image field's value: a stored file through FileImage, a file the product ships as a plain <img>, else nothing. */
export function StoredImage({ value, alt, sx }: ImageProps & { value: unknown }) {
  if (isFileId(value)) return <FileImage id={value} alt={alt} sx={sx} />;
  if (isShippedPath(value)) return <Box component="img" src={value} alt={alt} sx={sx} />;
  return null;
}

/**
 * An Avatar (a staff photo, the agency's picture) showing a stored or shipped image, or its own fallback while there is
 * none.
 */
export function FileAvatar({ value, ...props }: { value: unknown } & Omit<AvatarProps, 'src'>) {
  const file = useLoadedFile(isFileId(value) ? value : undefined);
  if (isFileId(value) && file === undefined) {
    return (
      <Skeleton
        variant={props.variant === 'circular' || !props.variant ? 'circular' : 'rounded'}
        sx={props.sx}
        data-testid="file-loading"
      />
    );
  }
  const src = isFileId(value)
    ? file && isImageMime(file.mime)
      ? file.url
      : undefined
    : isShippedPath(value)
      ? value
      : undefined;
  return <Avatar {...props} src={src} />;
}

/**
 * A link to a stored file, named as it was uploaded: a click saves it under that name (the server's
 * Content-Disposition). It is not opened in a tab: the page holds it as a blob, and a tab would show and save it
 * under the blob's random name. The file is fetched on the click, not before: a list of documents should not
 * download them all.
 */
export function FileLink({ id, title }: { id: string; title?: string }) {
  const translate = useTranslate();
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const open = async () => {
    setState('loading');
    try {
      const file = await loadFile(id);
      const a = document.createElement('a');
      a.href = file.url;
      a.download = file.name;
      a.click();
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Link component="button" type="button" onClick={open} disabled={state === 'loading'}>
        {title || translate('engine.file.open')}
      </Link>
      {state === 'loading' && <CircularProgress size={14} aria-label={translate('engine.file.loading')} />}
      {state === 'failed' && (
        <Typography component="span" variant="caption" color="error">
          {translate('engine.file.unavailable')}
        </Typography>
      )}
    </Box>
  );
}

/**
 * The preview inside an image or file input: a newly chosen file from the browser's own copy, a stored one
 * through the store. The record here is the input's value, { src, title, rawFile? }.
 */
export function UploadPreview({ kind }: { kind: FileKind }) {
  const file = useRecordContext<{ src?: string; title?: string; rawFile?: File }>();
  if (!file?.src) return null;
  const sx = {
    display: 'block',
    maxWidth: 160,
    maxHeight: 120,
    width: 'auto',
    height: 120,
    objectFit: 'contain',
    m: 0.5,
  } as const;
  if (kind === 'image') {
    return file.rawFile ? (
      <Box component="img" src={file.src} alt={file.title ?? ''} sx={sx} />
    ) : (
      <StoredImage value={file.src} alt={file.title ?? ''} sx={sx} />
    );
  }
  if (file.rawFile || !isFileId(file.src)) return <Typography sx={{ m: 0.5 }}>{file.title || file.src}</Typography>;
  return <FileLink id={file.src} title={file.title} />;
}
