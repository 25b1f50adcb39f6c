import type { Db, Queryable } from './index.js';
import { hashPassword } from '../auth/passwords.js';

/** A small deterministic random generator, so the demo data is the same on every machine. */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  return { next, pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)], int: (a: number, b: number) => a + Math.floor(next() * (b - a + 1)) };
}

/** Inserts rows in one statement and returns their ids in order. */
async function insertMany(db: Queryable, table: string, rows: Record<string, unknown>[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const cols = Object.keys(rows[0]);
  const params: unknown[] = [];
  const values = rows.map((r) => `(${cols.map((c) => { params.push(r[c]); return `$${params.length}`; }).join(', ')})`);
  const out = await db.query<{ id: number }>(`insert into ${table} (${cols.join(', ')}) values ${values.join(', ')} returning id`, params);
  return out.map((r) => r.id);
}

export async function createAgency(db: Queryable, a: { companyName: string; adminName: string; email: string; password: string; passwordHash?: string }) {
  const [m] = await db.query<{ id: number }>('insert into merchants (company_name, email) values ($1, $2) returning id', [a.companyName, a.email]);
  const hash = a.passwordHash ?? (await hashPassword(a.password));
  const [u] = await db.query<{ id: number }>(
    `insert into users (merchant_id, kind, name, email, password_hash, role) values ($1, 'admin', $2, $3, $4, 'admin') returning id`,
    [m.id, a.adminName, a.email.toLowerCase(), hash],
  );
  return { merchantId: m.id, userId: u.id };
}

const FIRST = ['Olivia', 'Amelia', 'Isla', 'Ava', 'Mia', 'Grace', 'Lily', 'Sophie', 'Emily', 'Chloe', 'Jack', 'Oliver', 'Harry', 'George', 'Noah', 'Leo', 'Oscar', 'Charlie', 'Thomas', 'James', 'Priya', 'Aisha', 'Fatima', 'Kwame', 'Chidi', 'Maria', 'Joanna', 'Tomasz', 'Andrei', 'Ioana', 'Grace', 'Blessing', 'Samuel', 'Daniel', 'Ruth', 'Hannah'];
const LAST = ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Patel', 'Khan', 'Okafor', 'Mensah', 'Nowak', 'Kowalski', 'Popescu', 'Evans', 'Thomas', 'Roberts', 'Walker', 'Wright', 'Hughes', 'Edwards', 'Green', 'Hall', 'Wood', 'Clarke', 'Adeyemi', 'Ahmed', 'Ali', 'Murphy'];
const TOWNS = [['Leeds', 'LS'], ['Manchester', 'M'], ['Sheffield', 'S'], ['Bradford', 'BD'], ['York', 'YO'], ['Harrogate', 'HG'], ['Wakefield', 'WF'], ['Huddersfield', 'HD']] as const;
const STREETS = ['High Street', 'Church Lane', 'Station Road', 'Park Avenue', 'Victoria Road', 'Mill Lane', 'Queens Road', 'The Green'];
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
const CARE = ['Meadowbank Care Home', 'Oakwood Lodge', 'Willow Court Nursing Home', 'Rosewood House', 'Beechfield Care Centre', 'Hollybrook Residential Home', 'Ashgrove Nursing Home', 'The Laurels', 'Primrose Hill Care', 'Cedar Park Lodge', 'Fernlea Care Home', 'Kingsmead Nursing Home', 'Elmhurst Care Home', 'Silverdale Lodge'];
const HOSPITALS = ['St Mary’s Hospital Trust', 'Riverside General Hospital', 'Northgate Community Hospital', 'Pennine Health NHS Trust', 'Airedale Private Hospital', 'Calder Valley Hospital'];

function address(r: ReturnType<typeof rng>) {
  const [city, pc] = r.pick(TOWNS);
  return { line1: `${r.int(1, 180)} ${r.pick(STREETS)}`, line2: null, city, postcode: `${pc}${r.int(1, 28)} ${r.int(1, 9)}${String.fromCharCode(65 + r.int(0, 25))}${String.fromCharCode(65 + r.int(0, 25))}`, country: 'United Kingdom' };
}

async function seedAgencyData(db: Queryable, merchantId: number, r: ReturnType<typeof rng>, counts: { clients: string[]; candidates: number; emailDomain: string }) {
  const roleIds = await insertMany(db, 'job_roles', JOB_ROLES.map(([name, code, pay, charge]) => ({ merchant_id: merchantId, name, code, default_pay_rate: pay, default_charge_rate: charge })));
  const statusIds = await insertMany(db, 'staff_statuses', [
    { merchant_id: merchantId, name: 'Available', description: 'Ready to be booked', bookable: true, colour: 'green' },
    { merchant_id: merchantId, name: 'On leave', description: 'Away; do not book until they return', bookable: false, colour: 'amber' },
    { merchant_id: merchantId, name: 'Do not book', description: 'Held back pending a review', bookable: false, colour: 'red' },
  ]);
  const typeIds = await insertMany(db, 'employment_types', [
    { merchant_id: merchantId, name: 'PAYE', description: 'Paid through the agency payroll', paye: true },
    { merchant_id: merchantId, name: 'Umbrella company', description: 'Paid through an umbrella company', paye: false },
    { merchant_id: merchantId, name: 'Limited company', description: 'Invoices through their own limited company', paye: false },
  ]);
  const docIds = await insertMany(db, 'document_categories', [
    { merchant_id: merchantId, name: 'DBS certificate', description: 'Enhanced DBS with barred lists', mandatory: true, validity_months: 12 },
    { merchant_id: merchantId, name: 'Right to work', description: 'Passport, visa or share code', mandatory: true, validity_months: null },
    { merchant_id: merchantId, name: 'Manual handling training', description: 'Practical moving and handling', mandatory: true, validity_months: 12 },
    { merchant_id: merchantId, name: 'NMC PIN', description: 'Nursing and Midwifery Council registration', mandatory: false, validity_months: 12 },
    { merchant_id: merchantId, name: 'Food hygiene certificate', description: 'Level 2 food hygiene', mandatory: false, validity_months: 36 },
  ]);
  await insertMany(db, 'staff_profiles', [
    { merchant_id: merchantId, name: 'Care staff', description: 'Carers and support workers', job_role_id: roleIds[0], document_category_ids: [docIds[0], docIds[1], docIds[2]] },
    { merchant_id: merchantId, name: 'Nursing', description: 'Registered nurses', job_role_id: roleIds[1], document_category_ids: [docIds[0], docIds[1], docIds[3]] },
    { merchant_id: merchantId, name: 'Hotel services', description: 'Domestic and kitchen staff', job_role_id: roleIds[5], document_category_ids: [docIds[1], docIds[4]] },
  ]);
  await insertMany(db, 'staff_detail_fields', [
    { merchant_id: merchantId, label: 'Uniform size', key: 'uniform_size', field_type: 'choice', options: 'XS, S, M, L, XL, XXL', required: false, show_in_list: false, position: 1 },
    { merchant_id: merchantId, label: 'Driver', key: 'driver', field_type: 'boolean', options: null, required: false, show_in_list: true, position: 2 },
  ]);
  const clientIds = await insertMany(db, 'clients', counts.clients.map((name, i) => {
    const hospital = /Hospital|Trust/.test(name);
    return {
      merchant_id: merchantId, name, code: `CL${String(i + 1).padStart(3, '0')}`, client_type: hospital ? 'Hospital' : 'Care home',
      contact_name: `${r.pick(FIRST)} ${r.pick(LAST)}`, email: `office@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
      billing_email: `accounts@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`, phone: `0113 ${r.int(200, 999)} ${r.int(1000, 9999)}`,
      address: JSON.stringify(address(r)), vat_number: `GB${r.int(100000000, 999999999)}`, payment_terms_days: r.pick([14, 30, 30, 45]),
      status: i % 7 === 6 ? 'inactive' : 'active', notes: null,
    };
  }));
  const sites: Record<string, unknown>[] = [];
  clientIds.forEach((clientId, i) => {
    const n = /Hospital|Trust/.test(counts.clients[i]) ? r.int(2, 3) : r.int(1, 2);
    const wings = ['Main Building', 'North Wing', 'South Wing', 'Dementia Unit', 'Day Centre'];
    for (let k = 0; k < n; k++) {
      sites.push({
        merchant_id: merchantId, client_id: clientId, name: `${counts.clients[i]} – ${wings[k]}`, business_unit: r.pick(['Residential', 'Nursing', 'Acute', 'Community']),
        contact_name: `${r.pick(FIRST)} ${r.pick(LAST)}`, contact_phone: `07${r.int(700, 999)} ${r.int(100000, 999999)}`, contact_email: `site${k + 1}.${clientId}@clients.example`,
        address: JSON.stringify(address(r)), status: k === 2 ? 'inactive' : 'active',
      });
    }
  });
  await insertMany(db, 'sites', sites);
  const people: Record<string, unknown>[] = [];
  for (let i = 0; i < counts.candidates; i++) {
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    // About 60% active, 10% inactive, 20% pending, 10% rejected: a real agency's mix.
    const roll = r.next();
    const [status, activated] = roll < 0.6 ? ['approved', true] : roll < 0.7 ? ['approved', false] : roll < 0.9 ? ['pending', false] : ['rejected', false];
    people.push({
      merchant_id: merchantId, first_name: first, last_name: last, email: `${first}.${last}.${i + 1}@${counts.emailDomain}`.toLowerCase(),
      phone: `07${r.int(700, 999)} ${r.int(100000, 999999)}`, date_of_birth: `${r.int(1965, 2004)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`,
      address: JSON.stringify(address(r)), job_role_id: r.pick(roleIds), status, activated,
      employment_type_id: r.pick(typeIds), staff_status_id: status === 'approved' ? r.pick([statusIds[0], statusIds[0], statusIds[0], statusIds[1]]) : null,
      custom_fields: JSON.stringify({ uniform_size: r.pick(['S', 'M', 'L', 'XL']), driver: r.next() < 0.4 }),
    });
  }
  for (let i = 0; i < people.length; i += 500) await insertMany(db, 'candidates', people.slice(i, i + 500));
  return { clientIds, roleIds };
}

export const DEMO_LOGINS = [
  { panel: 'agency', email: 'admin@demo.test', password: 'demo-admin' },
  { panel: 'agency (consultant)', email: 'consultant@demo.test', password: 'demo-admin' },
  { panel: 'client', email: 'client@demo.test', password: 'demo-client' },
  { panel: 'client', email: 'client2@demo.test', password: 'demo-client' },
  { panel: 'agency (second agency)', email: 'admin@other.test', password: 'demo-admin' },
];

/** The demo: one realistic agency with clients, sites, staff and users, and a second, smaller agency. */
export async function seedDemo(db: Db, options: { candidates?: number } = {}) {
  const r = rng(20261122);
  const [adminHash, clientHash] = await Promise.all([hashPassword('demo-admin'), hashPassword('demo-client')]);
  await db.transaction(async (tx) => {
    const demo = await createAgency(tx, { companyName: 'Brightway Staffing', adminName: 'Alex Morgan', email: 'admin@demo.test', password: '', passwordHash: adminHash });
    await tx.query(`insert into agency_logos (merchant_id, logo_type, logo_url) values ($1, 'agency_logo', '/demo/agency-logo.svg')`, [demo.merchantId]);
    const { clientIds } = await seedAgencyData(tx, demo.merchantId, r, { clients: [...CARE, ...HOSPITALS], candidates: options.candidates ?? 200, emailDomain: 'staff.example' });
    await insertMany(tx, 'users', [
      { merchant_id: demo.merchantId, client_id: null, kind: 'admin', name: 'Sam Patel', email: 'consultant@demo.test', password_hash: adminHash, role: 'consultant' },
      { merchant_id: demo.merchantId, client_id: clientIds[0], kind: 'client', name: 'Helen Carter', email: 'client@demo.test', password_hash: clientHash, role: 'manager' },
      { merchant_id: demo.merchantId, client_id: clientIds[1], kind: 'client', name: 'David Okoro', email: 'client2@demo.test', password_hash: clientHash, role: 'manager' },
    ]);
    await insertMany(tx, 'notifications', [
      { merchant_id: demo.merchantId, title: 'New staff registration', body: 'Three new candidates registered and await approval.', link: '/staffs/pendingStaff', read: false },
      { merchant_id: demo.merchantId, title: 'Document expiring', body: 'A DBS certificate expires within 30 days.', link: '/staffs/allStaffs', read: false },
      { merchant_id: demo.merchantId, title: 'Client updated', body: 'Oakwood Lodge changed its billing e-mail.', link: '/client/client-list', read: true },
    ]);

    const other = await createAgency(tx, { companyName: 'Northern Care Recruitment', adminName: 'Jordan Reid', email: 'admin@other.test', password: '', passwordHash: adminHash });
    await seedAgencyData(tx, other.merchantId, r, { clients: ['Hillside Care Home', 'Moorland Nursing Home', 'Dales General Hospital'], candidates: 15, emailDomain: 'northern.example' });
  });
}
