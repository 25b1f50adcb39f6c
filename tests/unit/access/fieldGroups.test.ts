import { describe, expect, it } from 'vitest';
import { missingFieldGroups, missingGroupsWarning } from '../../../core/resources/access';
import { rateCards } from '../../../core/resources/rates/resource';
import type { Principal } from '../../../core/engine/types';

// A form's fields of guarded groups the signed-in role is not granted (issue 35): the rate card's pay rates need
// "Pay rates", its charge rates "Charge rates, margins"; the form warns before a save the server would refuse.
const custom = (...privileges: string[]): Principal => ({ loginType: 'agency', role: 'custom', privileges });
const formFields = rateCards.fields.filter((f) => !f.readOnly && !f.computed);

describe('missingFieldGroups', () => {
  const cases: [string, Principal, string[]][] = [
    ['an admin', { loginType: 'agency', role: 'admin' }, []],
    ['a consultant', { loginType: 'agency', role: 'consultant' }, []],
    ['a custom role with both groups', custom('fields.pay_rates', 'fields.margins', 'rate_cards.create'), []],
    ['a custom role without pay rates', custom('fields.margins', 'rate_cards.create'), ['pay_rates']],
    ['a custom role without either', custom('rate_cards.create'), ['pay_rates', 'margins']],
  ];
  it.each(cases)('%s', (_, principal, groups) => {
    expect(missingFieldGroups(principal, formFields).sort()).toEqual(groups.sort());
  });

  it('says which to ask for, in words; nothing when none is missing', () => {
    expect(missingGroupsWarning([])).toBeNull();
    expect(missingGroupsWarning(['pay_rates'])).toBe(
      'Your role is not granted “Pay rates and pay”, which this form needs: saving it will be refused. ' +
        'Ask an admin to grant it to your role (Settings → Privileges).',
    );
    expect(missingGroupsWarning(['pay_rates', 'margins'])).toMatch(/“Pay rates and pay” and “Charge rates.*grant them/);
  });
});
