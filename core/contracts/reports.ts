/** A declared report's answer (GET /api/reports/{name}; declarations: core/resources/reports.ts). */
import Type, { type Static } from 'typebox';

export const ReportMeasureInfo = Type.Object({
  id: Type.String(),
  label: Type.String(),
  /** money: pence; hours: decimal hours; count; percent: a fraction (0.875), null when its denominator is 0. */
  format: Type.Union([Type.Literal('money'), Type.Literal('hours'), Type.Literal('count'), Type.Literal('percent')]),
});
export type ReportMeasureInfo = Static<typeof ReportMeasureInfo>;

export const ReportDimensionInfo = Type.Object({
  id: Type.String(),
  label: Type.String(),
  /** A date dimension's bucket: its rows are named by the bucket's first day, yyyy-MM-dd. */
  bucket: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')])),
});
export type ReportDimensionInfo = Static<typeof ReportDimensionInfo>;

/**
 * A column about the record a dimension names (the staff member's compliance today), on each row when grouped by it;
 * neither totalled nor sortable.
 */
export const ReportDetailInfo = Type.Object({
  id: Type.String(),
  label: Type.String(),
  /** text; choice: the value is a choice's id, named by `choices`; date: yyyy-MM-dd; hours: decimal hours; count. */
  format: Type.Union([
    Type.Literal('text'),
    Type.Literal('choice'),
    Type.Literal('date'),
    Type.Literal('hours'),
    Type.Literal('count'),
  ]),
  choices: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String() }))),
});
export type ReportDetailInfo = Static<typeof ReportDetailInfo>;

/** One group: each dimension's name (`<id>`, null for none) and a reference's id (`<id>_id`), and each measure. */
export const ReportRow = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]));
export type ReportRow = Static<typeof ReportRow>;

export const ReportAnswer = Type.Object({
  report: Type.String(),
  label: Type.String(),
  description: Type.String(),
  /** The period asked; absent for a report as of today (the aged debt). */
  period: Type.Optional(
    Type.Object({
      preset: Type.String(),
      from: Type.String(),
      to: Type.String(),
      /** What the period narrows ("Shifts starting"). */
      label: Type.String(),
    }),
  ),
  /** The agency's today: what a report without a period is as of, and what ages are counted from (yyyy-MM-dd). */
  as_of: Type.String(),
  /** The dimensions grouped by, in order. */
  group: Type.Array(ReportDimensionInfo),
  /** Every dimension the caller may group by, and the filters they may use. */
  dimensions: Type.Array(ReportDimensionInfo),
  filters: Type.Array(
    Type.Object({
      id: Type.String(),
      label: Type.String(),
      /** The resource whose record the filter's value names (its id), when it is a reference. */
      reference: Type.Optional(Type.String()),
      /** The choice of rows with no value (value `none`): "No business unit". */
      empty: Type.Optional(Type.String()),
    }),
  ),
  /** The measures the caller receives (pay and margin only for those who may read them). */
  measures: Type.Array(ReportMeasureInfo),
  /** The columns about each row's record the caller receives (absent when the report has none for this grouping). */
  details: Type.Optional(Type.Array(ReportDetailInfo)),
  data: Type.Array(ReportRow),
  /** Every measure over every matching row (not the page's), worked out in SQL. */
  totals: ReportRow,
  total_count: Type.Integer(),
  total_pages: Type.Integer(),
  current_page: Type.Integer(),
  per_page: Type.Integer(),
  sort: Type.String(),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
  chart: Type.Optional(
    Type.Object({
      dimension: Type.String(),
      measures: Type.Array(Type.String()),
      kind: Type.Union([Type.Literal('bar'), Type.Literal('line')]),
    }),
  ),
});
export type ReportAnswer = Static<typeof ReportAnswer>;
