import type { Queryable } from '../db/index.js';
import { agencyProfile } from '../routes/account.js';
import { readFile, readFileBytes } from '../files/store.js';
import { isFileId } from '../../core/engine/files.js';
import type { Letterhead } from './pdf/render.js';

/** Image types a PDF embeds as they are; an SVG or WebP logo leaves the agency's name alone on the page. */
const EMBEDDABLE = new Set(['image/png', 'image/jpeg']);

/**
 * The agency's letterhead for its documents: its name and the logo the shell shows (agency_logo_list's
 * 'agency_logo': a file of the store), read from the store within the agency.
 */
export async function letterheadOf(db: Queryable, merchantId: number): Promise<Letterhead> {
  const profile = await agencyProfile(db, merchantId);
  const logoRef = profile?.profile_photo;
  let logo: Buffer | null = null;
  if (isFileId(logoRef)) {
    const file = await readFile(db, merchantId, logoRef);
    if (file && EMBEDDABLE.has(file.mime)) logo = await readFileBytes(db, file);
  }
  return { name: profile?.company_name ?? '', logo };
}
