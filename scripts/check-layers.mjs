// The layers' rule, run by `npm run typecheck`: core/ is shared by the browser (src/) and the server (server/) and
// imports neither, nor React or Node; src/ never imports server/, nor server/ src/. Each side's tsconfig.json
// compiles any file its code imports, so a wrong import would otherwise compile. Prints each offending import.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
if (problems.length) {
  console.error(
    `Imports across the layers (core/ imports neither side, src/ never server/, server/ never src/):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
