import { useCanAccess, useGetOne, type RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { declarations } from '../../../core/resources/declarations';
import { linesRefusal } from '../../../core/engine/lifecycle';

/** Said while a line's document is still being read: its buttons wait for the rule rather than flash. */
const READING = 'Reading its document…';

/**
 * Why a line of a document (a declaration with `parent.lines`) cannot be edited or deleted (no `action`), or take
 * `action`, in its document's present state: the server's rule (linesRefusal), in its words, read from the document
 * (react-admin's cache already holds it on the document's page). Null for any other record, and for a reader who
 * may not read the document (a staff member's phone: the server still refuses in the same words).
 */
export function useLinesRefusal(decl: ResourceDeclaration, record: RaRecord | undefined, action?: string) {
  const parent = decl.parent?.lines ? decl.parent : undefined;
  const parentDecl = parent && declarations.find((d) => d.name === parent.resource);
  const id = parent && record ? record[parent.field] : undefined;
  // Asked only for a document's lines: asked for every record, a second access query for the shown record's own
  // resource left generated show pages reached inside the app on react-admin's loading screen.
  const { canAccess } = useCanAccess({
    resource: parent?.resource ?? decl.name,
    action: 'show',
    enabled: !!parentDecl,
  });
  const reads = !!parentDecl && id != null && !!canAccess;
  const { data } = useGetOne(parent?.resource ?? decl.name, { id }, { enabled: reads });
  if (!reads) return null;
  return data ? linesRefusal(decl, parentDecl, data, action) : READING;
}
