import { expect } from 'vitest';
import { call, type TestApp } from './helpers';

/**
 * An issued invoice of a client with a standard-rated line and an exempt nursing line side by side (issue 32), made
 * by hand through the API as an agency admin: the case every reg 14 check reads back from a kept PDF.
 */
export async function issuedMixedInvoice(t: TestApp, admin: string, clientId: number): Promise<{ id: number }> {
  const made = async (method: 'POST', url: string, body: Record<string, unknown>, status: number) => {
    const res = await call(t.app, admin, method, url, body);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const inv = await made('POST', '/api/invoices', { client_id: clientId }, 201);
  const line = (b: Record<string, unknown>) =>
    made('POST', '/api/invoice_lines', { invoice_id: inv.id, work_date: '2030-01-07', ...b }, 201);
  await line({ description: 'Ann Care, Care assistant, 07:00–15:00', quantity: 8, unit_price: 2000 });
  await line({
    description: 'Rita Nurse, Registered nurse, 07:00–14:30',
    quantity: 7.5,
    unit_price: 3001,
    vat_treatment: 'exempt',
  });
  await made('POST', `/api/invoices/${inv.id}/actions/issue`, {}, 200);
  return inv;
}
