// The tables of docs/performance.md, read from what `npm run bench -- --save FILE` stored: the
// benches' own printed lines, under a `### NAME` line per bench. Only the figures a bench prints
// reach the page, so a figure on the page is one a run measured; a bench the stored run did not
// include has no table.

/** A stored run: its header lines (`# …`) and each bench's printed lines, by bench name. */
export interface BenchRun {
  readonly header: readonly string[];
  readonly sections: ReadonlyMap<string, readonly string[]>;
}

/** Splits a stored run into its header and its benches' sections; lines before the first `### ` that are not `# ` comments are refused. */
export function parseBenchRun(text: string): BenchRun {
  const header: string[] = [];
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split("\n")) {
    const section = /^### (\S+)$/.exec(line);
    if (section) sections.set(section[1]!, (current = []));
    else if (current) current.push(line);
    else if (line.startsWith("# ")) header.push(line.slice(2));
    else if (line.trim() !== "") throw new Error(`a stored bench run starts with "# " lines, then "### NAME" sections: ${line}`);
  }
  return { header, sections };
}

const times = (ratio: string) => `${ratio}×`;

/** `typescript`: per generated tree, `check` and an agent's `diagnostics "."` against `tsc --noEmit`. */
function typescriptTable(lines: readonly string[]): string | undefined {
  const rows: string[] = [];
  let row: Record<string, string> | undefined;
  const finish = () => {
    if (row === undefined) return;
    const cell = (key: string) => row![key] ?? "—";
    rows.push(
      `| ${[row.files, cell("tsc"), cell("cold check"), cell('cold "." from bridge spawn'), cell('"." again, nothing changed'), cell('"." after an edit that keeps a module\'s exports (a body in the middle)'), cell('"." after an export added to the module every file reaches')].join(" | ")} |`,
    );
    row = undefined;
  };
  for (const line of lines) {
    const tree = /^(\d+) generated TypeScript files/.exec(line);
    if (tree) {
      finish();
      row = { files: Number(tree[1]).toLocaleString("en-US") };
      continue;
    }
    if (row === undefined) continue;
    const tsc = /^ {2}tsc 7\.0\.2 (\d+) ms/.exec(line);
    if (tsc && row.tsc === undefined) row.tsc = `${tsc[1]} ms`;
    const figure = /^ {2}(.+): (\d+) ms = ([\d.]+)x tsc 7\b/.exec(line);
    if (figure) row[figure[1]!] = `${figure[2]} ms (${times(figure[3]!)})`;
    if (!line.startsWith("  ")) finish();
  }
  finish();
  if (rows.length === 0) return undefined;
  const fresh = lines.map((line) => /^([\d,]+) files right after a fresh clone: cold "\." (\d+) ms, again (\d+) ms = ([\d.]+)x tsc 7/.exec(line)).find(Boolean);
  return [
    '## `check` and `diagnostics "."` against `tsc --noEmit`',
    "",
    "Generated trees, an error in one file of ten, answered by the pinned TypeScript 7.0.2: wall time",
    'and its ratio to `tsc --noEmit` in the same run; `"."` is an agent\'s `diagnostics` on the workspace.',
    "",
    '| files | `tsc --noEmit` | cold `check` | cold `"."` from the bridge\'s start | `"."` again, nothing changed | `"."` after a function body changed | `"."` after an export every file reaches |',
    "|---|---|---|---|---|---|---|",
    ...rows,
    ...(fresh ? ["", `Right after a fresh clone of ${fresh[1]} files, a second \`"."\` took ${fresh[3]} ms (${times(fresh[4]!)} \`tsc\`).`] : []),
  ].join("\n");
}

/** `check`: `lspmcp check` against each Python checker's own CLI. */
function checkTable(lines: readonly string[]): string | undefined {
  const rows: string[] = [];
  let tree = "";
  let server = "";
  for (const line of lines) {
    const generated = /^(\d+) Python files: pyright CLI (\d+) ms wall.*; lspmcp check (\d+) ms wall/.exec(line);
    if (generated) [tree, server] = [`${generated[1]} generated Python files`, "pyright"];
    const flask = /^(.+ src \(\d+ files\)):$/.exec(line);
    if (flask) tree = flask[1]!;
    const checker = /^ {2}(\S+): CLI (\d+) ms wall, \d+ ms cpu; check (\d+) ms wall/.exec(line);
    if (checker) server = checker[1]!;
    const ratio = /check \/ (?:pyright|CLI): wall ([\d.]+)x, cpu ([\d.]+)x/.exec(line);
    if (ratio) rows.push(`| ${tree} | ${server} | ${times(ratio[1]!)} | ${times(ratio[2]!)} |`);
  }
  if (rows.length === 0) return undefined;
  return [
    "## `check` against each checker's own command line",
    "",
    "`lspmcp check` over the checker's CLI, same tree, same run (CPU: the whole process tree).",
    "",
    "| tree | server | wall | CPU |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** `shared`: N workers through the same calls, one standalone bridge each against one shared bridge. */
function sharedTable(lines: readonly string[]): string | undefined {
  const workload = /^(\d+) workers x (\d+) calls each/.exec(lines.find((line) => /^\d+ workers x/.test(line)) ?? "");
  const rows = lines.flatMap((line) => {
    const mode = /^ {2}\((a|b)\) (standalone|shared) +(\d+) +(\d+) MiB +\d+ MiB +(\d+) MiB +([\d.]+) ms +([\d.]+) ms/.exec(line);
    if (!mode) return [];
    const label = mode[2] === "standalone" ? `${workload?.[1] ?? "N"} standalone bridges` : "1 shared bridge";
    return [`| ${label} | ${mode[3]} | ${mode[4]} MiB | ${mode[5]} MiB | ${mode[6]} ms | ${mode[7]} ms |`];
  });
  if (rows.length === 0) return undefined;
  return [
    "## A fleet",
    "",
    workload ? `${workload[1]} workers, ${workload[2]} calls each over TypeScript, Python and C, at once.` : "Workers over TypeScript, Python and C, at once.",
    "",
    "| mode | processes | memory (RSS) | memory (PSS) | p50 per call | p95 per call |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

const TABLES: readonly [string, (lines: readonly string[]) => string | undefined][] = [
  ["typescript", typescriptTable],
  ["check", checkTable],
  ["shared", sharedTable],
];

/** The page's generated part for `run`: where and when it was measured, then a table per bench it holds. */
export function renderPerformanceTables(run: BenchRun): string {
  const tables = TABLES.flatMap(([name, table]) => {
    const lines = run.sections.get(name);
    const rendered = lines === undefined ? undefined : table(lines);
    return rendered === undefined ? [] : [rendered];
  });
  if (tables.length === 0) throw new Error("the stored bench run holds none of the benches the page shows (typescript, check, shared)");
  return [`Measured: ${run.header.join("; ")}.`, "", tables.join("\n\n"), ""].join("\n");
}

const BEGIN = "<!-- bench-tables:begin (generated by `npm run bench:doc` from bench/results/latest.txt; do not edit) -->";
const END = "<!-- bench-tables:end -->";

/** `doc` with the text between the bench-tables markers replaced by `tables`; throws when a marker is missing. */
export function spliceTables(doc: string, tables: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error("docs/performance.md lacks the bench-tables markers");
  return `${doc.slice(0, start + BEGIN.length)}\n${tables}${doc.slice(end)}`;
}
