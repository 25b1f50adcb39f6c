// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  CLIENT_EMAIL_EVENTS,
  clientEmailChoice,
  signingMethodsProblem,
  signingRefusal,
} from '../../../core/domain/clients/settings';
import { EVENT_BY_KEY } from '../../../core/domain/notifications/events';

// Issue 35: the rules of the client settings (core/domain/clients/settings.ts).
describe('a client user’s e-mail for an event', () => {
  const all = CLIENT_EMAIL_EVENTS.map((e) => e.id);

  it('is their own choice where they (or an admin for them) made one, whatever the agency’s default', () => {
    expect(clientEmailChoice('invoice.issued', 'off', all)).toBe('off');
    expect(clientEmailChoice('invoice.issued', 'now', [])).toBe('now');
    expect(clientEmailChoice('shift.filled', 'digest', [])).toBe('digest');
  });

  it('is the agency’s default otherwise: at once where it sends the event, none where it does not', () => {
    expect(clientEmailChoice('invoice.issued', undefined, all)).toBe('now');
    expect(clientEmailChoice('invoice.issued', undefined, ['shift.filled'])).toBe('off');
  });

  it('is at once for an event the client settings do not cover (the product’s default before them)', () => {
    expect(clientEmailChoice('shift.moved', undefined, [])).toBe('now');
  });

  it('covers events the notification catalogue knows, each one meant for client users', () => {
    for (const e of CLIENT_EMAIL_EVENTS) expect(EVENT_BY_KEY.get(e.id)?.recipients, e.id).toContain('client_users');
  });
});

describe('a client’s signing methods', () => {
  it('let a signature through where the client allows its way, or where nothing is set', () => {
    expect(signingRefusal(['panel', 'link', 'phone'], 'phone', 'Meadowbank')).toBeNull();
    expect(signingRefusal(null, 'link', 'Meadowbank')).toBeNull();
  });

  it('refuse one made another way, naming the ways the client signs', () => {
    expect(signingRefusal(['panel', 'link'], 'phone', 'Meadowbank')).toBe(
      'Meadowbank does not sign timesheets on the staff member’s phone: they sign in the client panel or by signing link.',
    );
    expect(signingRefusal(['link'], 'panel', 'Oakwood')).toBe(
      'Oakwood does not sign timesheets in the client panel: they sign by signing link.',
    );
  });

  it('need at least one way, or nobody could sign', () => {
    expect(signingMethodsProblem([])).toMatch(/^Choose at least one way/);
    expect(signingMethodsProblem(null)).toMatch(/^Choose at least one way/);
    expect(signingMethodsProblem(['panel'])).toBeNull();
  });
});
