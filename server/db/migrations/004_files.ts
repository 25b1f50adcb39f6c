// The file store: uploads live in PostgreSQL (the same on PGlite and a server, written in the record's
// transaction, included in every backup). Logos and photos that were kept as data URLs move into it here.

// The type is decided by the first bytes, as for new uploads (core/engine/files.ts sniffMime). A kept file of
// another type (an SVG or GIF logo from before) keeps its bytes and the type it declared, and is only ever served
// as a download (server/files/routes.ts), never shown in place.
const sniffedMime = (bytes: string, declared: string) => `case
    when substring(${bytes} from 1 for 5) = '\\x255044462d'::bytea then 'application/pdf'
    when substring(${bytes} from 1 for 8) = '\\x89504e470d0a1a0a'::bytea then 'image/png'
    when substring(${bytes} from 1 for 3) = '\\xffd8ff'::bytea then 'image/jpeg'
    when substring(${bytes} from 1 for 4) = '\\x52494646'::bytea and substring(${bytes} from 9 for 4) = '\\x57454250'::bytea then 'image/webp'
    when ${declared} in ('image/svg+xml', 'image/gif') then ${declared}
    else 'application/octet-stream'
  end`;

const extension = (mime: string) => `case ${mime}
    when 'application/pdf' then '.pdf' when 'image/png' then '.png' when 'image/jpeg' then '.jpg'
    when 'image/webp' then '.webp' when 'image/svg+xml' then '.svg' when 'image/gif' then '.gif' else '' end`;

// Only well-formed, non-empty base64 is decoded; anything else that starts with 'data:' is kept as its own text,
// so a broken value cannot stop the migration (and a server start) and nothing is lost.
const BASE64_DATA_URL = `'^data:[a-z]+/[a-z0-9.+-]+;base64,([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$'`;

/** Moves every data URL of table.column into files, owned by its row, and puts the file's id in its place. */
function moveDataUrls(table: string, column: string, merchantColumn: string): string {
  return `
with found as materialized (
  select id as owner_id, ${merchantColumn} as merchant_id, gen_random_uuid() as file_id,
         substring(${column} from '^data:([a-z]+/[a-z0-9.+-]+)') as declared,
         case when ${column} ~ ${BASE64_DATA_URL} and ${column} !~ ',$' then decode(substring(${column} from ',(.*)$'), 'base64')
              else convert_to(${column}, 'UTF8') end as bytes
    from ${table}
   where ${column} like 'data:%'
), typed as materialized (
  select found.*, ${sniffedMime('bytes', 'declared')} as mime from found
), moved as (
  insert into files (id, merchant_id, name, mime, size, sha256, data, owner_resource, owner_id, owner_field)
  select file_id, merchant_id, '${column}' || ${extension('mime')}, mime, octet_length(bytes), encode(sha256(bytes), 'hex'), bytes,
         '${table}', owner_id, '${column}'
    from typed
  returning id, owner_id
)
update ${table} t set ${column} = moved.id::text from moved where t.id = moved.owner_id;

-- A protocol-relative URL ('//host/pixel.png') made the browser fetch from another site; it is no file of ours.
update ${table} set ${column} = null where ${column} like '//%';
`;
}

export default /* sql */ `
create table files (
  id uuid primary key default gen_random_uuid(),
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  mime text not null,
  size integer not null check (size > 0),
  sha256 text not null,
  data bytea not null,
  -- The record the file belongs to; none while an upload waits for its form to be saved.
  owner_resource text,
  owner_id integer,
  owner_field text,
  uploaded_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  check ((owner_resource is null) = (owner_id is null))
);
create index files_owner on files (merchant_id, owner_resource, owner_id);
-- Unattached uploads are swept after a day (server/files/store.ts).
create index files_unattached on files (created_at) where owner_id is null;
${moveDataUrls('clients', 'logo', 'merchant_id')}
${moveDataUrls('candidates', 'profile_photo', 'merchant_id')}
${moveDataUrls('merchants', 'profile_photo', 'id')}
`;
