import type { ComponentType, ReactElement, ReactNode } from 'react';
import { Navigate, Route, useParams, useLocation } from 'react-router';
import { Resource, ResourceContextProvider } from 'react-admin';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { pathsOf, type ResourcePaths } from './paths';
import { EngineCreate, EngineEdit } from './form';
import { EngineList } from './list';
import { EngineShow } from './show';
import { type FieldOverride, type ViewOptions } from './viewOptions';

export interface ResourceOverrides {
  /** Replace a whole view; it receives the same options as the generated one. */
  list?: ComponentType<ViewOptions & { tabId?: string }>;
  show?: ComponentType<ViewOptions>;
  edit?: ComponentType<ViewOptions>;
  create?: ComponentType<ViewOptions>;
  /** Replace one field's display, input or list column. */
  fields?: Record<string, FieldOverride>;
  bulkActions?: ReactElement;
  showActions?: ReactElement;
  listActions?: ReactElement;
  /** Buttons on each row of the list's table (ViewOptions.rowActions). */
  rowActions?: ReactElement;
  /** Frames every screen of the resource (the settings area's sub-navigation, say). */
  wrapper?: ComponentType<{ children: ReactNode }>;
  /** More screens of the resource at their own routes (a profile with tabs, say). */
  extraRoutes?: (options: ViewOptions) => ReactElement[];
  icon?: ComponentType;
}

export interface BuiltResource {
  name: string;
  paths: ResourcePaths;
  /** The react-admin <Resource>: registers the resource; its own paths lead to the canonical screens. */
  resource: ReactElement;
  /** The screens at their canonical routes, for <CustomRoutes>. */
  routes: ReactElement[];
}

// react-admin's own links (/clients/12/show) lead to the same screen at its canonical address.
function RedirectTo({ to }: { to: (id?: string) => string }) {
  const { id } = useParams();
  const { search } = useLocation();
  return <Navigate to={to(id) + search} replace />;
}

/** Everything the app needs for one entity, from its declaration and optional overrides. */
export function buildResource(decl: ResourceDeclaration, overrides: ResourceOverrides = {}): BuiltResource {
  const paths = pathsOf(decl);
  const options: ViewOptions = {
    decl,
    paths,
    fieldOverrides: overrides.fields,
    bulkActions: overrides.bulkActions,
    showActions: overrides.showActions,
    listActions: overrides.listActions,
    rowActions: overrides.rowActions,
  };
  const Wrapper = overrides.wrapper ?? (({ children }: { children: ReactNode }) => <>{children}</>);
  const ListView = overrides.list ?? EngineList;
  const ShowView = overrides.show ?? EngineShow;
  const EditView = overrides.edit ?? EngineEdit;
  const CreateView = overrides.create ?? EngineCreate;
  const screen = (key: string, path: string, element: ReactElement) => (
    <Route
      key={key}
      path={path}
      element={
        <ResourceContextProvider value={decl.name}>
          <Wrapper>{element}</Wrapper>
        </ResourceContextProvider>
      }
    />
  );
  // A view whose canonical address is react-admin's own path is served by the <Resource> itself.
  const own = {
    list: `/${decl.name}`,
    create: `/${decl.name}/create`,
    show: `/${decl.name}/:id/show`,
    edit: `/${decl.name}/:id`,
  };
  const isOwn = (view: keyof typeof own) => paths.patterns[view] === own[view];
  const views = {
    list: <ListView {...options} />,
    create: <CreateView {...options} />,
    show: <ShowView {...options} />,
    edit: <EditView {...options} />,
  };
  const routes = [
    ...(['list', 'create', 'show', 'edit'] as const)
      .filter((v) => !isOwn(v))
      .map((v) => screen(v, paths.patterns[v], views[v])),
    ...(decl.tabs ?? []).map((t) => screen(`tab-${t.id}`, paths.tab(t.id), <ListView {...options} tabId={t.id} />)),
    ...(overrides.extraRoutes?.(options) ?? []).map((r) => {
      const { path, element } = r.props as { path: string; element: ReactElement };
      return screen(`extra-${path}`, path, element);
    }),
  ];
  const representation = (record: any) =>
    decl.recordRepresentation.replace(/%\{(\w+)\}/g, (_, k) => (record?.[k] ?? '') as string).trim();
  const viewOrRedirect = (v: keyof typeof own, to: (id?: string) => string) =>
    isOwn(v) ? <Wrapper>{views[v]}</Wrapper> : <RedirectTo to={to} />;
  const resource = (
    <Resource
      key={decl.name}
      name={decl.name}
      icon={overrides.icon}
      recordRepresentation={representation}
      list={viewOrRedirect('list', () => paths.list)}
      create={viewOrRedirect('create', () => paths.create)}
      show={viewOrRedirect('show', (id) => paths.show(id!))}
      edit={viewOrRedirect('edit', (id) => paths.edit(id!))}
    />
  );
  return { name: decl.name, paths, resource, routes };
}
