import { HttpResponse } from 'msw';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The unit tests' fakes answer through the API's own contracts (core/contracts/): each fixture is checked
 * against the schema the server answers with, so a fake cannot drift from the server unseen. The check is
 * stricter than the server's serializer: an object property the schema does not name is a drift too (the
 * server would drop it, so a screen reading it would work in the test and not in the product), unless the
 * schema says `additionalProperties: true` (engine records, whose fields vary by role).
 */

/** Drifts seen in the running test; tests/unit/setup.ts fails the test when any is left after it. */
export const drifts: string[] = [];

const closed = new WeakMap<object, TSchema>();
/** The schema with every object that does not say otherwise closed to properties it does not name. */
function strict(schema: TSchema): TSchema {
  const hit = closed.get(schema);
  if (hit) return hit;
  const walk = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(walk);
    if (!s || typeof s !== 'object') return s;
    const out: Record<string, unknown> = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, walk(v)]));
    if (
      out.type === 'object' &&
      out.properties &&
      out.additionalProperties === undefined &&
      out.patternProperties === undefined
    )
      out.additionalProperties = false;
    return out;
  };
  const result = walk(schema) as TSchema;
  closed.set(schema, result);
  return result;
}

/** What is wrong with a body for a schema, one line per problem ([] when it fits). */
export function contractErrors(schema: TSchema, body: unknown): string[] {
  return Value.Errors(strict(schema), body).map(
    (e) =>
      `${e.instancePath || '(the answer)'} ${e.message}${e.keyword === 'additionalProperties' ? `: ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** A JSON answer of a fake, checked against the contract: a drift is recorded (and fails the test). */
export function answer(what: string, schema: TSchema, body: unknown, status = 200) {
  const errors = contractErrors(schema, body);
  if (errors.length) drifts.push(`${what} drifts from the API's contract:\n  ${errors.join('\n  ')}`);
  return HttpResponse.json(body as any, { status });
}

/** Throws (failing the test) when a fake answered something the server never would; forgets them for the next. */
export function assertNoDrift() {
  if (drifts.length === 0) return;
  const found = drifts.splice(0);
  throw new Error(found.join('\n'));
}
