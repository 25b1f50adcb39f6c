// The layers' rule, run by `npm run typecheck`: core/ is shared by the browser (src/) and the server (server/) and
// imports neither, nor React or Node; src/ never imports server/, nor server/ src/. Each side's tsconfig.json
// compiles any file its code imports, so a wrong import would otherwise compile. Prints each offending import.
// Then: no import cycle among server/'s modules (issue 31.9), each cycle printed as its files in order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sides = ['core', 'src', 'server'];
/** What each side may not import: another side's folder, or a package. */
const forbidden = {
  core: {
    folders: ['src', 'server'],
    packages: (p) =>
      builtinModules.includes(p.replace(/^node:/, '').split('/')[0]) ||
      p.startsWith('node:') ||
      /^(react|react-dom|react-admin|ra-[\w-]+|@mui\/.*)(\/|$)/.test(p),
  },
  src: { folders: ['server'], packages: (p) => p.startsWith('node:') },
  server: { folders: ['src'], packages: () => false },
};

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield path;
  }
}

const specifier = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g;
/** Each import across the layers, as `file imports 'specifier'`. */
export function layerProblems() {
  const problems = [];
  for (const side of sides) {
    const rule = forbidden[side];
    for (const file of sourceFiles(join(root, side))) {
      for (const [, , spec] of readFileSync(file, 'utf8').matchAll(specifier)) {
        const folder = spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)).split(/[\\/]/)[0] : null;
        if (folder ? rule.folders.includes(folder) : rule.packages(spec))
          problems.push(`${relative(root, file)} imports '${spec}'`);
      }
    }
  }
  return problems;
}

/**
 * The server's modules that import one another in a circle, each circle as its files in import order. An import
 * that brings only types (`import type`, `export type`) runs nothing and is left out; a dynamic `import()` counts,
 * since one is how a cycle is usually hidden. A module imported while its importer is still loading sees that
 * importer's exports undefined, and a registry that needs such a cycle is registered in the wrong place.
 */
export function serverCycles(dir = join(root, 'server')) {
  const imports =
    /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?(['"])([^'"]+)\2|\bimport\s*\(\s*(['"])([^'"]+)\4\s*\)/gm;
  const graph = new Map();
  for (const file of sourceFiles(dir)) {
    const deps = new Set();
    for (const m of readFileSync(file, 'utf8').matchAll(imports)) {
      const spec = m[3] ?? m[5];
      if (m[1] || !spec.startsWith('.')) continue;
      const base = resolve(dirname(file), spec).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => existsSync(f));
      if (target?.startsWith(dir)) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  // Tarjan's strongly connected components: a component of more than one module (or one importing itself) is a cycle.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const cycles = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1 || graph.get(v).includes(v)) cycles.push(component.map((f) => relative(root, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = layerProblems();
  if (problems.length) {
    console.error(
      `Imports across the layers (core/ imports neither side, src/ never server/, server/ never src/):\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
  const cycles = serverCycles();
  if (cycles.length) {
    console.error(
      `Import cycles in server/ (break each: the entry point hands over what a module needs, server/areas/registry.ts):\n  ${cycles.map((c) => `${c.length} modules: ${c.join(', ')}`).join('\n  ')}`,
    );
    process.exit(1);
  }
}
