// A new user's first minute (CONTRACT §2): no config anywhere, `lspmcp` run as a program with no
// arguments (as an MCP client registers it: serve, shared mode) in a sub-folder of their
// repository, with XDG_RUNTIME_DIR unset — the usual case in containers and CI. Each server's first
// call answers: a cold start and load do not count against its deadline.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { waitForExit } from "../helpers/proc.js";
import { BROKEN_PY, BROKEN_TS, tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { pollUntil } from "../helpers/poll.js";

let repo: TempRepo;
let temp: string;
let bridge: Bridge;

beforeAll(async () => {
  repo = tempRepo({ "web/src/app.ts": BROKEN_TS, "tools/report.py": BROKEN_PY, "README.md": "# demo\n" });
  // The runtime folder falls back to the system temp folder: a private one here, outside the repo.
  temp = mkdtempSync(join(tmpdir(), "lspmcp-tmp-"));
  bridge = await startBridge(null, { TMPDIR: temp, LSPMCP_LOG_LEVEL: "info" }, { bare: true, cwd: join(repo.root, "web/src") });
});
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
  rmSync(temp, { recursive: true, force: true });
});

describe("serve with no config, from a sub-folder of a repo", () => {
  test("session_status lists exactly the shipped profiles whose languages occur: typescript and pyright", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions.map((session: any) => `${session.workspace}/${session.server}`).sort()).toEqual([
      `${repo.root.split("/").at(-1)}/pyright`,
      `${repo.root.split("/").at(-1)}/typescript`,
    ]);
    expect(status.left_out).toEqual([]);
  });

  test("diagnostics for both files come from the shipped, pinned profiles", { timeout: 300_000 }, async () => {
    const ts = await bridge!.ok("diagnostics", { path: "web/src/app.ts" });
    expect(ts.items).toEqual([
      expect.objectContaining({ severity: "error", code: "2322", range: expect.objectContaining({ start: { line: 1, column: 14 } }) }),
    ]);
    const py = await bridge!.ok("diagnostics", { path: "tools/report.py" });
    expect(py.items).toEqual([
      expect.objectContaining({ severity: "error", source: "Pyright", range: expect.objectContaining({ start: { line: 1, column: 14 } }) }),
    ]);
  });

  test("after the bridge ends, the repo is as it was and the runtime folder holds no lease and no lock", async () => {
    const runtime = join(temp, `lspmcp-${process.getuid!()}`);
    const leaseName = readdirSync(runtime).find((name) => name.endsWith(".lease"));
    expect(leaseName).toBeDefined();
    const shared = JSON.parse(readFileSync(join(runtime, leaseName!), "utf8")) as { pid: number };
    await bridge.close();
    expect(await waitForExit(shared.pid, 20_000)).toBe(true);
    expect(await pollUntil(() => !readdirSync(runtime).some((name) => name.endsWith(".lease")), 5_000)).toBe(true);
    expect(readdirSync(runtime).sort()).toEqual(["shared-servers.log"]);
    expect(repo.status()).toBe("");
  });
});
