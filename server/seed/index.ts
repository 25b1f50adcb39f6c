import { createHash } from 'node:crypto';
import { ensureAgencySettings } from '../routes/agencySettings.js';
import type { Db, Queryable } from '../db/index.js';
import { hashPassword } from '../auth/passwords.js';
import { refreshCompliance } from '../services/compliance.js';
import type { SeedContext } from './context.js';
import type { ConcessionRole } from '../../core/domain/invoicing/vatTreatment.js';
import {
  addDaysToDate,
  addMonthsToDate,
  agencyToday,
  DEFAULT_TIME_ZONE,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime.js';
import { declarations } from '../../core/resources/declarations.js';
import type { Registry } from '../areas/registry.js';
import { compileAll } from '../engine/routes.js';
import type { Compiled } from '../engine/compile.js';
import type { EnginePrincipal } from '../engine/context.js';
import { auditCreatesSql, writeAudit } from '../engine/audit.js';
import { Params } from '../engine/compile.js';
import { systemPrincipal } from '../engine/handle.js';
import { emailDelivery } from '../notifications/outbox.js';
import { historyPeriod, seedHistory } from './history.js';

/** A small deterministic random generator, so the demo data is the same on every machine. */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return {
    next,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    int: (a: number, b: number) => a + Math.floor(next() * (b - a + 1)),
  };
}

/** Inserts rows in one statement and returns their ids in order. */
export async function insertMany(db: Queryable, table: string, rows: Record<string, unknown>[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const cols = Object.keys(rows[0]);
  const params: unknown[] = [];
  const values = rows.map(
    (r) =>
      `(${cols
        .map((c) => {
          params.push(r[c]);
          return `$${params.length}`;
        })
        .join(', ')})`,
  );
  const out = await db.query<{ id: number }>(
    `insert into ${table} (${cols.join(', ')}) values ${values.join(', ')} returning id`,
    params,
  );
  return out.map((r) => r.id);
}

/** A name as a job board address: 'Brightway Staffing' → 'brightway-staffing' (lower-case letters and digits). */
export const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '') || 'agency';

/** The agency's job board slug (/careers/{slug}): from its name, with -2, -3… after a name another agency has. */
export async function freeSlug(db: Queryable, name: string): Promise<string> {
  const base = slugOf(name);
  const taken = new Set(
    (
      await db.query<{ slug: string }>(`select slug from merchants where slug = $1 or slug like $1 || '-%'`, [base])
    ).map((r) => r.slug),
  );
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  return slug;
}

export async function createAgency(
  db: Queryable,
  a: { companyName: string; adminName: string; email: string; password: string; passwordHash?: string },
) {
  const [m] = await db.query<{ id: number }>(
    'insert into merchants (company_name, email, slug) values ($1, $2, $3) returning id',
    [a.companyName, a.email, await freeSlug(db, a.companyName)],
  );
  // Its settings row from the start (its name and the default zone): what the agency settings screen then changes.
  await ensureAgencySettings(db, m.id, systemPrincipal(m.id));
  const hash = a.passwordHash ?? (await hashPassword(a.password));
  const [u] = await db.query<{ id: number }>(
    `insert into users (merchant_id, kind, name, email, password_hash, role) values ($1, 'admin', $2, $3, $4, 'admin') returning id`,
    [m.id, a.adminName, a.email.toLowerCase(), hash],
  );
  // The new agency's trail starts with its first admin, made by the product itself (npm run agency:create).
  await writeAudit(db, systemPrincipal(m.id), {
    resource: 'users',
    recordId: u.id,
    event: 'create',
    changes: {
      name: { from: null, to: a.adminName },
      email: { from: null, to: a.email.toLowerCase() },
      role: { from: null, to: 'admin' },
    },
  });
  return { merchantId: m.id, userId: u.id };
}

