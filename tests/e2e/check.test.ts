// Issue 36, `lspmcp check` as a user runs it: the bin found on PATH, in a polyglot git repository
// with no config (the embedded default), each format, --since, exit codes, and each language's
// findings equal to its own command-line tool's.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv-draft-04";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { asRustAnalyzerFindings, cargoCheckMessages } from "../helpers/cargo-cli.js";
import { findingKeys, pyrightCliFindings, startKeys, tscFindings, type Finding } from "../helpers/differential.js";
import { goFindings } from "../helpers/go-cli.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { ruffCliFindings } from "../helpers/ruff-cli.js";
import { tempDir } from "../helpers/temp.js";
import type { TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { pathWithLspmcp, runLspmcp, type RunResult } from "./helpers/lspmcp-on-path.js";
import { EDIT, polyglotRepo } from "../helpers/polyglot-repo.js";

type Item = Finding & { workspace: string; server: string; source: string | null };

let repo: TempRepo;
let path: string;
let json: RunResult;
let items: Item[];
let cli: { go: { compiler: Finding[]; vet: Finding[] }; rust: Finding[]; ruff: Finding[]; pyright: Finding[]; tsc: Finding[] };
const check = (...args: string[]) => runLspmcp(["check", ...args], { cwd: repo.root, path });
const under = (folder: string, findings: readonly Finding[]) => findings.map((finding) => ({ ...finding, path: `${folder}/${finding.path}` }));
const of = (server: string) => items.filter((item) => item.server === server);

beforeAll(async () => {
  requireBinary("go");
  requireBinary("cargo");
  requireCachedTool("go/bin/gopls");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  const ruff = requireCachedTool("ruff/bin/ruff");
  repo = polyglotRepo();
  path = pathWithLspmcp();
  json = await check("--format", "json");
  items = JSON.parse(json.stdout).items;
  const [go, messages, ruffs, pyright, tsc] = await Promise.all([
    goFindings(join(repo.root, "gosvc")),
    cargoCheckMessages(join(repo.root, "rs"), join(tempDir(), "target")),
    ruffCliFindings(join(repo.root, "py"), ruff),
    pyrightCliFindings(repo.root),
    tscFindings(join(repo.root, "web")),
  ]);
  cli = {
    go: { compiler: under("gosvc", go.compiler), vet: under("gosvc", go.vet) },
    rust: under("rs", asRustAnalyzerFindings(messages)),
    ruff: under("py", ruffs),
    pyright,
    tsc: under("web", tsc),
  };
}, 300_000);
afterAll(() => repo?.remove());

describe("lspmcp check with no config in a polyglot repository", () => {
  test("names the embedded default and its six servers on stderr, and exits 1 for the errors", () => {
    expect(json.stderr).toMatch(
      /^lspmcp: config: embedded default for .*: servers typescript, pyright, gopls, json, rust-analyzer, ruff; pyright: Python's type checker by default \(none of .*\); ruff: configured by pyproject\.toml \[tool\.ruff\]; typescript answers with TypeScript 7\.0\.2 \(pinned\)(; [\w-]+ projects: [^;]+)*$/m,
    );
    // The project roots it found: the one tsconfig's folder among them.
    expect(json.stderr).toContain("; typescript projects: web");
    expect(json.code, json.stderr).toBe(1);
    // Files, not (file, server) pairs: pyright and ruff both check the four Python files.
    expect(JSON.parse(json.stdout).summary).toMatchObject({ files: 18 });
    expect(JSON.parse(json.stdout).summary.runs.map((run: { server: string; files: number }) => `${run.server} ${run.files}`)).toEqual([
      "typescript 4",
      "pyright 4",
      "gopls 5",
      "json 2",
      "rust-analyzer 3",
      "ruff 4",
    ]);
  });

  test("Go: gopls's findings are go build's type errors (at their start) and go vet's findings, and nothing else", () => {
    expect([cli.go.compiler.length, cli.go.vet.length]).toEqual([3, 3]);
    const compiler = of("gopls").filter((item) => item.source === "compiler");
    expect(startKeys(compiler.map((item) => ({ ...item, code: "compiler" })))).toEqual(startKeys(cli.go.compiler));
    const vet = of("gopls").filter((item) => item.source !== "compiler");
    expect(findingKeys(vet.map((item) => ({ ...item, code: item.source })))).toEqual(findingKeys(cli.go.vet));
  });

  test("Rust: rust-analyzer's flycheck is cargo check's, and its own analysis adds only its type mismatch", () => {
    expect(cli.rust.filter((finding) => finding.severity === "error")).toHaveLength(3);
    const rust = of("rust-analyzer");
    expect(findingKeys(rust.filter((item) => item.source === "rustc"))).toEqual(findingKeys(cli.rust));
    expect(rust.filter((item) => item.source !== "rustc").map((item) => `${item.path} ${item.source} ${item.code} ${item.message}`)).toEqual([
      "rs/cafe/src/lib.rs rust-analyzer E0308 expected u32, found &'static str",
    ]);
  });

  test("Python: ruff's findings are ruff check's with py/pyproject.toml's rules, pyright's the pyright CLI's (hints aside)", () => {
    expect(new Set(cli.ruff.map((finding) => finding.code))).toEqual(new Set(["F401", "F821", "UP035", "UP006", "B006", "F841", "E501"]));
    expect(findingKeys(of("ruff"))).toEqual(findingKeys(cli.ruff));
    expect(cli.pyright.map((finding) => finding.code)).toEqual(expect.arrayContaining(["reportUndefinedVariable", "reportAssignmentType"]));
    // The CLI prints no hints ("x is not accessed"); the server gives them beside its other findings.
    expect(findingKeys(of("pyright").filter((item) => item.severity !== "hint"))).toEqual(findingKeys(cli.pyright));
  });

  test("TypeScript: the pinned compiler's findings are tsc's (which prints starts only)", () => {
    expect(cli.tsc).toHaveLength(3);
    expect(startKeys(of("typescript"))).toEqual(startKeys(cli.tsc));
  });

  test("JSON: the syntax error, and nothing from the configuration files", () => {
    expect(of("json").map((item) => `${item.path}:${item.range.start.line} ${item.severity} ${item.message}`)).toEqual([
      "web/settings.json:3 error Trailing comma",
    ]);
  });

  test("every finding comes from one of the six servers", () => {
    const counted = ["gopls", "rust-analyzer", "ruff", "pyright", "typescript", "json"].reduce((sum, server) => sum + of(server).length, 0);
    expect(counted).toBe(items.length);
  });
});

describe("the other formats, through the same bin", () => {
  test("text: one line per finding of the json report, then the summary; exit 1", async () => {
    const text = await check();
    expect(text.code, text.stderr).toBe(1);
    const lines = text.stdout.split("\n").filter((line) => /^\S+:\d+:\d+: /.test(line));
    expect(lines).toEqual(
      items.map((item) =>
        `${item.path}:${item.range.start.line}:${item.range.start.column}: ${item.severity}: ${item.message.split("\n")[0]} [${[item.source, item.code].filter((part) => part !== null).join(" ")}]`.trimEnd(),
      ),
    );
    expect(text.stdout).toMatch(/^18 files checked: \d+ errors, \d+ warnings, 0 information, \d+ hints; \d+ at or above error\n$/m);
  });

  test("SARIF: valid 2.1.0, one run per server with its pinned version, the json report's findings; exit 1", async () => {
    const sarif = await check("--format", "sarif");
    expect(sarif.code, sarif.stderr).toBe(1);
    const log = JSON.parse(sarif.stdout);
    const validate = new Ajv({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(join(REPO, "tests/fixtures/check/sarif-schema-2.1.0.json"), "utf8")),
    );
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs.map((run: any) => `${run.tool.driver.name} ${run.tool.driver.version}`)).toEqual([
      "typescript 7.0.2",
      "pyright 1.1.414",
      "gopls v0.23.0",
      "json 4.10.0",
      "rust-analyzer 0.0.348",
      "ruff 0.17.5",
    ]);
    for (const run of log.runs) {
      const server = run.tool.driver.name as string;
      const located = run.results.map((result: any) => {
        const { artifactLocation, region } = result.locations[0].physicalLocation;
        return `${artifactLocation.uri}:${region.startLine}:${region.startColumn}`;
      });
      expect(located.sort(), server).toEqual(
        of(server)
          .map((item) => `${item.path}:${item.range.start.line}:${item.range.start.column}`)
          .sort(),
      );
    }
  });
});

