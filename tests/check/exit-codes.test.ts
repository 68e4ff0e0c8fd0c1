import { describe, expect, it } from "vitest";
import { runCheckCli } from "./helpers/cli.js";

// Files with known findings: unused.ts has only a hint, recoverable.maude only a warning,
// greet.ts errors, clean.ts nothing. Each case names files so that only the servers it needs start.
const cases: { failOn: string; paths: string[]; exit: number }[] = [
  { failOn: "error", paths: ["src/greet.ts"], exit: 1 },
  { failOn: "error", paths: ["src/unused.ts", "maude/recoverable.maude"], exit: 0 },
  { failOn: "warning", paths: ["src/unused.ts", "maude/recoverable.maude"], exit: 1 },
  { failOn: "information", paths: ["src/unused.ts"], exit: 0 },
  { failOn: "hint", paths: ["src/unused.ts"], exit: 1 },
  { failOn: "never", paths: ["src/greet.ts", "src/unused.ts"], exit: 0 },
  { failOn: "hint", paths: ["src/clean.ts"], exit: 0 },
];

describe("check exit codes per --fail-on threshold", () => {
  it.each(cases)("--fail-on $failOn on $paths exits $exit", async ({ failOn, paths, exit }) => {
    const result = await runCheckCli(["--config", "../bridge.toml", "--fail-on", failOn, "--format", "json", ...paths]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(exit);
    const summary = JSON.parse(result.stdout).summary;
    expect(summary.fail_on).toBe(failOn);
    expect(summary.failing > 0).toBe(exit === 1);
  });

  it("defaults to --fail-on error", async () => {
    const result = await runCheckCli(["--config", "../bridge.toml", "src/unused.ts", "src/greet.ts"]);
    expect(result.code).toBe(1);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe("2 files checked: 2 errors, 0 warnings, 0 information, 1 hint; 2 at or above error");
  });
});