const FIRST = [
  'Olivia',
  'Amelia',
  'Isla',
  'Ava',
  'Mia',
  'Grace',
  'Lily',
  'Sophie',
  'Emily',
  'Chloe',
  'Jack',
  'Oliver',
  'Harry',
  'George',
  'Noah',
  'Leo',
  'Oscar',
  'Charlie',
  'Thomas',
  'James',
  'Priya',
  'Aisha',
  'Fatima',
  'Kwame',
  'Chidi',
  'Maria',
  'Joanna',
  'Tomasz',
  'Andrei',
  'Ioana',
  'Grace',
  'Blessing',
  'Samuel',
  'Daniel',
  'Ruth',
  'Hannah',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Khan',
  'Okafor',
  'Mensah',
  'Nowak',
  'Kowalski',
  'Popescu',
  'Evans',
  'Thomas',
  'Roberts',
  'Walker',
  'Wright',
  'Hughes',
  'Edwards',
  'Green',
  'Hall',
  'Wood',
  'Clarke',
  'Adeyemi',
  'Ahmed',
  'Ali',
  'Murphy',
];
const TOWNS = [
  ['Leeds', 'LS'],
  ['Manchester', 'M'],
  ['Sheffield', 'S'],
  ['Bradford', 'BD'],
  ['York', 'YO'],
  ['Harrogate', 'HG'],
  ['Wakefield', 'WF'],
  ['Huddersfield', 'HD'],
] as const;
const STREETS = [
  'High Street',
  'Church Lane',
  'Station Road',
  'Park Avenue',
  'Victoria Road',
  'Mill Lane',
  'Queens Road',
  'The Green',
];
/** The demo's umbrella company, registered for VAT (issue 33: its self-billed pay carries VAT on top). */
export const UMBRELLA_ADDRESS = '4 Canal Wharf, Leeds, LS11 5PS';
export const UMBRELLA_VAT_NUMBER = 'GB246813579';

export const JOB_ROLES = [
  ['Healthcare Assistant', 'HCA', 1250, 1850],
  ['Registered Nurse', 'RGN', 2400, 3400],
  ['Senior Carer', 'SC', 1400, 2050],
  ['Support Worker', 'SW', 1230, 1790],
  ['Registered Mental Health Nurse', 'RMN', 2500, 3550],
  ['Domestic Assistant', 'DOM', 1160, 1600],
  ['Kitchen Assistant', 'KA', 1160, 1620],
  ['Chef', 'CHEF', 1500, 2200],
] as const;
/**
 * What each demo role supplies under the nursing agencies' VAT concession (vatTreatmentOf): nurses on the NMC
 * register, healthcare assistants as nursing auxiliaries (exempt at a hospital or a home with nursing), the rest none.
 */
const ROLE_CONCESSION: Record<string, ConcessionRole> = {
  'Registered Nurse': 'nurse',
  'Registered Mental Health Nurse': 'nurse',
  'Healthcare Assistant': 'auxiliary',
};
const CARE = [
  'Meadowbank Care Home',
  'Oakwood Lodge',
  'Willow Court Nursing Home',
  'Rosewood House',
  'Beechfield Care Centre',
  'Hollybrook Residential Home',
  'Ashgrove Nursing Home',
  'The Laurels',
  'Primrose Hill Care',
  'Cedar Park Lodge',
  'Fernlea Care Home',
  'Kingsmead Nursing Home',
  'Elmhurst Care Home',
  'Silverdale Lodge',
];
const HOSPITALS = [
  'St Mary’s Hospital Trust',
  'Riverside General Hospital',
  'Northgate Community Hospital',
  'Pennine Health NHS Trust',
  'Airedale Private Hospital',
  'Calder Valley Hospital',
];

function address(r: ReturnType<typeof rng>) {
  const [city, pc] = r.pick(TOWNS);
  return {
    line1: `${r.int(1, 180)} ${r.pick(STREETS)}`,
    line2: null,
    city,
    postcode: `${pc}${r.int(1, 28)} ${r.int(1, 9)}${String.fromCharCode(65 + r.int(0, 25))}${String.fromCharCode(65 + r.int(0, 25))}`,
    country: 'United Kingdom',
  };
}

