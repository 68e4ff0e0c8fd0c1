import { execFileSync } from "node:child_process";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { tempDir } from "../helpers/temp.js";
import { BROKEN_TS, tempRepo } from "../helpers/temp-repo.js";

// Every refusal comes before any server starts: the revision is resolved first.
const repo = tempRepo({ "a.ts": BROKEN_TS });
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
writeFileSync(join(repo.root, "a.ts"), `${BROKEN_TS}// second\n`);
git(repo.root, "commit", "-q", "-am", "second");
const shallow = join(realpathSync(tempDir()), "shallow");
git(repo.root, "clone", "-q", "--depth", "1", `file://${repo.root}`, shallow);
const plain = realpathSync(tempDir());
writeFileSync(join(plain, "a.ts"), BROKEN_TS);

const CONFIG = writeConfig(`
[[server]]
name = "typescript"
profile = "typescript"

[[workspace]]
name = "repo"
root = ${JSON.stringify(repo.root)}
servers = ["typescript"]

[[workspace]]
name = "shallow"
root = ${JSON.stringify(shallow)}
servers = ["typescript"]

[[workspace]]
name = "plain"
root = ${JSON.stringify(plain)}
servers = ["typescript"]
`);

let bridge: Bridge;
beforeAll(async () => {
  bridge = await startBridge(CONFIG);
});
afterAll(async () => {
  await bridge?.close();
  repo.remove();
});

describe("diagnostics since: bad input is InvalidArguments naming since", () => {
  test("show without since", async () => {
    const error = await bridge.fail("diagnostics", { workspace: "repo", path: "a.ts", show: "resolved" });
    expect(error.code).toBe("InvalidArguments");
    expect(error.details).toMatchObject({ fields: ["show"], since: null });
  });

  test.each([["no-such-branch"], ["HEAD~5"], ["--output=/tmp/x"], ["   "]])("a revision git does not know: %s", async (since) => {
    const error = await bridge.fail("diagnostics", { workspace: "repo", path: "a.ts", since });
    expect(error.code).toBe("InvalidArguments");
    expect(error.details.since).toBe(since);
  });

  test("a workspace that is not in a git checkout", async () => {
    const error = await bridge.fail("diagnostics", { workspace: "plain", path: ".", since: "HEAD" });
    expect(error.code).toBe("InvalidArguments");
    expect(error.details).toMatchObject({ since: "HEAD", workspace: "plain", reason: "not a git checkout" });
    expect(error.message).toContain("not in one");
  });

  test("a shallow clone that lacks the commit says so; the commit it has works", async () => {
    const error = await bridge.fail("diagnostics", { workspace: "shallow", path: ".", since: "HEAD~1" });
    expect(error.code).toBe("InvalidArguments");
    expect(error.details).toMatchObject({ since: "HEAD~1", shallow: true });
    expect(error.message).toContain("shallow clone");
    const answer = await bridge.ok("diagnostics", { workspace: "shallow", path: ".", since: "HEAD" });
    expect(answer).toMatchObject({ introduced: 0, resolved: 0, unchanged: 1 });
  }, 120_000);

  test("the checkout is as it was", () => {
    expect(repo.status()).toBe("");
  });
});
