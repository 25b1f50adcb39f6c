import { hasView, nameFieldsOf, type ResourceDeclaration } from './types.js';
import { deletionOf } from './lifecycle.js';

/**
 * The fields a list screen asks its rows to carry (GET /api/{resource}?fields=…): its columns, shown or offered by
 * the column chooser (a file's with its file name); the fields of each row's name (its link, a phone's card); its
 * lifecycle state and, where deleted rows are listed, their mark (what the row's actions and state cell read); the
 * agency's own fields when the resource has them; and what its custom cells read besides (`listData`). The rest of
 * a record is read on its own page: a shift list then carries a third of each shift, and no staff records for a
 * column it hides.
 */
export function listFieldsOf(decl: ResourceDeclaration): string[] {
  const declared = new Set(decl.fields.map((f) => f.source));
  const deletion = deletionOf(decl);
  const columns = decl.fields.filter((f) => hasView(f, 'list'));
  return [
    ...new Set([
      ...columns.map((f) => f.source),
      // A file's link says the stored file's name.
      ...columns.flatMap((f) => (f.file?.nameField ? [f.file.nameField] : [])),
      ...nameFieldsOf(decl),
      ...(decl.lifecycle ? [decl.lifecycle.field] : []),
      ...(deletion.mode === 'soft' && deletion.listed && declared.has('deleted_at') ? ['deleted_at'] : []),
      ...(decl.customFields ? ['custom_fields'] : []),
      ...(decl.listData ?? []),
    ]),
  ];
}

/** The declaration as a tab lists it: the tab's own columns (`ListTab.columns`) applied to the list's. */
export function declForTab(decl: ResourceDeclaration, tabId: string | undefined): ResourceDeclaration {
  const columns = decl.tabs?.find((t) => t.id === tabId)?.columns;
  if (!columns) return decl;
  const hidden = new Set(columns.hidden);
  const shown = new Set(columns.shown);
  return {
    ...decl,
    fields: decl.fields.map((f) =>
      hidden.has(f.source) ? { ...f, listHidden: true } : shown.has(f.source) ? { ...f, listHidden: false } : f,
    ),
  };
}