async function seedAgencyData(
  db: Queryable,
  merchantId: number,
  r: ReturnType<typeof rng>,
  counts: { clients: string[]; candidates: number; emailDomain: string },
) {
  const roleIds = await insertMany(
    db,
    'job_roles',
    JOB_ROLES.map(([name, code, pay, charge]) => ({
      merchant_id: merchantId,
      name,
      code,
      default_pay_rate: pay,
      default_charge_rate: charge,
      vat_concession: ROLE_CONCESSION[name] ?? 'none',
    })),
  );
  const statusIds = await insertMany(db, 'staff_statuses', [
    { merchant_id: merchantId, name: 'Available', description: 'Ready to be booked', bookable: true, colour: 'green' },
    {
      merchant_id: merchantId,
      name: 'On leave',
      description: 'Away; do not book until they return',
      bookable: false,
      colour: 'amber',
    },
    {
      merchant_id: merchantId,
      name: 'Do not book',
      description: 'Held back pending a review',
      bookable: false,
      colour: 'red',
    },
  ]);
  const typeIds = await insertMany(db, 'employment_types', [
    { merchant_id: merchantId, name: 'PAYE', description: 'Paid through the agency payroll', paye: true },
    { merchant_id: merchantId, name: 'Umbrella company', description: 'Paid through an umbrella company', paye: false },
    {
      merchant_id: merchantId,
      name: 'Limited company',
      description: 'Invoices through their own limited company',
      paye: false,
    },
  ]);
  const docIds = await insertMany(db, 'document_categories', [
    {
      merchant_id: merchantId,
      name: 'DBS certificate',
      description: 'Enhanced DBS with barred lists',
      mandatory: true,
      validity_months: 12,
      job_role_ids: [],
    },
    {
      merchant_id: merchantId,
      name: 'Right to work',
      description: 'Passport, visa or share code',
      mandatory: true,
      validity_months: null,
      job_role_ids: [],
    },
    {
      merchant_id: merchantId,
      name: 'Manual handling training',
      description: 'Practical moving and handling',
      mandatory: true,
      validity_months: 12,
      job_role_ids: [],
    },
    // Required of nurses only (Registered Nurse, RMN), and of kitchen staff only (Kitchen Assistant, Chef).
    {
      merchant_id: merchantId,
      name: 'NMC PIN',
      description: 'Nursing and Midwifery Council registration',
      mandatory: false,
      validity_months: 12,
      job_role_ids: [roleIds[1], roleIds[4]],
    },
    {
      merchant_id: merchantId,
      name: 'Food hygiene certificate',
      description: 'Level 2 food hygiene',
      mandatory: false,
      validity_months: 36,
      job_role_ids: [roleIds[6], roleIds[7]],
    },
  ]);
  await insertMany(db, 'staff_profiles', [
    {
      merchant_id: merchantId,
      name: 'Care staff',
      description: 'Carers and support workers',
      job_role_id: roleIds[0],
      document_category_ids: [docIds[0], docIds[1], docIds[2]],
    },
    {
      merchant_id: merchantId,
      name: 'Nursing',
      description: 'Registered nurses',
      job_role_id: roleIds[1],
      document_category_ids: [docIds[0], docIds[1], docIds[3]],
    },
    {
      merchant_id: merchantId,
      name: 'Hotel services',
      description: 'Domestic and kitchen staff',
      job_role_id: roleIds[5],
      document_category_ids: [docIds[1], docIds[4]],
    },
  ]);
  await insertMany(db, 'staff_detail_fields', [
    {
      merchant_id: merchantId,
      label: 'Uniform size',
      key: 'uniform_size',
      field_type: 'choice',
      options: 'XS, S, M, L, XL, XXL',
      required: false,
      show_in_list: false,
      // Asked on the application form too (the demo's applicants answered it).
      on_application: true,
      position: 1,
    },
    {
      merchant_id: merchantId,
      label: 'Driver',
      key: 'driver',
      field_type: 'boolean',
      options: null,
      required: false,
      show_in_list: true,
      on_application: false,
      position: 2,
    },
  ]);
  const clientIds = await insertMany(
    db,
    'clients',
    counts.clients.map((name, i) => {
      const hospital = /Hospital|Trust/.test(name);
      const terms = r.pick([14, 30, 30, 45]);
      return {
        merchant_id: merchantId,
        name,
        code: `CL${String(i + 1).padStart(3, '0')}`,
        client_type: hospital ? 'Hospital' : 'Care home',
        contact_name: `${r.pick(FIRST)} ${r.pick(LAST)}`,
        email: `office@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        billing_email: `accounts@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        phone: `0113 ${r.int(200, 999)} ${r.int(1000, 9999)}`,
        address: JSON.stringify(address(r)),
        vat_number: `GB${r.int(100000000, 999999999)}`,
        // The panel's client (client@demo.test's, the first) pays in 14 days, so the invoice it was sent three weeks
        // ago is overdue now (server/seed/invoices.ts).
        payment_terms_days: i === 0 ? 14 : terms,
        status: i % 7 === 6 ? 'inactive' : 'active',
        notes: null,
      };
    }),
  );
  // The demo's codes are the client code series' first numbers: the next client created without one gets the next.
  await db.query("insert into number_series (merchant_id, series, prefix, next_number) values ($1, 'CL', 'CL', $2)", [
    merchantId,
    clientIds.length + 1,
  ]);
  const sites: Record<string, unknown>[] = [];
  clientIds.forEach((clientId, i) => {
    const n = /Hospital|Trust/.test(counts.clients[i]) ? r.int(2, 3) : r.int(1, 2);
    const wings = ['Main Building', 'North Wing', 'South Wing', 'Dementia Unit', 'Day Centre'];
    const hospital = /Hospital|Trust/.test(counts.clients[i]);
    for (let k = 0; k < n; k++) {
      const unit = r.pick(['Residential', 'Nursing', 'Acute', 'Community']);
      sites.push({
        merchant_id: merchantId,
        client_id: clientId,
        name: `${counts.clients[i]} – ${wings[k]}`,
        business_unit: unit,
        // A care home's nursing unit is a care home with nursing; a hospital's sites follow the client's type.
        care_type: hospital ? null : unit === 'Nursing' ? 'care_home_nursing' : 'care_home',
        contact_name: `${r.pick(FIRST)} ${r.pick(LAST)}`,
        contact_phone: `07${r.int(700, 999)} ${r.int(100000, 999999)}`,
        contact_email: `site${k + 1}.${clientId}@clients.example`,
        address: JSON.stringify(address(r)),
        status: k === 2 ? 'inactive' : 'active',
      });
    }
  });
  await insertMany(db, 'sites', sites);
  const people: Record<string, unknown>[] = [];
  const registeredBefore = Date.now() - 100 * 86_400_000;
  for (let i = 0; i < counts.candidates; i++) {
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    // About 60% active, 10% inactive, 20% pending, 10% rejected: a real agency's mix.
    const roll = r.next();
    const [status, activated] =
      roll < 0.6
        ? ['approved', true]
        : roll < 0.7
          ? ['approved', false]
          : roll < 0.9
            ? ['pending', false]
            : ['rejected', false];
    people.push({
      merchant_id: merchantId,
      first_name: first,
      last_name: last,
      email: `${first}.${last}.${i + 1}@${counts.emailDomain}`.toLowerCase(),
      phone: `07${r.int(700, 999)} ${r.int(100000, 999999)}`,
      date_of_birth: `${r.int(1965, 2004)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`,
      address: JSON.stringify(address(r)),
      job_role_id: r.pick(roleIds),
      status,
      activated,
      employment_type_id: r.pick(typeIds),
      staff_status_id: status === 'approved' ? r.pick([statusIds[0], statusIds[0], statusIds[0], statusIds[1]]) : null,
      custom_fields: JSON.stringify({ uniform_size: r.pick(['S', 'M', 'L', 'XL']), driver: r.next() < 0.4 }),
      // Registered before the demo's story (its agency settings 90 days ago, a deduction 60 days ago, weeks of
      // shifts), over the year before it, as an agency's staff are; without it every staff member would say
      // Registered today and their History would begin after their own pay deductions.
      created_at: new Date(registeredBefore - (i % 365) * 86_400_000),
    });
  }
  for (let i = 0; i < people.length; i += 500) await insertMany(db, 'candidates', people.slice(i, i + 500));
  await seedPayThroughCompanies(db, merchantId, typeIds);
  return { clientIds, roleIds, docIds };
}

