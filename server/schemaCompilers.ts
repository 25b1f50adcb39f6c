import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's own schema compilers (Ajv for requests, fast-json-stringify for answers), compiling each route's schema
 * on the route's first request instead of all of them while the server starts. Fastify compiles every schema of
 * every route before it listens: on this product about 350 ms of CPU, plus about 250 ms to load Ajv and
 * fast-json-stringify, out of a cold start that should stay under 0.9 s; most routes are not called in a session.
 * What is compiled and how is unchanged (the same compilers, with the server's Ajv options), only when.
 *
 * A schema that cannot compile fails its route's first request (a 500) instead of the start: the API tests call
 * every route, so they find it. Fastify treats compilers given this way as custom ones, whose header schemas it does
 * not lower-case; no route declares a header schema.
 */
const load = createRequire(import.meta.url);

type Compile<F> = (routeSchema: unknown) => F;
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** A function standing for `compile(routeSchema)`'s, compiled when first called or inspected. */
function lazyValidator(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const get = () => (compiled ??= compile());
  const validate: Validate = (data, context) => get()(data, context);
  // Fastify reads these off the function: `schemaEnv` before the call (an Ajv function is then given its parent,
  // so it may coerce the value in place), `errors` after it.
  Object.defineProperty(validate, 'schemaEnv', { get: () => get().schemaEnv });
  Object.defineProperty(validate, 'errors', { get: () => compiled?.errors });
  return validate;
}

// Typed loosely: Fastify's types describe Ajv's compiled function whole; it reads only what lazyValidator forwards.
export const lazySchemaCompilers = {
  compilersFactory: {
    buildValidator(externalSchemas: unknown, ajvOptions: unknown) {
      let compiler: Compile<Validate> | undefined;
      const compilerOf = () =>
        (compiler ??= load('@fastify/ajv-compiler')()(externalSchemas, ajvOptions) as Compile<Validate>);
      return (routeSchema: unknown) => lazyValidator(() => compilerOf()(routeSchema));
    },
    buildSerializer(externalSchemas: unknown, serializerOptions: unknown) {
      type Serialize = (data: unknown) => string;
      let compiler: Compile<Serialize> | undefined;
      const compilerOf = () =>
        (compiler ??= load('@fastify/fast-json-stringify-compiler')()(
          externalSchemas,
          serializerOptions,
        ) as Compile<Serialize>);
      return (routeSchema: unknown) => {
        let serialize: Serialize | undefined;
        return (data: unknown) => (serialize ??= compilerOf()(routeSchema))(data);
      };
    },
  },
} as unknown as NonNullable<FastifyServerOptions['schemaController']>;
