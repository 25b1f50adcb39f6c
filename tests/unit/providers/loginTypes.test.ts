import { loginTypeOfStored, ROLE_LOGIN, storedLoginType, type LoginType } from '../../../core/engine/types';
import { getLoginType, homeOf } from '../../../src/providers/session';
import { permits } from '../../../core/resources/access';
import { declarationByName } from '../../../core/resources/declarations';

describe("login types: the code says agency, storage and the wire say the spec's admin", () => {
  it('turns each login type into its stored name and back', () => {
    const all: LoginType[] = ['agency', 'client', 'staff', 'link'];
    expect(all.map(storedLoginType)).toEqual(['admin', 'client', 'staff', 'link']);
    for (const t of all) expect(loginTypeOfStored(storedLoginType(t))).toBe(t);
  });

  it('reads nothing else as a login type: not the code name, not a role', () => {
    for (const s of ['agency', 'consultant', 'manager', '', 'Admin', null, undefined])
      expect(loginTypeOfStored(s), String(s)).toBeNull();
  });

  it("reads the spec's localStorage loginType as the panel it names", () => {
    localStorage.setItem('loginType', 'admin');
    expect(getLoginType()).toBe('agency');
    expect(homeOf(getLoginType())).toBe('/home');
    localStorage.setItem('loginType', 'client');
    expect(homeOf(getLoginType())).toBe('/client/clientDashboard');
    // A capability link never signs in to a panel, and the code's own name is not what the spec stores.
    for (const v of ['link', 'agency']) {
      localStorage.setItem('loginType', v);
      expect(getLoginType(), v).toBeNull();
    }
  });

  it('an agency role grants in the agency panel only, whatever word once named both', () => {
    const clients = declarationByName.get('clients')!;
    expect(ROLE_LOGIN.admin).toBe('agency');
    expect(permits({ loginType: 'agency', role: 'admin' }, clients, 'list')).toBe(true);
    expect(permits({ loginType: 'client', role: 'admin' }, clients, 'list')).toBe(false);
    // The stored name reaching the rules unread (an untyped row) is refused, never taken for the agency.
    expect(permits({ loginType: 'admin' as LoginType, role: 'admin' }, clients, 'list')).toBe(false);
  });
});