/**
 * Issue 33's pay settings: an employment type whose PAYE staff accrue holiday as hours (none is on it yet: the demo's
 * pay runs pick whom to move), and the companies umbrella and limited-company workers are paid through, so their
 * payslips and the self-billing export name them. Written after the staff, without the seed's generator, so the
 * demo's random mix is the one it was.
 */
async function seedPayThroughCompanies(db: Queryable, merchantId: number, typeIds: number[]) {
  await insertMany(db, 'employment_types', [
    {
      merchant_id: merchantId,
      name: 'PAYE, holiday accrued',
      description: 'Paid through the agency payroll; holiday banked as hours and paid when taken',
      paye: true,
      holiday_pay: 'accrued',
    },
  ]);
  const [, umbrella, limited] = typeIds;
  await db.query(
    `update candidates set company_name = 'Brolly Payroll Services Ltd', company_number = '09876543',
            company_address = $3, company_vat_number = $4
      where merchant_id = $1 and employment_type_id = $2`,
    [merchantId, umbrella, UMBRELLA_ADDRESS, UMBRELLA_VAT_NUMBER],
  );
  await db.query(
    `update candidates set company_name = last_name || ' Care Services Ltd', company_number = lpad((10000000 + id)::text, 8, '0')
      where merchant_id = $1 and employment_type_id = $2`,
    [merchantId, limited],
  );
}

