// `lspmcp check`'s progress line (docs/check.md): drawn on stderr when stderr is a terminal, never
// when it is a pipe or a file, never with --quiet, and never on stdout. A real pseudo-terminal:
// util-linux's `script` runs the command line under one and copies what the terminal shows to
// its own stdout.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import type { TempRepo } from "../helpers/temp-repo.js";
import { bridgeEnv } from "../helpers/tool-cache.js";
import { pathWithLspmcp, runLspmcp } from "./helpers/lspmcp-on-path.js";
import { polyglotRepo } from "../helpers/polyglot-repo.js";

let repo: TempRepo;
let path: string;
let out: string;
/** The json report of `web/` (two JSON files, four TypeScript files) with stdout and stderr pipes. */
let report: string;

beforeAll(async () => {
  requireBinary("script");
  repo = polyglotRepo();
  path = pathWithLspmcp();
  out = tempDir("lspmcp-progress-");
  const piped = await runLspmcp(["check", "web", "--format", "json"], { cwd: repo.root, path });
  expect(piped.code, piped.stderr).toBe(1);
  report = piped.stdout;
});
afterAll(() => repo?.remove());

/** Runs a shell command line under a pseudo-terminal: what the terminal showed, and the exit code. */
function onTerminal(commandLine: string): Promise<{ code: number | null; shown: string }> {
  return new Promise((resolve, reject) =>
    // -e: script exits with the command's code; -f: flushes as output comes; -q: no banner.
    execFile("script", ["-qefc", commandLine, "/dev/null"], { cwd: repo.root, env: { ...bridgeEnv(), PATH: path }, encoding: "utf8" }, (error, stdout) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      if (typeof code !== "number") reject(error);
      else resolve({ code, shown: stdout });
    }),
  );
}

/** The terminal's erase-line sequence, with which the line is redrawn and erased. */
const ERASE = "\r\x1b[2K";
/** Each progress line drawn: "done/total session". */
const drawn = (text: string) =>
  text.split(ERASE).flatMap((part) => {
    const line = /^check: (\d+\/\d+) files · (\S+)$/.exec(part);
    return line ? [`${line[1]} ${line[2]}`] : [];
  });

describe("check's progress line", () => {
  test("stderr on a terminal: one redrawn line per file, erased before the report ends; the report is untouched", async () => {
    const file = join(out, "report.json");
    const { code, shown } = await onTerminal(`lspmcp check web --format json > ${file}`);
    expect(code).toBe(1);
    const workspace = basename(repo.root);
    const lines = drawn(shown);
    // The two sessions run side by side, so their files finish in either order; the count climbs by one.
    expect(lines.map((line) => line.split(" ")[0])).toEqual(["1/6", "2/6", "3/6", "4/6", "5/6", "6/6"]);
    expect(lines.map((line) => line.split(" ")[1]).sort()).toEqual([...Array(2).fill(`${workspace}/json`), ...Array(4).fill(`${workspace}/typescript`)]);
    // Erased: the terminal's last bytes are the erase, and nothing of the line is left standing.
    expect(shown.endsWith(ERASE)).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(report);
  });

  test("stderr to a file, stdout on the terminal: no progress line anywhere", async () => {
    const log = join(out, "stderr.txt");
    const { code, shown } = await onTerminal(`lspmcp check web --format json 2> ${log}`);
    expect(code).toBe(1);
    expect(shown.replaceAll("\r\n", "\n")).toBe(report);
    expect(readFileSync(log, "utf8")).not.toContain("check: ");
    expect(readFileSync(log, "utf8")).not.toContain("\x1b");
  });

  test("stderr to a pipe, everything else a terminal: no progress line", async () => {
    const { code, shown } = await onTerminal("lspmcp check web --format json 2>&1 > /dev/null | cat");
    // The pipeline's code is cat's.
    expect(code).toBe(0);
    expect(shown).toMatch(/^lspmcp: config: embedded default for /);
    expect(shown).not.toContain("check: ");
    expect(shown).not.toContain("\x1b");
  });

  test("--quiet on a terminal: no progress line, and no config line", async () => {
    const { code, shown } = await onTerminal("lspmcp check web --quiet --format json > /dev/null");
    expect(code).toBe(1);
    expect(shown).toBe("");
  });
});
