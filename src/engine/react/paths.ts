import type { Identifier } from 'react-admin';
import type { ResourceDeclaration } from '../../../core/engine/types';

export interface ResourcePaths {
  list: string;
  create: string;
  show: (id: Identifier) => string;
  edit: (id: Identifier) => string;
  tab: (tabId: string) => string;
  /** The route patterns, with :id, for the router. */
  patterns: { list: string; create: string; show: string; edit: string };
}

/** The screens' addresses: the spec's routes where the declaration names them, react-admin's own otherwise. */
export function pathsOf(decl: ResourceDeclaration): ResourcePaths {
  const patterns = {
    list: decl.routes?.list ?? `/${decl.name}`,
    create: decl.routes?.create ?? `/${decl.name}/create`,
    show: decl.routes?.show ?? `/${decl.name}/:id/show`,
    edit: decl.routes?.edit ?? `/${decl.name}/:id`,
  };
  const fill = (p: string) => (id: Identifier) => p.replace(':id', encodeURIComponent(String(id)));
  return {
    ...patterns,
    patterns,
    show: fill(patterns.show),
    edit: fill(patterns.edit),
    tab: (tabId) => decl.tabs?.find((t) => t.id === tabId)?.path ?? `${patterns.list}/${tabId}`,
  };
}
