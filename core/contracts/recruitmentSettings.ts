/** The agency's recruitment settings (server/routes/recruitmentSettings.ts, issue 35). */
import Type, { type Static } from 'typebox';

export const RecruitmentSettings = Type.Object({
  /** Months an application that did not end in a hire is kept after its last change (1–84). */
  retention_months: Type.Integer(),
  /** The pipeline's stages in the agency's order, with its names (the product's six when it saved none). */
  stages: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
  /** What a save sends back, to be refused if someone saved in between (0: nothing saved yet). */
  version: Type.Integer(),
});
export type RecruitmentSettings = Static<typeof RecruitmentSettings>;
export const RecruitmentSettingsAnswer = Type.Object({
  data: RecruitmentSettings,
  message: Type.Optional(Type.String()),
});
