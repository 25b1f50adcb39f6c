// What a resource's screens may change of the generated views, one field or action at a time.
import type { ReactElement } from 'react';
import type { ResourceDeclaration } from '../../../core/engine/types';
import type { ResourcePaths } from './paths';

/** Single-field escape hatches: replace how one field is shown, typed or listed, keep the rest generated. */
export interface FieldOverride {
  field?: ReactElement;
  input?: ReactElement;
  column?: ReactElement;
}
export interface ViewOptions {
  decl: ResourceDeclaration;
  paths: ResourcePaths;
  fieldOverrides?: Record<string, FieldOverride>;
  /** Extra buttons next to the declared bulk actions and Bulk delete/export. */
  bulkActions?: ReactElement;
  /** Extra buttons in the show view's toolbar. */
  showActions?: ReactElement;
  /** Extra buttons in the list's toolbar (a link to a screen beside the list, say). */
  listActions?: ReactElement;
  /**
   * Buttons in a last column of each row of the list's table, in the row's record context (an earlier export's
   * "Download again", say). A phone's card is one link to the record, which holds no button: there the record's own
   * page (showActions) offers them.
   */
  rowActions?: ReactElement;
}
