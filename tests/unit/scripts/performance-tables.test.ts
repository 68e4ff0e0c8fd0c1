// docs/performance.md's tables are written from a stored bench run (bench/results/latest.txt) by
// `npm run bench:doc`: the page must be exactly what the generator makes of the stored run, so a
// figure edited by hand, or a run stored without regenerating the page, fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseBenchRun, renderPerformanceTables, spliceTables } from "../../../scripts/performance-tables.js";
import { REPO } from "../../helpers/paths.js";

const page = readFileSync(join(REPO, "docs/performance.md"), "utf8");
const stored = readFileSync(join(REPO, "bench/results/latest.txt"), "utf8");
const generated = (doc: string, run: string) => spliceTables(doc, renderPerformanceTables(parseBenchRun(run)));

test("docs/performance.md is what npm run bench:doc writes from the stored run", () => {
  expect(page).toBe(generated(page, stored));
});

test("a figure edited on the page, or one changed in the stored run, is a difference", () => {
  const edited = page.replace(/\| 500 \| (\d+) ms/, (_, ms: string) => `| 500 | ${Number(ms) + 1} ms`);
  expect(edited).not.toBe(page);
  expect(edited).not.toBe(generated(edited, stored));
  const rerun = stored.replace(/cold check: (\d+) ms/, (_, ms: string) => `cold check: ${Number(ms) + 1} ms`);
  expect(generated(page, rerun)).not.toBe(page);
});

describe("each bench's table, from the lines the bench prints", () => {
  const run = (section: string, lines: string[]) => renderPerformanceTables(parseBenchRun(["# a run", `### ${section}`, ...lines].join("\n")));

  test("check: each checker's ratios to its CLI", () => {
    const table = run("check", [
      "201 Python files: pyright CLI 5100 ms wall, 6200 ms cpu (20 errors); lspmcp check 8058 ms wall, 10540 ms cpu (20 errors)",
      "  check / pyright: wall 1.58x, cpu 1.70x (target <= 1.3x)",
      "Flask 3.1.3 src (23 files):",
      '  ty: CLI 250 ms wall, 300 ms cpu; check 580 ms wall, 942 ms cpu (3 errors, 0 warnings); cold "." 700 ms wall (3 findings)',
      '    check / CLI: wall 2.32x, cpu 3.14x (target <= 1.3x); cold "." / CLI: wall 2.80x (target <= 1.5x)',
    ]);
    expect(table).toContain("| 201 generated Python files | pyright | 1.58× | 1.70× |");
    expect(table).toContain("| Flask 3.1.3 src (23 files) | ty | 2.32× | 3.14× |");
  });

  test("shared: each mode's processes, memory and latency", () => {
    const table = run("shared", [
      "4 workers x 200 calls each, concurrently (typescript, pyright, clangd on examples/app)",
      "  mode            procs  RSS after  RSS max    PSS after    p50       p95       max        wall    gone after close",
      "  (a) standalone     40  4060 MiB  4100 MiB  2468 MiB     5.6 ms   15.3 ms   80.0 ms   12.0 s  700 ms",
      "  (b) shared         14  1350 MiB  1400 MiB   873 MiB    10.0 ms   21.9 ms   90.0 ms   13.0 s  700 ms",
    ]);
    expect(table).toContain("| 4 standalone bridges | 40 | 4060 MiB | 2468 MiB | 5.6 ms | 15.3 ms |");
    expect(table).toContain("| 1 shared bridge | 14 | 1350 MiB | 873 MiB | 10.0 ms | 21.9 ms |");
  });

  test("a run that holds none of the page's benches is refused, not rendered empty", () => {
    expect(() => run("floor", ["  anything"])).toThrow(/none of the benches/);
  });
});
