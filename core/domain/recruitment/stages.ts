// The recruitment pipeline's stages (issue 35): the product's six, which an agency renames and orders, and up to
// CUSTOM_STAGE_LIMIT of its own ("Reference check", "Trial shift"), kept in its recruitment settings. The application's
// lifecycle is fixed (core/resources/recruitment/resource.ts): its states are the six and the custom stages' slots
// `custom_1`…, and the `move` action takes an applicant to whichever slot the agency's list names.

export interface Stage {
  id: string;
  label: string;
}

/** The product's stages in their default order. Every agency has them all; it may rename and reorder them. */
export const BUILT_IN_STAGES: readonly Stage[] = [
  { id: 'applied', label: 'Applied' },
  { id: 'screening', label: 'Screening' },
  { id: 'interview', label: 'Interview' },
  { id: 'offer', label: 'Offer' },
  { id: 'hired', label: 'Hired' },
  { id: 'rejected', label: 'Rejected' },
];

/** How many stages of its own an agency may add: enough for a real pipeline, few enough to fit a board. */
export const CUSTOM_STAGE_LIMIT = 6;
/** The lifecycle's states an agency's own stages occupy, in slot order (not the agency's order). */
export const CUSTOM_STAGE_IDS: readonly string[] = Array.from(
  { length: CUSTOM_STAGE_LIMIT },
  (_, i) => `custom_${i + 1}`,
);
/** The stages that end an application: hire (the staff member is made) and reject. */
export const FINAL_STAGE_IDS = ['hired', 'rejected'] as const;
/** Every stage an application can be at before it ends: where a reject, or a move to an agency's stage, runs from. */
export const OPEN_STAGE_IDS: readonly string[] = [
  ...BUILT_IN_STAGES.map((s) => s.id).filter((id) => !(FINAL_STAGE_IDS as readonly string[]).includes(id)),
  ...CUSTOM_STAGE_IDS,
];
/** The longest label a stage may have (a board column's heading, a tab). */
export const STAGE_LABEL_MAX = 40;

export const isCustomStage = (id: string) => CUSTOM_STAGE_IDS.includes(id);

/** The agency's stages as saved, or the product's when it has saved none. */
export function stagesOf(saved: unknown): Stage[] {
  return Array.isArray(saved) && saved.length ? (saved as Stage[]) : BUILT_IN_STAGES.map((s) => ({ ...s }));
}

/** A stage's label in the agency's list, else the product's own (or the slot's id, for a slot no longer listed). */
export function stageLabel(stages: readonly Stage[], id: string): string {
  return stages.find((s) => s.id === id)?.label ?? BUILT_IN_STAGES.find((s) => s.id === id)?.label ?? id;
}

/** The first free slot for a new stage of the agency's own, or undefined when it has CUSTOM_STAGE_LIMIT already. */
export function nextCustomStageId(stages: readonly Stage[]): string | undefined {
  return CUSTOM_STAGE_IDS.find((id) => !stages.some((s) => s.id === id));
}

/**
 * What is wrong with a stage list an agency saves, in its words, or null. Every product stage is there once (hired
 * makes the staff member, rejected ends the application, the others have their own steps); applied comes first (every
 * application starts there) and hired then rejected last (they end it); the agency's own stages are its slots, each
 * once; every label is given, at most STAGE_LABEL_MAX characters, and no two are the same (ignoring case).
 */
export function stagesProblem(value: unknown): string | null {
  if (!Array.isArray(value) || value.length === 0) return 'List the stages of the pipeline';
  const list = value as unknown[];
  if (!list.every((s) => s && typeof s === 'object' && typeof (s as Stage).id === 'string'))
    return 'Each stage needs a name';
  const stages = list as Stage[];
  for (const s of stages) {
    const label = typeof s.label === 'string' ? s.label.trim() : '';
    if (!label) return 'Each stage needs a name';
    if (label.length > STAGE_LABEL_MAX)
      return `“${label}” is too long: a stage’s name has at most ${STAGE_LABEL_MAX} characters`;
    if (!BUILT_IN_STAGES.some((b) => b.id === s.id) && !isCustomStage(s.id))
      return `“${label}” is not a stage this product knows`;
  }
  const ids = stages.map((s) => s.id);
  if (new Set(ids).size !== ids.length) return 'A stage is listed twice';
  const missing = BUILT_IN_STAGES.find((b) => !ids.includes(b.id));
  if (missing) return `The ${missing.label} stage cannot be removed: every application needs it`;
  const labels = stages.map((s) => s.label.trim().toLowerCase());
  const twice = stages.find((s, i) => labels.indexOf(s.label.trim().toLowerCase()) !== i);
  if (twice) return `Two stages are called “${twice.label.trim()}”: give each its own name`;
  if (ids[0] !== 'applied') return `${stageLabel(stages, 'applied')} comes first: every application starts there`;
  if (ids[ids.length - 2] !== 'hired' || ids[ids.length - 1] !== 'rejected')
    return `${stageLabel(stages, 'hired')} and ${stageLabel(stages, 'rejected')} come last: they end an application`;
  return null;
}

/** The agency's stages that `after` no longer lists: the ones to check for applicants before they go. */
export function removedStages(before: readonly Stage[], after: readonly Stage[]): Stage[] {
  return before.filter((b) => !after.some((a) => a.id === b.id));
}

/** A stage's labels trimmed, as they are kept. */
export const tidyStages = (stages: readonly Stage[]): Stage[] =>
  stages.map((s) => ({ id: s.id, label: s.label.trim() }));
