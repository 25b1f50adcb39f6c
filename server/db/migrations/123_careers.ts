// Issue 35, the public job board: an agency's board is at /careers/{slug}, so an agency has a slug (lower-case
// letters, digits and single hyphens), unique across the installation; existing agencies get one from their name
// (a second agency of the same name takes its id after it). An application keeps its CV (a file of the file store).
export default /* sql */ `
alter table merchants add column slug text check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
update merchants m set slug = s.slug
  from (
    select id, case when row_number() over (partition by base order by id) = 1 then base else base || '-' || id end as slug
      from (
        select id, coalesce(nullif(trim(both '-' from regexp_replace(lower(company_name), '[^a-z0-9]+', '-', 'g')), ''), 'agency') as base
          from merchants
      ) b
  ) s
 where s.id = m.id;
create unique index merchants_slug on merchants (slug);
alter table job_applications add column cv text;
`;
