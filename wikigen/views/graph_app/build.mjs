// Bundles src/ into wikigen/views/assets/graph.js (minified IIFE) and graph.css, plus
// graph.LICENSES.txt with the licence of every third-party package the bundle contains.
// Run from this folder: npm ci && node build.mjs
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
if (!existsSync(join(here, "node_modules"))) {
  console.error("node_modules is missing: run `npm ci` in wikigen/views/graph_app first.");
  process.exit(1);
}
const { build } = await import("esbuild");

const assets = join(here, "..", "assets");
const result = await build({
  absWorkingDir: here,
  entryPoints: ["src/main.js"],
  outfile: join(assets, "graph.js"),
  bundle: true,
  minify: true,
  format: "iife",
  platform: "browser",
  target: "es2020",
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  banner: {
    js: "/* wikigen semantic graph view; built by wikigen/views/graph_app/build.mjs. Third-party licences: graph.LICENSES.txt */",
    css: "/* wikigen semantic graph view; built by wikigen/views/graph_app/build.mjs */",
  },
  metafile: true,
  logLevel: "info",
});

// Every package whose code ended up in the bundle, with its licence text.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match) packages.set(match[1], join(here, "node_modules", match[1]));
}
const sections = [...packages.entries()].sort().map(([name, root]) => {
  const meta = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const file = ["LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "license"].find((f) => existsSync(join(root, f)));
  const text = file ? readFileSync(join(root, file), "utf8").trim() : `License: ${meta.license}`;
  return `${name}@${meta.version} (${meta.license})\n\n${text}\n`;
});
writeFileSync(
  join(assets, "graph.LICENSES.txt"),
  `Third-party code bundled in graph.js\n${"=".repeat(36)}\n\n${sections.join(`\n${"-".repeat(72)}\n\n`)}`,
);
console.log(`bundled packages: ${[...packages.keys()].sort().join(", ")}`);
