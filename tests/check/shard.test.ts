// `check --shard K/N` (CONTRACT §2): a deterministic share of the discovered files by a hash of
// the path; the N shards' findings together are the unsharded run's, each exactly once; SARIF
// names the shard in automationDetails.id.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { generateTsWorkspace, profileConfig } from "../helpers/generated-workspace.js";
import { runCheckCli } from "./helpers/cli.js";

let root: string;
let config: string;
const json = async (...extra: string[]) => {
  const run = await runCheckCli(["--config", config, "--format", "json", "--fail-on", "never", "--quiet", ...extra], { cwd: root });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as { items: { path: string }[]; summary: { files: number } };
};

beforeAll(() => {
  ({ root } = generateTsWorkspace(40, 10));
  config = writeConfig(profileConfig(root, "typescript"));
});

describe("check --shard K/N", () => {
  test("the shards' findings together are the unsharded run's, each exactly once", async () => {
    const whole = await json();
    const shards = await Promise.all([1, 2, 3].map((k) => json("--shard", `${k}/3`)));
    expect(shards.reduce((sum, shard) => sum + shard.summary.files, 0)).toBe(whole.summary.files);
    const together = shards.flatMap((shard) => shard.items.map((item) => JSON.stringify(item)));
    expect(together.sort()).toEqual(whole.items.map((item) => JSON.stringify(item)).sort());
    // A file's findings are all in one shard.
    const owner = new Map<string, number>();
    shards.forEach((shard, k) => {
      for (const item of shard.items) {
        expect([item.path, owner.get(item.path) ?? k]).toEqual([item.path, k]);
        owner.set(item.path, k);
      }
    });
    expect(owner.size).toBe(new Set(whole.items.map((item) => item.path)).size);
  }, 300_000);

  test("a file keeps its shard when others are added; SARIF names the shard", async () => {
    const before = await json("--shard", "2/3");
    writeFileSync(join(root, "src", "added.ts"), "export const added: number = 1;\n");
    const after = await json("--shard", "2/3");
    const paths = (report: { items: { path: string }[] }) => new Set(report.items.map((item) => item.path));
    for (const path of paths(before)) expect(paths(after).has(path)).toBe(true);
    const sarif = await runCheckCli(["--config", config, "--format", "sarif", "--fail-on", "never", "--quiet", "--shard", "2/3"], { cwd: root });
    expect(JSON.parse(sarif.stdout).runs[0].automationDetails.id).toBe("lspmcp/gen/typescript/shard-2-of-3/");
  }, 300_000);

  test.each(["0/3", "4/3", "1/0", "x/2", "2"])("--shard %s is a usage error (exit 2)", async (value) => {
    const run = await runCheckCli(["--config", config, "--shard", value], { cwd: root });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--shard must be K\/N/);
  });
});
