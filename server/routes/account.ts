import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.js';
import { badInput, HttpError, notFound } from '../http.js';
import { hashPassword, PASSWORD_MIN, verifyPassword } from '../auth/passwords.js';
import { checkFileRefs, readFile } from '../files/store.js';
import { FILE_LIMIT_LABELS, FILE_LIMITS, isFileId, isImageMime, isShippedPath } from '../../core/engine/files.js';
import type { EngineContext } from '../engine/context.js';
import { rolesOf } from '../../core/resources/access.js';
import { route } from './route.js';
import { nameText, oneLineText } from '../engine/input.js';
import { AGENCY_LOGO_SQL } from '../documents/letterhead.js';
import { AGENCY_NAME } from '../../core/domain/agency/names.js';
import { ensureAgencySettings } from './agencySettings.js';
import {
  AgencyAnswer,
  AgencyChange,
  MerchantParams,
  NameChange,
  NameSaved,
  PasswordChange,
  PasswordChanged,
  type AgencyProfile,
} from '../../core/contracts/account.js';

/** The agency's name: 2 to 120 characters once trimmed. */
export { AGENCY_NAME };
/** A save of the agency's profile made from an older version than the stored one. */
export const AGENCY_STALE =
  "The agency's details were changed by someone else while you were editing them. Reload the page to see their changes, then make yours again.";
/** A user's own name: 1 to 120 characters once trimmed. */
export const USER_NAME_MAX = 120;

export type { AgencyProfile };

/** The agency's profile as GET /api/merchants/{id} answers it (its logo as AGENCY_LOGO_SQL), or null. */
export async function agencyProfile(db: Queryable, merchantId: number): Promise<AgencyProfile | null> {
  const [row] = await db.query<AgencyProfile>(
    `select m.id, m.company_name, ${AGENCY_LOGO_SQL} as profile_photo, m.email, m.phone, m.time_zone, m.version from merchants m where m.id = $1`,
    [merchantId],
  );
  return row ?? null;
}

/**
 * The agency's logos for agency_logo_list: the other types as stored, and 'agency_logo' from the one place it lives.
 */
export async function agencyLogos(
  db: Queryable,
  merchantId: number,
): Promise<{ id: number; logo_type: string; logo_url: string }[]> {
  return db.query(
    `select id, logo_type, logo_url from (
       select l.id, l.logo_type, l.logo_url from agency_logos l
        where l.merchant_id = $1 and l.logo_type not in ('agency_logo', 'favicon')
       union all
       -- The favicon is the agency settings' (issue 35): the browser tab of every user signed in to the agency.
       select s.merchant_id, 'favicon', s.favicon from agency_settings s where s.merchant_id = $1 and s.favicon is not null
       union all
       -- The agency's own id stands for the entry's: it is one per agency.
       select m.id, 'agency_logo', ${AGENCY_LOGO_SQL} from merchants m where m.id = $1 and ${AGENCY_LOGO_SQL} is not null
     ) logos order by logo_type = 'agency_logo' desc, id`,
    [merchantId],
  );
}

/** The caller's own agency, named by the route's `:id` (as sent): any other agency is not found. */
export async function ownAgency(req: FastifyRequest, ctx: EngineContext): Promise<AgencyProfile> {
  const id = String((req.params as { id?: unknown }).id);
  const data = id === String(ctx.principal.merchantId) ? await agencyProfile(ctx.db, ctx.principal.merchantId) : null;
  if (!data) throw notFound('Agency');
  return data;
}

/**
 * A name as stored (trimmed, NFC); its error in words when it holds line breaks or hidden characters, or shows no
 * letter or digit.
 */
const trimmed = (v: unknown) => oneLineText(v).text ?? '';
const textErrorOf = (v: unknown) => (v === undefined ? undefined : nameText(v).error);

