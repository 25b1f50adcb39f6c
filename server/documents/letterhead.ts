import type { Queryable } from '../db/index.js';
import { readFile, readFileBytes } from '../files/store.js';
import { isFileId } from '../../core/engine/files.js';
import type { PrintedLetterhead } from './pdf/render.js';
import { formatAddress } from '../../core/engine/exportFormat.js';
import { registrationLine } from '../../core/domain/agency/identifiers.js';

/**
 * The agency's logo is kept in one place, merchants.profile_photo (a file id of the store, or a path the product
 * ships). Agencies made before logos could be changed have it as an 'agency_logo' row of agency_logos (the demo's
 * '/demo/agency-logo.svg'); that row counts only while profile_photo is empty, and the first logo saved there
 * removes it. The shell (GET merchants/{id}, agency_logo_list), the e-mails and the PDFs all read this one value,
 * so no two of them can show different logos. SQL over `merchants m`.
 */
export const AGENCY_LOGO_SQL = `coalesce(m.profile_photo,
  (select l.logo_url from agency_logos l where l.merchant_id = m.id and l.logo_type = 'agency_logo' order by l.id desc limit 1))`;

/** The agency as its e-mails and documents show it: its name, its logo (AGENCY_LOGO_SQL) and how to reach it. */
export interface Letterhead {
  name: string;
  /** A file id of the store, a path the product ships, or a URL kept from before (null: none). */
  logoUrl: string | null;
  email: string | null;
  phone: string | null;
}

/** The columns of `merchants m` that make its letterhead, for a query that reads more of the agency at once. */
export const LETTERHEAD_SQL = `m.company_name as name, ${AGENCY_LOGO_SQL} as logo, m.email as email, m.phone as phone`;

/** A row of LETTERHEAD_SQL as the letterhead. */
export const letterheadFrom = (
  row: { name?: string | null; logo?: string | null; email?: string | null; phone?: string | null } | undefined,
): Letterhead => ({
  name: row?.name ?? '',
  logoUrl: row?.logo ?? null,
  email: row?.email ?? null,
  phone: row?.phone ?? null,
});

/** The agency's letterhead, read now. */
export async function letterheadOf(db: Queryable, merchantId: number): Promise<Letterhead> {
  const [row] = await db.query(`select ${LETTERHEAD_SQL} from merchants m where m.id = $1`, [merchantId]);
  return letterheadFrom(row);
}

/** Image types a PDF embeds as they are; an SVG or WebP logo leaves the agency's name alone on the page. */
const EMBEDDABLE = new Set(['image/png', 'image/jpeg']);

/** The letterhead as a PDF draws it: its logo's bytes when the logo is a PNG or JPEG of the agency's file store. */
export async function printedLetterhead(
  db: Queryable,
  merchantId: number,
): Promise<Letterhead & Pick<PrintedLetterhead, 'invoicing'> & { logo: Buffer | null }> {
  const letterhead = await letterheadOf(db, merchantId);
  // The agency's address, VAT number and registration are its settings (/appsetting/agencysetting); how to pay it,
  // its invoice settings. One query, read here for every document: no template reads them itself.
  const [settings] = await db.query<{
    vat_number: string | null;
    legal_name: string | null;
    company_number: string | null;
    bank_account_name: string | null;
    bank_sort_code: string | null;
    bank_account_number: string | null;
    footer: string | null;
    address: unknown;
  }>(
    `select a.address, a.vat_number, a.legal_name, a.company_number,
            s.bank_account_name, s.bank_sort_code, s.bank_account_number, s.footer
       from merchants m left join agency_settings a on a.merchant_id = m.id
            left join invoice_settings s on s.merchant_id = m.id
      where m.id = $1`,
    [merchantId],
  );
  // Read when the document is rendered: a kept copy keeps what the settings said at issue, whatever they say later.
  const invoicing = {
    address: formatAddress(settings?.address) || null,
    vatNumber: settings?.vat_number ?? null,
    registration: registrationLine(settings?.legal_name, settings?.company_number),
    bankAccountName: settings?.bank_account_name ?? null,
    sortCode: settings?.bank_sort_code ?? null,
    accountNumber: settings?.bank_account_number ?? null,
    footer: settings?.footer ?? null,
  };
  let logo: Buffer | null = null;
  if (isFileId(letterhead.logoUrl)) {
    const file = await readFile(db, merchantId, letterhead.logoUrl);
    if (file && EMBEDDABLE.has(file.mime)) logo = await readFileBytes(db, file);
  }
  return { ...letterhead, logo, invoicing };
}
