import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { runCheckCli } from "./helpers/cli.js";

const ERROR_LINE = 'export const count: number = "three";\n';

describe("check --baseline", () => {
  it("passes when a baselined finding moves, fails only on a new one", async () => {
    const root = mkdtempSync(join(tmpdir(), "lspmcp-check-baseline-"));
    writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n');
    writeFileSync(join(root, "a.ts"), ERROR_LINE);
    const config = writeConfig(
      `[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "b"\nroot = ${JSON.stringify(root)}\nservers = ["typescript"]\n`,
    );
    const baseline = join(root, "..", `${root.split("/").at(-1)}-baseline.json`);
    const first = await runCheckCli(["--config", config, "--fail-on", "never", "--write-baseline", baseline], { cwd: root });
    expect(first.code).toBe(0);

    // The same finding, three lines further down: still in the baseline.
    writeFileSync(join(root, "a.ts"), `// moved\n\n\n${ERROR_LINE}`);
    const moved = await runCheckCli(["--config", config, "--baseline", baseline], { cwd: root });
    expect(moved.stdout).toBe("1 file checked: 1 error, 0 warnings, 0 information, 0 hints; 1 in the baseline; 0 at or above error\n");
    expect(moved.code).toBe(0);

    writeFileSync(join(root, "a.ts"), `// moved\n\n\n${ERROR_LINE}export const other: string = 4;\n`);
    const added = await runCheckCli(["--config", config, "--baseline", baseline], { cwd: root });
    expect(added.code).toBe(1);
    expect(added.stdout).toBe(
      "a.ts:5:14: error: Type 'number' is not assignable to type 'string'. [ts 2322]\n" +
        "1 file checked: 2 errors, 0 warnings, 0 information, 0 hints; 1 in the baseline; 1 at or above error\n",
    );
  });
});
