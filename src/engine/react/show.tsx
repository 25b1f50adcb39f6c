// The generated show view: the fields, the record's actions and its history.
import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import {
  DeleteButton,
  EditButton,
  Show,
  SimpleShowLayout,
  TopToolbar,
  useTranslate,
  useRecordContext,
  useNotify,
} from 'react-admin';
import type { FieldOverride, ViewOptions } from './viewOptions';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { hasView } from '../../../core/engine/types';
import { customFieldAsDeclaration, getPath } from '../../../core/engine/validate';
import { FieldFor } from './fields';
import { useCustomFields } from './customFields';
import { RecordActions } from './actions';
import { DocumentButtons } from './download';
import { HistoryPanel } from './history';
import { deleteRefusal, deletionOf, lockedReason } from '../../../core/engine/lifecycle';
import { useLinesRefusal } from './lines';

export function ShowFields({
  decl,
  fieldOverrides,
}: {
  decl: ResourceDeclaration;
  fieldOverrides?: Record<string, FieldOverride>;
}) {
  const { defs } = useCustomFields(decl);
  const record = useRecordContext();
  // A field the record leaves empty is left out (issue 30.19: a shift's page listed some 20 empty ones); a "No" or
  // a 0 is a value and stays.
  const filled = (f: { source: string }) => !record || !isBlank(getPath(record, f.source));
  return (
    // Long values (an address, an e-mail) wrap within a phone's width.
    <SimpleShowLayout className="engine-show-fields" sx={{ overflowWrap: 'anywhere' }}>
      {/* SimpleShowLayout labels each child from its source and label props. */}
      {decl.fields
        .filter((f) => hasView(f, 'show') && filled(f))
        .map(
          (f) =>
            fieldOverrides?.[f.source]?.field ?? <FieldFor key={f.source} of={f} source={f.source} label={f.label} />,
        )}
      {defs
        .map(customFieldAsDeclaration)
        .filter(filled)
        .map((f) => (
          <FieldFor key={f.source} of={f} source={f.source} label={f.label} />
        ))}
    </SimpleShowLayout>
  );
}

const isBlank = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** The record's audit trail under its show view (shown to those who may list the audit trail). */
function RecordHistory({ decl }: { decl: ResourceDeclaration }) {
  const record = useRecordContext();
  if (!record || decl.audited === false) return null;
  return (
    <Box sx={{ px: 2, pb: 2 }}>
      <HistoryPanel target={{ resource: decl.name, id: record.id }} />
    </Box>
  );
}

/** The entity's name for messages, as the declaration (or its translation) says it: "Staff member", "Site". */
export function useEntityName(decl: ResourceDeclaration) {
  const translate = useTranslate();
  return translate(`resources.${decl.name}.name`, { smart_count: 1, _: decl.label.one });
}

/**
 * Says what was saved by its name: "Client created", "Staff member updated", "Site deleted". The words are the
 * catalogue's resources.<name>.notifications (engine/messages.ts), which react-admin's own buttons (a delete, a
 * bulk delete) read as well; an entity outside the catalogue still gets its name.
 */
export function useNamedNotice(decl: ResourceDeclaration) {
  const notify = useNotify();
  const name = useEntityName(decl);
  return (done: 'created' | 'updated') =>
    notify(`resources.${decl.name}.notifications.${done}`, {
      type: 'info',
      messageArgs: { smart_count: 1, _: `${name} ${done}` },
    });
}

/**
 * Edit and Delete, offered only when the record's lifecycle allows them: a locked record shows neither (its action
 * buttons say why), a record in a state that cannot be deleted no Delete. The server refuses the same writes.
 */
function WriteButtons({ decl, paths }: Pick<ViewOptions, 'decl' | 'paths'>) {
  const record = useRecordContext();
  // A line of a locked document is neither edited nor deleted (the server's rule, read from its document).
  const lineLock = useLinesRefusal(decl, record);
  if (!record) return null;
  return (
    <>
      {!lockedReason(decl, record) && !lineLock && <EditButton />}
      {/* A delete that asks its reason is a declared action (RecordActions draws its button): one Delete. */}
      {!deletionOf(decl).reason && !deleteRefusal(decl, record) && !lineLock && (
        <DeleteButton mutationMode="pessimistic" redirect={paths.list} />
      )}
    </>
  );
}

/** The record's declared documents (a PDF for each), for whoever may show it. */
function RecordDocuments({ decl }: Pick<ViewOptions, 'decl'>) {
  const record = useRecordContext();
  return record && decl.documents?.length ? <DocumentButtons decl={decl} id={record.id} /> : null;
}

export function EngineShow({
  decl,
  paths,
  fieldOverrides,
  showActions,
  children,
}: ViewOptions & {
  /** More of the record under its fields, above its history (a shift's staff requests). */
  children?: ReactNode;
}) {
  return (
    <Show
      resource={decl.name}
      actions={
        <TopToolbar>
          <RecordActions decl={decl} />
          {showActions}
          <RecordDocuments decl={decl} />
          <WriteButtons decl={decl} paths={paths} />
        </TopToolbar>
      }
    >
      <ShowFields decl={decl} fieldOverrides={fieldOverrides} />
      {children}
      <RecordHistory decl={decl} />
    </Show>
  );
}
