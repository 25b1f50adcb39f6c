import { Box, Table, TableBody, TableCell, TableFooter, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { useTranslate } from 'react-admin';
import type {
  ReportDetailInfo,
  ReportDimensionInfo,
  ReportMeasureInfo,
  ReportRow,
} from '../../../core/contracts/reports';
import { bucketName, detailText, formatReportValue } from '../../../core/engine/reportFormat';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime';

/**
 * A report's groups as a table: the dimensions' names, then each measure (figures right-aligned), then the columns
 * about each row's record (`details`: sorted on the server too, not totalled), and the totals as the table's footer.
 * Sortable headers when `sort` is given. It scrolls sideways inside a named region the keyboard reaches, so a phone
 * keeps its page width.
 */
export function ReportTable({
  label,
  dimensions,
  measures,
  rows,
  totals,
  sort,
  details = [],
}: {
  label: string;
  dimensions: readonly ReportDimensionInfo[];
  measures: readonly ReportMeasureInfo[];
  details?: readonly ReportDetailInfo[];
  rows: readonly ReportRow[];
  totals?: ReportRow;
  sort?: { by: string; order: 'asc' | 'desc'; onSort: (by: string) => void };
}) {
  const translate = useTranslate();
  const header = (id: string, text: string, numeric: boolean) => (
    <TableCell
      key={id}
      align={numeric ? 'right' : 'left'}
      sortDirection={sort?.by === id ? sort.order : false}
      sx={{ fontWeight: 600, verticalAlign: 'bottom' }}
    >
      {sort ? (
        <TableSortLabel
          active={sort.by === id}
          direction={sort.by === id ? sort.order : 'asc'}
          onClick={() => sort.onSort(id)}
        >
          {text}
        </TableSortLabel>
      ) : (
        text
      )}
    </TableCell>
  );
  const name = (d: ReportDimensionInfo, r: ReportRow) =>
    r[d.id] === null || r[d.id] === undefined ? translate('app.report.none') : bucketName(d.bucket, String(r[d.id]));
  return (
    <Box role="region" aria-label={label} tabIndex={0} sx={{ overflowX: 'auto', maxWidth: '100%' }}>
      <Table size="small" aria-label={label} sx={{ '& .MuiTableCell-root': { px: 1 } }}>
        <TableHead>
          <TableRow>
            {dimensions.map((d) => header(d.id, d.label, false))}
            {measures.map((m) => header(m.id, m.label, true))}
            {details.map((d) => header(d.id, d.label, numericDetail(d)))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={dimensions.length + measures.length + details.length}>
                {translate('app.report.empty')}
              </TableCell>
            </TableRow>
          )}
          {rows.map((r, i) => (
            <TableRow key={dimensions.map((d) => String(r[`${d.id}_id`] ?? r[d.id])).join('|') || i}>
              {dimensions.map((d, j) =>
                j === 0 ? (
                  <TableCell key={d.id} component="th" scope="row">
                    {name(d, r)}
                  </TableCell>
                ) : (
                  <TableCell key={d.id}>{name(d, r)}</TableCell>
                ),
              )}
              {measures.map((m) => (
                <TableCell key={m.id} align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatReportValue(m.format, r[m.id])}
                </TableCell>
              ))}
              {details.map((d) => (
                <TableCell
                  key={d.id}
                  align={numericDetail(d) ? 'right' : 'left'}
                  sx={{ whiteSpace: d.format === 'text' ? undefined : 'nowrap' }}
                >
                  {detailShown(d, r[d.id])}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        {totals && (
          <TableFooter>
            <TableRow>
              <TableCell
                component="th"
                scope="row"
                colSpan={Math.max(1, dimensions.length)}
                sx={{ fontWeight: 600, color: 'text.primary' }}
              >
                {translate('app.report.total')}
              </TableCell>
              {measures.map((m) => (
                <TableCell
                  key={m.id}
                  align="right"
                  sx={{ fontWeight: 600, color: 'text.primary', whiteSpace: 'nowrap' }}
                >
                  {formatReportValue(m.format, totals[m.id])}
                </TableCell>
              ))}
              {details.map((d) => (
                <TableCell key={d.id} />
              ))}
            </TableRow>
          </TableFooter>
        )}
      </Table>
    </Box>
  );
}

const numericDetail = (d: ReportDetailInfo) => d.format === 'hours' || d.format === 'count';

/** A detail's value as the screen shows it: a choice by its name, a date as people read it, hours and counts. */
function detailShown(d: ReportDetailInfo, v: ReportRow[string]): string {
  const text = detailText(d, v);
  if (text === null) return '–';
  if (d.format === 'date') return formatDisplayDate(String(text));
  if (numericDetail(d)) return formatReportValue(d.format, text);
  return String(text);
}