/** A one-page PDF saying what it is: a real, readable file (offsets computed, so viewers open it cleanly). */
function demoPdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 72 770 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 72 770 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A 1×1 PNG: the scanned-photo kind of upload. */
const DEMO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A file id drawn from the seed's generator, so the demo is the same on every machine. */
const demoUuid = (r: ReturnType<typeof rng>) => {
  const hex = Array.from({ length: 32 }, () => Math.floor(r.next() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const REJECTION_REASONS = [
  'The scan is blurred; the number cannot be read.',
  'The name on the document does not match the staff record.',
  'This is the old certificate; please upload the renewed one.',
];
const RESTRICTION_REASONS = [
  'Client asked not to book again after a missed shift.',
  'Late to three shifts in a month.',
  'Family member lives at this home (conflict of interest).',
  'Medication error under review.',
];

/**
 * Compliance demo data for one agency: documents of its approved staff in a realistic mix (verified, due in 10
 * and in 45 days, expired, missing, rejected with a reason, awaiting a check, and older replaced ones), each
 * with its own small stored file; the staff's stored compliance; some restrictions and preferences; and
 * availability for the active staff over the next four weeks (this week first). All in bulk inserts.
 */
async function seedCompliance(
  db: Queryable,
  merchantId: number,
  r: ReturnType<typeof rng>,
  ctx: { adminName: string; adminId: number; clientIds: number[] },
) {
  const today = agencyToday(DEFAULT_TIME_ZONE);
  const categories = await db.query<{
    id: number;
    name: string;
    mandatory: boolean;
    validity_months: number | null;
    job_role_ids: number[];
  }>(
    'select id, name, mandatory, validity_months, job_role_ids from document_categories where merchant_id = $1 order by id',
    [merchantId],
  );
  const staff = await db.query<{ id: number; job_role_id: number | null; activated: boolean }>(
    `select id, job_role_id, activated from candidates where merchant_id = $1 and status = 'approved' and deleted_at is null order by id`,
    [merchantId],
  );
  const prefix: Record<string, string> = {
    'DBS certificate': 'DBS',
    'Right to work': 'RTW',
    'Manual handling training': 'MH',
    'NMC PIN': 'NMC',
    'Food hygiene certificate': 'FH',
  };
  const docs: Record<string, unknown>[] = [];
  const document = (
    candidateId: number,
    cat: (typeof categories)[number],
    issue: string,
    extra: Partial<{ status: string; rejection_reason: string | null; current: boolean }> = {},
  ) => {
    docs.push({
      merchant_id: merchantId,
      candidate_id: candidateId,
      document_category_id: cat.id,
      number: `${prefix[cat.name] ?? 'DOC'}-${r.int(100000, 999999)}`,
      issue_date: issue,
      expiry_date: cat.validity_months ? addMonthsToDate(issue, cat.validity_months) : null,
      file: demoUuid(r),
      status: 'verified',
      rejection_reason: null,
      current: true,
      ...extra,
    });
  };
  // The issue date that makes a category's document expire `days` from today.
  const issuedToExpireIn = (cat: (typeof categories)[number], days: number) =>
    addMonthsToDate(addDaysToDate(today, days), -(cat.validity_months ?? 12));
  for (const s of staff) {
    const required = categories.filter(
      (c) => c.mandatory || (s.job_role_id !== null && c.job_role_ids.includes(s.job_role_id)),
    );
    const expiring = required.filter((c) => c.validity_months);
    // One category (with an expiry) carries this staff member's problem, if they have one.
    const roll = r.next();
    const scenario =
      roll < 0.5
        ? 'ok'
        : roll < 0.6
          ? 'due10'
          : roll < 0.7
            ? 'due45'
            : roll < 0.78
              ? 'expired'
              : roll < 0.85
                ? 'missing'
                : roll < 0.91
                  ? 'rejected'
                  : 'awaiting';
    const target = r.pick(expiring);
    for (const cat of required) {
      const fresh = () =>
        cat.validity_months
          ? issuedToExpireIn(cat, r.int(70, 30 * cat.validity_months - 20))
          : addDaysToDate(today, -r.int(30, 1500));
      if (cat !== target || scenario === 'ok') document(s.id, cat, fresh());
      else if (scenario === 'due10') document(s.id, cat, issuedToExpireIn(cat, 10));
      else if (scenario === 'due45') document(s.id, cat, issuedToExpireIn(cat, 45));
      else if (scenario === 'expired') document(s.id, cat, issuedToExpireIn(cat, -r.int(3, 60)));
      else if (scenario === 'rejected')
        document(s.id, cat, fresh(), { status: 'rejected', rejection_reason: r.pick(REJECTION_REASONS) });
      else if (scenario === 'awaiting') document(s.id, cat, fresh(), { status: 'awaiting' });
      // 'missing': nothing uploaded for that category.
    }
    // About one in five was renewed: the previous certificate stays in the history, replaced.
    const renewed = r.next() < 0.2 ? expiring.find((c) => c !== target) : undefined;
    if (renewed) document(s.id, renewed, issuedToExpireIn(renewed, -r.int(5, 200)), { current: false });
  }
  const docIds: number[] = [];
  for (let i = 0; i < docs.length; i += 1000)
    docIds.push(...(await insertMany(db, 'candidate_documents', docs.slice(i, i + 1000))));
  // Each document owns its own file (a file belongs to one record); most are PDFs, some photographed (PNG).
  const pdf = demoPdf('Demo document (Brightway Staffing)');
  const hashes = { pdf: sha256(pdf), png: sha256(DEMO_PNG) };
  const files = docs.map((d, i) => {
    const png = i % 4 === 3;
    const bytes = png ? DEMO_PNG : pdf;
    return {
      id: d.file,
      merchant_id: merchantId,
      name: `${String(d.number).toLowerCase()}.${png ? 'png' : 'pdf'}`,
      mime: png ? 'image/png' : 'application/pdf',
      size: bytes.length,
      sha256: png ? hashes.png : hashes.pdf,
      data: bytes,
      owner_resource: 'candidate_documents',
      owner_id: docIds[i],
      owner_field: 'file',
      uploaded_by: ctx.adminId,
    };
  });
  for (let i = 0; i < files.length; i += 500) await insertMany(db, 'files', files.slice(i, i + 500));
  await refreshCompliance(db, merchantId);

  const sites = await db.query<{ id: number; client_id: number }>(
    'select id, client_id from sites where merchant_id = $1 order by id',
    [merchantId],
  );
  const restricted = Array.from({ length: Math.min(8, staff.length) }, (_, i) => staff[(i * 7 + 3) % staff.length]);
  await insertMany(
    db,
    'candidate_restrictions',
    restricted.map((s, i) => {
      const site = i % 2 === 0 ? r.pick(sites) : undefined;
      return {
        merchant_id: merchantId,
        candidate_id: s.id,
        client_id: site ? site.client_id : r.pick(ctx.clientIds),
        site_id: site?.id ?? null,
        reason: r.pick(RESTRICTION_REASONS),
        restricted_on: addDaysToDate(today, -r.int(5, 400)),
        recorded_by: ctx.adminName,
      };
    }),
  );
  const preferring = staff.filter((_, i) => i % 3 === 0);
  await insertMany(
    db,
    'candidate_preferences',
    preferring.map((s) => {
      const night = r.next() < 0.35;
      const optedOut = r.next() < 0.3;
      return {
        merchant_id: merchantId,
        candidate_id: s.id,
        preferred_client_ids: [r.pick(ctx.clientIds)],
        avoided_client_ids: [],
        preferred_site_ids: [],
        avoided_site_ids: [],
        job_role_ids: s.job_role_id ? [s.job_role_id] : [],
        prefers_day: !night,
        prefers_night: night,
        prefers_long_day: r.next() < 0.3,
        prefers_weekend: r.next() < 0.4,
        max_hours_per_week: r.pick([24, 30, 37, 40, 48]),
        travel_radius_miles: r.pick([5, 10, 15, 25]),
        opted_out_48h: optedOut,
        opt_out_signed_on: optedOut ? addDaysToDate(today, -r.int(30, 700)) : null,
      };
    }),
  );

  // Most active staff give their availability a few weeks ahead; some days stay unset.
  const monday = startOfWeekMonday(today);
  const availability: Record<string, unknown>[] = [];
  for (const s of staff.filter((x) => x.activated)) {
    const nights = r.next() < 0.25;
    for (let d = 0; d < 28; d++) {
      const roll = r.next();
      if (roll < 0.3) continue;
      const weekend = d % 7 >= 5;
      const status =
        roll < 0.45 || (weekend && roll < 0.6)
          ? 'unavailable'
          : roll < 0.6
            ? 'available'
            : nights
              ? 'night'
              : roll < 0.85
                ? 'day'
                : 'long_day';
      availability.push({ merchant_id: merchantId, candidate_id: s.id, date: addDaysToDate(monday, d), status });
    }
  }
  for (let i = 0; i < availability.length; i += 2000)
    await insertMany(db, 'availability', availability.slice(i, i + 2000));
}

/**
 * The demo's records as though they had been entered through the screens: one 'create' entry in the audit trail
 * for each row the seed wrote to an entity's table, by the agency's admin at the row's own time, with the
 * engine's own changes, a child's filed under its parent as the engine files it. The seed writes in bulk,
 * around the engine; without this a newcomer opening a demo record would find its History empty.
 */
async function recordSeedHistory(
  db: Queryable,
  engine: Map<string, Compiled>,
  merchantId: number,
  who: { userId: number; name: string },
) {
  const admin: EnginePrincipal = { ...systemPrincipal(merchantId), userId: who.userId, name: who.name };
  for (const c of engine.values()) {
    // A resource's own limit on its rows (users and staff sign-ins share a table) as the agency's admin sees them;
    // rows the seed wrote through the engine (the timesheets) have their history already.
    const p = new Params();
    const agency = p.bind(merchantId);
    const own = c.behaviour.scope?.(systemPrincipal(merchantId), p.bind);
    const rows = `select * from ${c.table} x where merchant_id = ${agency}${own ? ` and (${own})` : ''}
          and not exists (select 1 from audit_log a where a.merchant_id = ${agency} and a.resource = ${p.bind(c.decl.name)}
                            and a.record_id = x.id and a.event = 'create')`;
    // The engine's own entries of a create (createMany's builder), each at its row's time.
    const sql = auditCreatesSql(c, admin, 'seeded', p.bind, undefined, undefined, 'created_at');
    if (sql) await db.query(`with seeded as (${rows}) ${sql}`, p.values);
  }
}

export const DEMO_LOGINS = [
  { panel: 'agency', email: 'admin@demo.test', password: 'demo-admin' },
  { panel: 'agency (consultant)', email: 'consultant@demo.test', password: 'demo-admin' },
  { panel: 'client', email: 'client@demo.test', password: 'demo-client' },
  { panel: 'client', email: 'client2@demo.test', password: 'demo-client' },
  { panel: 'agency (second agency)', email: 'admin@other.test', password: 'demo-admin' },
  { panel: 'staff (/staff-app)', email: 'staff@demo.test', password: 'demo-staff' },
];

/**
 * The demo: one realistic agency with clients, sites, staff and users, and a second, smaller agency. `registry`: the
 * areas whose demo data it seeds (server/areas, given by the caller: the seed never imports their list).
 */
/**
 * The demo: two agencies, the first with `candidates` staff and, unless `history` is false, its year of history
 * (server/seed/history.ts). The API tests leave the history out but for the files that read it: they book their own
 * shifts in past weeks for the demo's staff, where the history's shifts would be double bookings.
 */
export async function seedDemo(db: Db, registry: Registry, options: { candidates?: number; history?: boolean } = {}) {
  const engine = compileAll(declarations, registry.behaviours);
  const r = rng(20261122);
  const [adminHash, clientHash] = await Promise.all([hashPassword('demo-admin'), hashPassword('demo-client')]);
  await db.transaction(async (tx) => {
    const demo = await createAgency(tx, {
      companyName: 'Brightway Staffing',
      adminName: 'Alex Morgan',
      email: 'admin@demo.test',
      password: '',
      passwordHash: adminHash,
    });
    const { clientIds } = await seedAgencyData(tx, demo.merchantId, r, {
      clients: [...CARE, ...HOSPITALS],
      candidates: options.candidates ?? 200,
      emailDomain: 'staff.example',
    });
    await insertMany(tx, 'users', [
      {
        merchant_id: demo.merchantId,
        client_id: null,
        kind: 'admin',
        name: 'Sam Patel',
        email: 'consultant@demo.test',
        password_hash: adminHash,
        role: 'consultant',
      },
      {
        merchant_id: demo.merchantId,
        client_id: clientIds[0],
        kind: 'client',
        name: 'Helen Carter',
        email: 'client@demo.test',
        password_hash: clientHash,
        role: 'manager',
      },
      // Helen's colleague, who reads Meadowbank's panel (My account lists them; issue 35).
      {
        merchant_id: demo.merchantId,
        client_id: clientIds[0],
        kind: 'client',
        name: 'Tom Reid',
        email: 'tom.reid@meadowbank.example',
        password_hash: clientHash,
        role: 'viewer',
      },
      {
        merchant_id: demo.merchantId,
        client_id: clientIds[1],
        kind: 'client',
        name: 'David Okoro',
        email: 'client2@demo.test',
        password_hash: clientHash,
        role: 'manager',
      },
    ]);
    await seedCompliance(tx, demo.merchantId, r, { adminName: 'Alex Morgan', adminId: demo.userId, clientIds });
    // The workflow's demo data, area by area (server/areas/index.ts orders them).
    const area: SeedContext = {
      engine,
      merchantId: demo.merchantId,
      adminId: demo.userId,
      adminName: 'Alex Morgan',
      clientIds,
      random: r.next,
      timeZone: DEFAULT_TIME_ZONE,
      history: (options.history ?? true) ? historyPeriod(DEFAULT_TIME_ZONE) : null,
    };
    for (const { seed, seedsAfterHistory } of registry.areas) if (!seedsAfterHistory) await seed?.(tx, area);
    // Then the year before the demo's weeks, from a random source of its own: those weeks stay as they were.
    await seedHistory(tx, area);
    for (const { seed, seedsAfterHistory } of registry.areas) if (seedsAfterHistory) await seed?.(tx, area);
    // The year before the demo's own weeks was read as it came: its notices are no newcomer's to-do.
    if (area.history)
      await tx.query('update notifications set read = true where merchant_id = $1 and not read and created_at < $2', [
        demo.merchantId,
        zonedDateTimeToInstant(area.history.until, '00:00', area.timeZone),
      ]);
    await recordSeedHistory(tx, engine, demo.merchantId, { userId: demo.userId, name: 'Alex Morgan' });
    // The demo's mail went out as its story happened: what an area's seed left queued (the invoices it sent) is
    // sent as of when it was queued, and the jobs that would send it are done, so a new demo's queue holds no work.
    await tx.query(
      `update email_outbox set status = 'sent', attempts = 1, sent_at = created_at, next_attempt_at = created_at,
              message_id = '<demo-' || id || '@staffing.local>'
        where merchant_id = $1 and status = 'queued'`,
      [demo.merchantId],
    );
    await tx.query(
      `update jobs j set status = 'done', done = coalesce(j.total, 0), finished_at = j.created_at, updated_at = j.created_at
        where j.merchant_id = $1 and j.kind = $2 and j.status = 'queued'
          and not exists (select 1 from email_outbox o where o.id in (select x::int from jsonb_array_elements_text(j.payload->'ids') x) and o.status = 'queued')`,
      [demo.merchantId, emailDelivery.kind],
    );

    const other = await createAgency(tx, {
      companyName: 'Northern Care Recruitment',
      adminName: 'Jordan Reid',
      email: 'admin@other.test',
      password: '',
      passwordHash: adminHash,
    });
    await seedAgencyData(tx, other.merchantId, r, {
      clients: ['Hillside Care Home', 'Moorland Nursing Home', 'Dales General Hospital'],
      candidates: 15,
      emailDomain: 'northern.example',
    });
    await recordSeedHistory(tx, engine, other.merchantId, { userId: other.userId, name: 'Jordan Reid' });
  });
}