/** Changing the agency's name and logo (its admins), and one's own name and password (every user). */
export async function accountRoutes(app: FastifyInstance) {
  // Another agency does not exist for the caller (404); within their own, only its admins change it.
  route(app, {
    method: 'PUT',
    url: '/api/merchants/:id',
    roles: ['admin'],
    record: ownAgency,
    schema: {
      tags: ['agency'],
      summary: "Change the agency's name and logo (its admins)",
      description:
        'profile_photo: the id of an image uploaded with POST /api/files?kind=image (or a path the product ships), or null to remove the logo. Fields left out stay as they are.',
      params: MerchantParams,
      body: AgencyChange,
      response: { 200: AgencyAnswer },
    },
    handler: async ({ req, record: before, transaction }) => {
      const u = req.auth!;
      const body = req.body ?? {};
      const errors: Record<string, string> = {};
      const name = body.company_name === undefined ? undefined : trimmed(body.company_name);
      const nameError = typeof body.company_name === 'string' ? textErrorOf(body.company_name) : undefined;
      if (nameError) errors.company_name = nameError;
      else if (name !== undefined && name.length < AGENCY_NAME.min)
        errors.company_name = `Enter the agency's name (at least ${AGENCY_NAME.min} characters).`;
      else if (name !== undefined && name.length > AGENCY_NAME.max)
        errors.company_name = `At most ${AGENCY_NAME.max} characters.`;

      const owner = { resource: 'agency_settings', id: u.merchant_id };
      // Sending back the logo shown now changes nothing (it may be a path the product ships).
      const photo =
        body.profile_photo === undefined || body.profile_photo === before.profile_photo
          ? undefined
          : body.profile_photo;
      // A path the product ships ('/demo/agency-logo.svg') is accepted as every image field of the engine accepts
      // it (checkFileRefs): it puts the demo's logo back. Anything else must be an image uploaded to the store.
      if (typeof photo === 'string' && !isShippedPath(photo)) {
        const file = isFileId(photo) ? await readFile(app.db, u.merchant_id, photo) : null;
        if (!file) errors.profile_photo = 'Upload the logo as an image first.';
        else if (!isImageMime(file.mime)) errors.profile_photo = 'The logo must be a PNG, JPEG or WebP image.';
        else if (Number(file.size) > FILE_LIMITS.image)
          errors.profile_photo = `The logo must be at most ${FILE_LIMIT_LABELS.image}.`;
        else if ((await checkFileRefs(app.db, u.merchant_id, u.id, [photo], owner)).length)
          errors.profile_photo = 'This image cannot be used: upload it again.';
      }
      if (Object.keys(errors).length) throw badInput(errors);

      await transaction(async (ctx) => {
        const [locked] = await ctx.db.query<{ version: number }>(
          'select version from merchants where id = $1 for update',
          [u.merchant_id],
        );
        // Saved from a stale screen: another admin's change would be undone without their knowing.
        if (body.version !== undefined && body.version !== locked.version) throw new HttpError(409, AGENCY_STALE);
        const changes: Record<string, unknown> = {};
        if (name !== undefined) changes.company_name = name;
        if (photo !== undefined) changes.profile_photo = photo;
        if (!Object.keys(changes).length) return;
        // Written as the agency settings are (issue 35): the engine validates, attaches the logo to the agency's
        // settings, versions and audits them, and copies the name and logo to merchants (server/behaviours/
        // agencySettings.ts). The agency's settings are the one place they are changed.
        await ensureAgencySettings(ctx.db, u.merchant_id, ctx.principal);
        try {
          await ctx.engine.update('agency_settings', u.merchant_id, changes);
        } catch (e) {
          if (!(e instanceof HttpError) || e.status !== 422 || !e.errors) throw e;
          // A refusal of a field this screen does not show (a VAT number kept from before) is named in words.
          const shown = Object.fromEntries(Object.entries(e.errors).filter(([k]) => k in changes));
          if (shown.profile_photo) shown.profile_photo = 'This image cannot be used: upload it again.';
          throw badInput(
            Object.keys(shown).length
              ? shown
              : { _: 'The agency settings need attention first (Settings → Agency settings).' },
          );
        }
      });
      return { data: (await agencyProfile(app.db, u.merchant_id))! };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/me',
    roles: rolesOf('agency', 'client'),
    schema: {
      tags: ['auth'],
      summary: 'Change your own name',
      body: NameChange,
      response: { 200: NameSaved },
    },
    handler: async ({ req, transaction }) => {
      const u = req.auth!;
      const name = req.body?.name === undefined ? undefined : trimmed(req.body.name);
      const nameError = textErrorOf(req.body?.name);
      if (nameError) throw badInput({ name: nameError });
      if (name !== undefined && name.length === 0) throw badInput({ name: 'Enter your name.' });
      if (name !== undefined && name.length > USER_NAME_MAX)
        throw badInput({ name: `At most ${USER_NAME_MAX} characters.` });
      const user = await transaction(async (ctx) => {
        const tx = ctx.db;
        const [before] = await tx.query<{ name: string }>('select name from users where id = $1 for update', [u.id]);
        if (name !== undefined && name !== before.name) {
          // The user's own account, written by the engine as themself (version, audit entry with the old name).
          await ctx.engine.update('users', u.id, { name });
          // Signed-in sessions carry the name (who am I, the audit trail): every process forgets its cached copy.
          // The sessions themselves go on.
          await app.cluster.publish('sessions', { userId: u.id }, tx);
        }
        const [row] = await tx.query<NameSaved['data']>('select id, name, email, role from users where id = $1', [
          u.id,
        ]);
        return row;
      });
      return { data: user, message: 'Your name has been saved.' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/me/password',
    roles: rolesOf('agency', 'client'),
    schema: {
      tags: ['auth'],
      summary: 'Change your own password; every other session of yours ends',
      description: `The current password is required. The new one has at least ${PASSWORD_MIN} characters and differs from it. Wrong current passwords count towards the sign-in limit of the account.`,
      body: PasswordChange,
      response: { 200: PasswordChanged },
    },
    handler: async ({ req, reply, transaction }) => {
      const u = req.auth!;
      const { current_password: current, new_password: next } = req.body;
      // Checked before the current password: a bad new one costs no attempt.
      if (next.length < PASSWORD_MIN) throw badInput({ new_password: `Use at least ${PASSWORD_MIN} characters.` });
      if (next === current) throw badInput({ new_password: 'Choose a password different from the current one.' });
      // A stolen session must not become a way to guess the password: the same limit as signing in.
      const attempt = await app.throttle.attempt(app.db, u.email.toLowerCase(), req.ip);
      if (attempt.wait > 0) {
        reply.header('retry-after', String(attempt.wait));
        const minutes = Math.ceil(attempt.wait / 60);
        throw new HttpError(
          429,
          `Too many wrong passwords. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
        );
      }
      const [user] = await app.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [
        u.id,
      ]);
      if (!(await verifyPassword(current, user.password_hash)))
        throw badInput({ current_password: 'The current password is incorrect.' });
      await app.throttle.succeeded(app.db, attempt);
      const hash = await hashPassword(next);
      const ended = await transaction(async (ctx) => {
        const tx = ctx.db;
        // Through the engine as the user themself: a new version, and an entry that says the password changed
        // (never its hash).
        await ctx.engine.update('users', u.id, { password_hash: hash }, { action: 'change_password' });
        // Every other session ends (as endSessionsOfUser does, keeping this one): a thief signed in elsewhere is out.
        const gone = await tx.query('delete from sessions where user_id = $1 and token_hash <> $2 returning 1', [
          u.id,
          u.token_hash,
        ]);
        await app.cluster.publish('sessions', { userId: u.id }, tx);
        return gone.length;
      });
      // Every process has dropped the ended sessions before the user is told (transaction() settles).
      return { message: 'Password changed. You are signed out everywhere else.', other_sessions_ended: ended };
    },
  });
}
