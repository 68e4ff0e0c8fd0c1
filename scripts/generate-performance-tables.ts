import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../src/config/package-root.js";
import { parseBenchRun, renderPerformanceTables, spliceTables } from "./performance-tables.js";

// `npm run bench:doc [FILE]`: writes the tables of docs/performance.md from a stored bench run
// (`npm run bench -- --save FILE`; by default bench/results/latest.txt). With --check it writes
// nothing and exits 1 when the page differs from what the stored run says.
const root = packageRoot();
const args = process.argv.slice(2);
const stored = args.find((arg) => !arg.startsWith("--")) ?? join(root, "bench", "results", "latest.txt");
const docPath = join(root, "docs", "performance.md");
const doc = await readFile(docPath, "utf8");
const fresh = spliceTables(doc, renderPerformanceTables(parseBenchRun(await readFile(stored, "utf8"))));
if (args.includes("--check")) {
  if (fresh !== doc) {
    process.stderr.write("docs/performance.md differs from the stored bench run: run `npm run bench:doc`\n");
    process.exit(1);
  }
} else {
  await writeFile(docPath, fresh);
}
