import { useState } from 'react';
import { Button, useListContext, useNotify } from 'react-admin';
import DownloadIcon from '@mui/icons-material/GetApp';
import TableViewIcon from '@mui/icons-material/TableView';
import PrintIcon from '@mui/icons-material/Print';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { downloadFrom } from '../../providers/download';
import { listQuery } from '../../providers/dataProvider';

// The staff page saves files too, without react-admin: the two functions live beside the requests.
export { downloadFrom, saveFile } from '../../providers/download';

/**
 * The list as a file the server writes (GET /api/{resource}/export or /print) with the list's current filters,
 * search, tab and sort: the server reads the whole list page by page, so nothing is assembled here.
 */
function ListDownloadButton({
  label,
  path,
  filter,
  icon,
}: {
  label: string;
  path: (query: string) => string;
  filter?: Record<string, unknown>;
  icon: React.ReactElement;
}) {
  const { filterValues, sort, resource, total } = useListContext();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await downloadFrom(path(listQuery({ sort, filter: { ...filterValues, ...filter } })));
    } catch (e) {
      notify(e instanceof Error ? e.message : 'The file could not be made. Please try again.', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label={label} onClick={onClick} disabled={busy || total === 0} aria-busy={busy} data-resource={resource}>
      {icon}
    </Button>
  );
}

/** The list's Export: a CSV of every matching record. */
export const ExportListButton = ({ resource, filter }: { resource: string; filter?: Record<string, unknown> }) => (
  <ListDownloadButton
    label="ra.action.export"
    path={(q) => `/${resource}/export?${q}${q ? '&' : ''}format=csv`}
    filter={filter}
    icon={<DownloadIcon />}
  />
);

/** The same as an Excel workbook. */
export const ExcelListButton = ({ resource, filter }: { resource: string; filter?: Record<string, unknown> }) => (
  <ListDownloadButton
    label="Excel"
    path={(q) => `/${resource}/export?${q}${q ? '&' : ''}format=xlsx`}
    filter={filter}
    icon={<TableViewIcon />}
  />
);

/** A printable PDF of the list (the lists the server prints: GET /api/{resource}/print). */
export const PrintListButton = ({ resource, filter }: { resource: string; filter?: Record<string, unknown> }) => (
  <ListDownloadButton label="Print" path={(q) => `/${resource}/print?${q}`} filter={filter} icon={<PrintIcon />} />
);

/**
 * A record's declared documents (`documents`): a button for each, saving its PDF as the server draws it for the
 * signed-in user (or as it was kept when the record was issued). One document is the "PDF"; several (the agency's
 * designs) are named by their labels.
 */
export function DocumentButtons({
  decl,
  id,
}: {
  decl: Pick<ResourceDeclaration, 'name' | 'documents'>;
  id: number | string;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const documents = decl.documents ?? [];
  return (
    <>
      {documents.map((d, i) => (
        <Button
          key={d.template}
          label={documents.length === 1 ? 'PDF' : d.label}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              // The first is the one given when none is asked for.
              await downloadFrom(
                `/${decl.name}/${id}/pdf${i === 0 ? '' : `?template=${encodeURIComponent(d.template)}`}`,
              );
            } catch (e) {
              notify(e instanceof Error ? e.message : String(e), { type: 'error' });
            } finally {
              setBusy(false);
            }
          }}
        >
          <PictureAsPdfIcon />
        </Button>
      ))}
    </>
  );
}
