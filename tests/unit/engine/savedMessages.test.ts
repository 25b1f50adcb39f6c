import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { declarations } from '../../../core/resources/declarations';

// Issue 14: toasts said react-admin's "Element created". Every save and delete names what it saved.
describe('saved and deleted messages', () => {
  it.each(declarations.map((d) => [d.name, d] as const))('%s: named in the catalogue react-admin reads', (name, d) => {
    expect(i18nProvider.translate(`resources.${name}.notifications.created`, { smart_count: 1 })).toBe(
      `${d.label.one} created`,
    );
    expect(i18nProvider.translate(`resources.${name}.notifications.updated`, { smart_count: 1 })).toBe(
      `${d.label.one} updated`,
    );
    expect(i18nProvider.translate(`resources.${name}.notifications.deleted`, { smart_count: 3 })).toBe(
      `3 ${d.label.many.toLowerCase()} deleted`,
    );
  });

  it('never says "Element", even for something outside the catalogue', () => {
    for (const done of ['created', 'updated', 'deleted']) {
      for (const n of [1, 2])
        expect(i18nProvider.translate(`ra.notification.${done}`, { smart_count: n })).not.toMatch(/element/i);
    }
  });
});
