import { requestFile } from './request';

/** Hands a file to the browser as a download named `name`. */
export function saveFile(blob: Blob, name: string) {
  // Legacy Edge's own way, which react-admin's downloadCSV uses too (and the unit tests stand in for).
  const legacy = (window.navigator as { msSaveOrOpenBlob?: (b: Blob, n: string) => void }).msSaveOrOpenBlob;
  if (legacy) return legacy(blob, name);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Fetches a file the server makes (with the session's token) and saves it under the name the server gives. */
export async function downloadFrom(path: string) {
  const { blob, name } = await requestFile(path);
  saveFile(blob, name);
}
