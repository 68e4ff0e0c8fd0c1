import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../src/config/package-root.js";
import { collectServerRows, renderMatrix, spliceMatrix } from "./server-matrix.js";

// `npm run servers`: starts every shipped profile's pinned server and writes what their
// `initialize` results support into docs/servers.md. With --check it writes nothing and exits 1
// when the file differs from what the real servers say (the staleness test runs it so).
const root = packageRoot();
const docPath = join(root, "docs", "servers.md");
const doc = await readFile(docPath, "utf8");
const fresh = spliceMatrix(doc, renderMatrix(await collectServerRows(root)));
if (process.argv.includes("--check")) {
  if (fresh !== doc) {
    process.stdout.write(fresh);
    process.stderr.write("docs/servers.md is stale: run `npm run servers`\n");
    process.exit(1);
  }
} else {
  await writeFile(docPath, fresh);
}
