// Input hygiene (issue 13): the text already stored loses what the engine now refuses, so an old value never
// blocks a later write or action on its record. Hidden characters (controls other than CR, LF and TAB, format
// characters, the line and paragraph separators, U+FFFD and the non-characters) leave every text column; the
// zero-width joiner and tag characters stay (they join emoji). One-line fields as declared at this migration,
// and the parts of addresses, have their line breaks and tabs made spaces. Everything is brought to NFC.
// Generated columns (search_text) follow by themselves.

const HIDDEN = String.raw`[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u2028\u2029\ufeff\ufff9-\ufffb\ufffd\ufffe\uffff]`;

/** The declared one-line text, e-mail and phone columns when this migration was written. */
const ONE_LINE: Record<string, string[]> = {
  clients: ['name', 'code', 'contact_name', 'email', 'billing_email', 'phone', 'vat_number'],
  sites: ['name', 'business_unit', 'contact_name', 'contact_phone', 'contact_email'],
  candidates: ['first_name', 'last_name', 'email', 'phone', 'ni_number'],
  job_roles: ['name', 'code'],
  staff_statuses: ['name', 'colour'],
  employment_types: ['name'],
  staff_profiles: ['name'],
  document_categories: ['name'],
  staff_detail_fields: ['label', 'key', 'options'],
  candidate_documents: ['number'],
  holiday_overrides: ['name'],
  shift_templates: ['name', 'colour'],
  wage_floors: ['name'],
  diary_notes: ['title'],
  support_requests: ['subject'],
};
const ADDRESSES: Record<string, string[]> = { clients: ['address'], sites: ['address'], candidates: ['address'] };

const oneLine = Object.entries(ONE_LINE).flatMap(([table, cols]) =>
  cols.map(
    (col) =>
      `update ${table} set ${col} = btrim(regexp_replace(${col}, '[\\r\\n\\t]+', ' ', 'g')) where ${col} ~ '[\\r\\n\\t]';`,
  ),
);
const addresses = Object.entries(ADDRESSES).flatMap(([table, cols]) =>
  cols.map(
    (col) => `update ${table} set ${col} = (
    select jsonb_object_agg(k, case when jsonb_typeof(v) = 'string' then to_jsonb(btrim(regexp_replace(normalize(regexp_replace(v #>> '{}', hidden, '', 'g'), NFC), '[\\r\\n\\t]+', ' ', 'g'))) else v end)
      from jsonb_each(${col}) as e(k, v))
  where jsonb_typeof(${col}) = 'object' and ${col}::text <> (
    select jsonb_object_agg(k, case when jsonb_typeof(v) = 'string' then to_jsonb(btrim(regexp_replace(normalize(regexp_replace(v #>> '{}', hidden, '', 'g'), NFC), '[\\r\\n\\t]+', ' ', 'g'))) else v end)
      from jsonb_each(${col}) as e(k, v))::text;`,
  ),
);

export default /* sql */ `
do $$
declare
  hidden constant text := '${HIDDEN}';
  c record;
begin
  for c in
    select table_name, column_name from information_schema.columns
     where table_schema = current_schema() and data_type in ('text', 'character varying') and is_generated = 'NEVER'
       and table_name in (select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE')
  loop
    execute format('update %I set %I = normalize(regexp_replace(%I, $1, '''', ''g''), NFC) where %I ~ $1 or %I is not nfc normalized',
      c.table_name, c.column_name, c.column_name, c.column_name, c.column_name) using hidden;
  end loop;
  ${addresses.join('\n  ')}
end $$;
${oneLine.join('\n')}
`;
