import type { ResourceDeclaration } from '../../engine/types';
import { BUILT_IN_STAGES, stagesProblem } from '../../domain/recruitment/stages';

// The agency's recruitment settings (issue 35, /recruitment/settings): one row per agency, whose id is the agency's
// (migration 132), served by hand-written routes (server/routes/recruitmentSettings.ts) and written by the engine all
// the same: validated by this declaration, versioned and audited. No row: the defaults below.

/** How long an application that did not end in a hire is kept when the agency has said nothing. */
export const DEFAULT_RETENTION_MONTHS = 6;
/** The longest an agency may keep them: seven years, the longest any UK record-keeping rule asks of recruitment. */
export const MAX_RETENTION_MONTHS = 84;

export const recruitmentSettings: ResourceDeclaration = {
  name: 'recruitment_settings',
  table: 'recruitment_settings',
  label: { one: 'Recruitment settings', many: 'Recruitment settings' },
  recordRepresentation: 'Recruitment settings',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  served: false,
  // The agency's admins set them; its consultants read them (as the client and invoice settings).
  access: { admin: ['list', 'show', 'create', 'edit'], consultant: ['list', 'show'] },
  // The pipeline's stages in the agency's order (null: the product's); a stage still holding applicants is refused
  // removal by the behaviour (server/behaviours/recruitmentSettings.ts), which reads them.
  rules: (r): Record<string, string> => {
    if (r.stages === undefined || r.stages === null) return {};
    const problem = stagesProblem(r.stages);
    return problem ? { stages: problem } : {};
  },
  fields: [
    {
      source: 'retention_months',
      type: 'number',
      label: 'Keep applications that were not hired for (months)',
      integer: true,
      required: true,
      min: 1,
      max: MAX_RETENTION_MONTHS,
      defaultValue: DEFAULT_RETENTION_MONTHS,
      helperText:
        'Counted from the application’s last change. Then it is erased with its CV, every night. Hired applicants are kept.',
    },
    {
      source: 'stages',
      type: 'json',
      label: 'Pipeline stages',
      defaultValue: BUILT_IN_STAGES.map((s) => ({ ...s })),
    },
  ],
};
