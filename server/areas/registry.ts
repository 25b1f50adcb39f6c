import type { ResourceBehaviour } from '../engine/context.js';
import type { JobKind } from '../jobs/queue.js';
import type { PeriodicJob } from '../jobs/periodic.js';
import type { SecretLink } from '../notifications/outbox.js';
import type { ServerArea } from './area.js';

/** What the areas add to the engine, gathered once from their list: each name from exactly one area. */
export interface Registry {
  areas: readonly ServerArea[];
  behaviours: Record<string, ResourceBehaviour>;
  jobKinds: ReadonlyMap<string, JobKind>;
  links: ReadonlyMap<string, SecretLink>;
  periodic: PeriodicJob[];
}

/**
 * The registry of a list of areas. Two areas naming the same declaration, behaviour, job kind, link or periodic job
 * is a mistake of the list, refused at start with both areas named (the later would silently replace the earlier).
 * A behaviour is its own area's: of a declaration the area lists.
 */
export function registryOf(areas: readonly ServerArea[]): Registry {
  const owners = new Map<string, string>();
  const claim = (what: string, name: string, area: ServerArea) => {
    const key = `${what} ${name}`;
    const earlier = owners.get(key);
    if (earlier) throw new Error(`The ${key} is listed by two areas: ${earlier} and ${area.name}.`);
    owners.set(key, area.name);
  };
  const behaviours: Record<string, ResourceBehaviour> = {};
  const jobKinds = new Map<string, JobKind>();
  const links = new Map<string, SecretLink>();
  const periodic: PeriodicJob[] = [];
  for (const area of areas) {
    const own = new Set(area.declarations.map((d) => d.name));
    for (const name of own) claim('declaration', name, area);
    for (const [name, b] of Object.entries(area.behaviours ?? {})) {
      if (!own.has(name)) throw new Error(`The ${area.name} area has a behaviour for ${name}, which it does not list.`);
      behaviours[name] = b;
    }
    for (const k of area.jobKinds ?? []) {
      claim('job kind', k.kind, area);
      jobKinds.set(k.kind, k);
    }
    for (const [kind, link] of Object.entries(area.links ?? {})) {
      claim('link kind', kind, area);
      links.set(kind, link);
    }
    for (const job of area.jobs ?? []) {
      claim('periodic job', job.name, area);
      periodic.push(job);
    }
  }
  return { areas, behaviours, jobKinds, links, periodic };
}
