// Bundles the compiled bridge (dist/src, from tsc) into dist/lspmcp: the `lspmcp` entry, the
// supervisor's entry, and the chunks they share, with the runtime dependencies inlined. Why:
// Node resolves, reads and compiles every ES module separately, and loading ~400 of them was most
// of lspmcp's start-up (issue 18: spawn to `initialize` answered 740 ms standalone, 380 ms
// attached, against ~110 ms for `node -e 0` here); one entry file and a few chunks loaded on
// demand (each command imports only what it runs) halve it. The language servers are not bundled:
// they are separate programs, spawned from node_modules.
import { chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const repo = fileURLToPath(new URL("..", import.meta.url));
const out = join(repo, "dist/lspmcp");
rmSync(out, { recursive: true, force: true });
await build({
  input: {
    main: join(repo, "dist/src/cli/main.js"),
    "supervisor-main": join(repo, "dist/src/supervision/supervisor-main.js"),
  },
  platform: "node",
  logLevel: "warn",
  output: { dir: out, format: "esm", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js", sourcemap: false },
});
// `lspmcp` runs as a program (package.json `bin`, its `#!` line).
chmodSync(join(out, "main.js"), 0o755);
