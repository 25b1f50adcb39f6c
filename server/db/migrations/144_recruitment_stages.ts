// Issue 35, configurable pipeline stages: the agency's stages in its order, with its names (null: the product's six
// in theirs), kept in its recruitment settings; an application's stage may also be one of the slots of an agency's
// own stages (core/domain/recruitment/stages.ts, CUSTOM_STAGE_LIMIT of them).
export default /* sql */ `
alter table recruitment_settings add column stages jsonb;
alter table job_applications drop constraint job_applications_stage_check;
alter table job_applications add constraint job_applications_stage_check check (stage in (
  'applied', 'screening', 'interview', 'offer', 'hired', 'rejected',
  'custom_1', 'custom_2', 'custom_3', 'custom_4', 'custom_5', 'custom_6'
));
`;
