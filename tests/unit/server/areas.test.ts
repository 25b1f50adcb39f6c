// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { areas } from '../../../server/areas/index';
import { registryOf } from '../../../server/areas/registry';
import type { ServerArea } from '../../../server/areas/area';
import { timesheetGeneration, SIGNING_LINK } from '../../../server/services/timesheets';
import { STAFF_INVITE_LINK } from '../../../server/auth/staffInvites';
import { USER_INVITE_LINK } from '../../../server/auth/userInvites';
import { declarations } from '../../../core/resources/declarations';

// Each area registered once and completely (issue 31.9): the list in server/areas/index.ts names every declaration,
// behaviour, job kind, link and periodic job, each once, and nothing registers itself when its module is imported.
const registry = registryOf(areas);

describe('the areas of the server', () => {
  it('list every declared entity, each by exactly one area', () => {
    const listed = areas.flatMap((a) => a.declarations.map((d) => d.name));
    expect([...listed].sort()).toEqual(declarations.map((d) => d.name).sort());
  });

  it('list the job kinds, the single-use links and the periodic jobs the product runs', () => {
    expect(registry.jobKinds.get('timesheet-generation')).toBe(timesheetGeneration);
    expect([...registry.links.keys()].sort()).toEqual([SIGNING_LINK, STAFF_INVITE_LINK, USER_INVITE_LINK].sort());
    expect(registry.periodic.map((j) => j.name).sort()).toEqual([
      'diary-reminders',
      'document-reminders',
      'invoice-reminders',
      'notification-counts',
      'notification-digest',
      'recruitment-retention',
      'shift-days',
      'timesheet-reminders',
    ]);
  });

  it('refuse a name listed by two areas, naming both', () => {
    const step = async () => ({ state: {}, done: 1, finished: true });
    const a: ServerArea = { name: 'a', declarations: [], jobKinds: [{ kind: 'print', step }] };
    const b: ServerArea = { name: 'b', declarations: [], jobKinds: [{ kind: 'print', step }] };
    expect(() => registryOf([a, b])).toThrow('The job kind print is listed by two areas: a and b.');
    const shifts = areas.find((x) => x.name === 'shifts')!;
    expect(() => registryOf([shifts, { ...shifts, name: 'rota' }])).toThrow(
      'The declaration shifts is listed by two areas: shifts and rota.',
    );
  });

  it("refuse a behaviour of a declaration the area does not list (another area's)", () => {
    const shifts = areas.find((x) => x.name === 'shifts')!;
    const clients = areas.find((x) => x.name === 'clients')!;
    expect(() => registryOf([{ ...clients, behaviours: { ...clients.behaviours, ...shifts.behaviours } }])).toThrow(
      'The clients area has a behaviour for shifts, which it does not list.',
    );
  });
});

/**
 * Every server module's statements at its top level that call something, and constants made by a register… or
 * define… call: what importing the module would register.
 */
function topLevelCalls(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const file = relative(join(dir, '..'), path);
    // The entry points run the product (the XLSX writer's is a worker thread's); migrations are run by the migrator,
    // one at a time.
    if (
      ['server/index.ts', 'server/cli.ts', 'server/exports/xlsxWorker.ts'].includes(file) ||
      file.startsWith('server/db/migrations/')
    )
      continue;
    for (const line of readFileSync(path, 'utf8').split('\n'))
      if (
        /^(await\s+)?[A-Za-z_$][\w$.]*(<[^>]*>)?\(|^(export\s+)?const\s+\w+[^=]*=\s*(register|define)\w*(<.*>)?\(/.test(
          line,
        )
      )
        found.push(`${file}: ${line}`);
  }
  return found;
}

describe('importing a server module', () => {
  it('registers nothing: no module but the entry points calls anything at its top level', () => {
    expect(topLevelCalls(join(__dirname, '../../../server'))).toEqual([
      // Not a registration of the product's: core's bank-holiday rules are handed the library the server loads.
      "server/services/holidays.ts: provideHolidayLibrary(() => createRequire(import.meta.url)('date-holidays') as typeof Holidays);",
    ]);
  });
});
