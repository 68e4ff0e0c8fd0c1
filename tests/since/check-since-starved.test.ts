import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { childOutput, type ChildOutput } from "../helpers/child-output.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

// `check --since` on a machine that has run out of what processes need (file descriptors here;
// EAGAIN or ENOMEM from fork on a loaded machine end the same way): a start of the supervisor
// that failed for want of them was an uncaught 'error' event, which ended check with exit 1 (read
// by a CI gate as "findings") and a stack trace. Run under file-descriptor limits from too
// few to load lspmcp's own code to enough for the whole run, each outcome must be a report or
// exit 3 with its reason; an unknown revision is exit 2 or, when git itself cannot run, 3.

/**
 * From too few descriptors to load lspmcp's code, one by one, to one that is plenty (a report).
 * Between "git can run" and "the supervisor can start" lies a single descriptor, and whether a
 * limit falls there depends on what else is open at the moment of the spawn: each limit is tried
 * until the run has passed that window once.
 */
const LIMITS = [...Array.from({ length: 21 }, (_, i) => 20 + i), 256];

function fixture() {
  const repo = tempRepo({
    "tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
    "a.ts": "export const fine = 1;\n",
  });
  const runtime = tempDir("lspmcp-since-starved-");
  const config = writeConfig(
    `[shared]\nlease_dir = ${JSON.stringify(runtime)}\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "w"\nroot = ${JSON.stringify(repo.root)}\nservers = ["typescript"]\n`,
  );
  return { repo, config };
}

/** `lspmcp check ARGS` with at most `limit` open file descriptors. */
function starvedCheck(limit: number, cwd: string, args: readonly string[]): Promise<ChildOutput> {
  return childOutput(
    spawn("bash", ["-c", `ulimit -n ${limit} && exec "$0" "$@"`, process.execPath, BRIDGE_MAIN, "check", ...args], {
      cwd,
      env: bridgeEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** A run that gave no report says why in one line of its own, and never with a stack trace. */
function expectNoReportSaid(run: ChildOutput, limit: number): void {
  expect(run.stdout, `limit ${limit}`).toBe("");
  expect(run.stderr, `limit ${limit}`).toMatch(/^lspmcp( check| error)?: /);
  expect(run.stderr, `limit ${limit}`).not.toMatch(/Unhandled 'error' event|^\s+at /m);
}

/** What the supervisor's own start says when its spawn fails (src/supervision/supervisor-boot.ts); five other places also throw ServerStartFailed. */
const SUPERVISOR_START_FAILED = /cannot start the supervisor process: spawn \S+ E[A-Z]+/;

describe("check --since when processes cannot be had", () => {
  test("every limit gives a report (exit 0) or exit 3 with its reason; the supervisor's own failed start is among them, as ServerStartFailed", async () => {
    const { repo, config } = fixture();
    const outcomes: string[] = [];
    const supervisorFailed = () => outcomes.some((outcome) => outcome.startsWith("ServerStartFailed: supervisor"));
    // Sweeps until the window of the supervisor's spawn has been hit once: the other ServerStartFailed
    // (a compiler's files that cannot be read, a version command that cannot run) do not count.
    for (let sweep = 0; sweep < 8 && !supervisorFailed(); sweep++) {
      for (const limit of LIMITS) {
        const run = await starvedCheck(limit, repo.root, ["--config", config, "--quiet", "--since", "HEAD"]);
        expect([0, 3], `limit ${limit}: exit ${run.code}\n${run.stderr}`).toContain(run.code);
        if (run.code === 0) expect(run.stdout, `limit ${limit}`).toMatch(/^1 file checked: 0 errors, 0 warnings, 0 information, 0 hints; since HEAD \(/);
        else expectNoReportSaid(run, limit);
        const code = /\((\w+)\)$/m.exec(run.stderr)?.[1] ?? "said";
        outcomes.push(run.code === 0 ? "report" : code === "ServerStartFailed" && SUPERVISOR_START_FAILED.test(run.stderr) ? `${code}: supervisor` : code);
        if (supervisorFailed()) break;
      }
    }
    // Through a supervisor that cannot be started, said as the supervisor's start says it.
    expect(outcomes).toContain("ServerStartFailed: supervisor");
    // Enough descriptors for the whole run: a report.
    const plenty = await starvedCheck(LIMITS.at(-1)!, repo.root, ["--config", config, "--quiet", "--since", "HEAD"]);
    expect(plenty.code, plenty.stderr).toBe(0);
    expect(repo.status()).toBe("");
  }, 600_000);

  test("an unknown revision is exit 2 whenever git can run, else exit 3; never 1", async () => {
    const { repo, config } = fixture();
    for (const limit of LIMITS) {
      const run = await starvedCheck(limit, repo.root, ["--config", config, "--quiet", "--since", "no-such-branch"]);
      expect([2, 3], `limit ${limit}: exit ${run.code}\n${run.stderr}`).toContain(run.code);
      if (run.code === 2) expect(run.stderr, `limit ${limit}`).toContain('git does not know the revision "no-such-branch"');
      else expectNoReportSaid(run, limit);
    }
  }, 300_000);
});
