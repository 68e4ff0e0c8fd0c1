// Bundles the compiled bridge (dist/src, from tsc) into dist/lspmcp: the `lspmcp` entry and the
// chunks it loads, with the runtime dependencies inlined. Why: Node resolves, reads and compiles
// every ES module separately, and loading ~400 of them was most of lspmcp's start-up (issue 18:
// spawn to `initialize` answered 740 ms standalone, 380 ms attached, against ~110 ms for `node -e
// 0` here); one entry file and a few chunks loaded on demand (each command imports only what it
// runs) halve it. The language servers are not bundled: they are separate programs, spawned from
// node_modules.
//
// The supervisor is bundled apart, as one self-contained CommonJS file: a bridge reads it once at start and
// starts every supervisor from that copy in memory, so an upgrade that replaces dist/lspmcp under a
// running bridge cannot take its supervisor away (issue 26). Last, `build-id.json` names this build
// (a digest of every file bundled): a shared server's lease carries it, and only a `serve` of the
// very same build attaches to it.
import { createHash } from "node:crypto";
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const repo = fileURLToPath(new URL("..", import.meta.url));
const out = join(repo, "dist/lspmcp");
rmSync(out, { recursive: true, force: true });
const common = { platform: "node", logLevel: "warn" };
const output = { dir: out, format: "esm", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js", sourcemap: false };
await build({ ...common, input: { main: join(repo, "dist/src/cli/main.js") }, output });
// CommonJS: a supervisor runs it from memory as a script (supervisor-boot.ts), which spares every
// supervisor the start of Node's ES module loader.
await build({
  ...common,
  input: { "supervisor-main": join(repo, "dist/src/supervision/supervisor-main.js") },
  output: { ...output, format: "cjs", entryFileNames: "[name].cjs", codeSplitting: false },
});
// `lspmcp` runs as a program (package.json `bin`, its `#!` line).
chmodSync(join(out, "main.js"), 0o755);

const digest = createHash("sha256");
for (const name of readdirSync(out).sort())
  digest
    .update(`${name}\0`)
    .update(readFileSync(join(out, name)))
    .update("\0");
writeFileSync(join(out, "build-id.json"), `${JSON.stringify({ build: digest.digest("hex") })}\n`);