describe("--since HEAD", () => {
  test("on the committed tree every finding is unchanged, and nothing fails: exit 0 (text)", async () => {
    const since = await check("--since", "HEAD");
    expect(since.code, since.stderr).toBe(0);
    const lines = since.stdout.split("\n").filter((line) => /^\S+:\d+:\d+: /.test(line));
    expect(lines).toHaveLength(items.length);
    for (const line of lines) expect(line).toMatch(/ \(unchanged\)$/);
    expect(since.stdout).toMatch(new RegExp(`; since HEAD \\([0-9a-f]{12}\\): 0 introduced, ${items.length} unchanged, 0 resolved; 0 at or above error\\n$`));
  });

  test("after an edit in three languages: exactly what it broke is introduced (exit 1), what it fixed resolved", async () => {
    for (const [file, text] of Object.entries(EDIT)) writeFileSync(join(repo.root, file), text);
    try {
      const since = await check("--format", "json", "--since", "HEAD");
      expect(since.code, since.stderr).toBe(1);
      const report = JSON.parse(since.stdout);
      const introduced = report.items.filter((item: any) => item.since_state === "introduced");
      expect(introduced.map((item: Item) => `${item.path}:${item.range.start.line} ${item.server} ${item.code} ${item.message}`)).toEqual([
        "gosvc/cmd/cafe/main.go:15 gopls UnusedVar declared and not used: spare",
        "web/src/price.ts:3 typescript 2362 The left-hand side of an arithmetic operation must be of type 'any', 'number', 'bigint' or an enum type.",
      ]);
      expect(report.resolved.map((item: Item) => `${item.path}:${item.range.start.line} ${item.server} ${item.code}`)).toEqual([
        "py/cafe/menu.py:2 ruff F401",
        "py/cafe/menu.py:2 pyright null",
        "web/src/order.ts:5 typescript 2345",
      ]);
      expect(report.summary.since).toMatchObject({ introduced: 2, resolved: 3, unchanged: report.items.length - 2 });
    } finally {
      execFileSync("git", ["checkout", "--", "."], { cwd: repo.root });
    }
  });

  test("an unknown revision is a usage error: exit 2, no report", async () => {
    const unknown = await check("--since", "no-such-branch");
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
  });
});

describe("the checkout", () => {
  test("is as it was: nothing written, ignored files included", () => {
    expect(repo.status()).toBe("");
  });
});
