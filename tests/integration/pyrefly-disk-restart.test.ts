import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import type { ResolvedConfig } from "../../src/config/types.js";
import { Deadline } from "../../src/contract/deadline.js";
import { SILENT_LOGGER } from "../../src/contract/logger.js";
import type { LspClient } from "../../src/lsp/lsp-client.js";
import { refreshFromListing, refreshSeenFiles } from "../../src/disk-sync/refresh-from-disk.js";
import { projectStateOf } from "../../src/disk-sync/project-state.js";
import { SessionRegistry } from "../../src/sessions/session-registry.js";
import { writeConfig } from "../helpers/bridge.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// The restart for a change on disk (pyrefly's adapter: `diskChangesNeedRestart`), on the session
// layer itself with the real server: which client each call is handed, and how often the session
// restarts. The answers after it are proved through the bridge (servers-python-native.test.ts).
describe("pyrefly restarted for a change on disk", () => {
  let repo: TempRepo;
  let config: ResolvedConfig;
  let sessions: SessionRegistry;
  const pair = () => ({ workspace: config.workspaces[0]!, server: config.servers[0]! });
  const options = () => ({ deadline: Deadline.in(60_000) });
  const client = () => sessions.readyClient(pair().workspace, pair().server, Deadline.in(60_000));
  const restarts = () => sessions.get(pair().workspace, pair().server).status().restarts;
  const edit = (name: string) => writeFileSync(join(repo.root, "cafe/kettle.py"), `def ${name}() -> int:\n    return 100\n`);

  beforeAll(async () => {
    requireCachedTool("pyrefly/bin/pyrefly");
    repo = tempRepo({
      "cafe/__init__.py": "",
      "cafe/kettle.py": "def boil() -> int:\n    return 100\n",
      "cafe/brew.py": "from cafe.kettle import *\n\nprint(boil())\n",
    });
    config = await loadConfig(writeConfig(profilesConfig(repo.root, ["pyrefly"])));
    sessions = new SessionRegistry(config, SILENT_LOGGER);
  });
  afterAll(async () => {
    await sessions?.closeAll();
    repo?.remove();
  });

  test("the first look restarts nothing; one change restarts once, for every call that held the old client; no loop after", async () => {
    const first = await client();
    const looked = await refreshSeenFiles(sessions, pair(), first, options());
    expect(looked.client, "the first look is no change").toBe(first);
    expect(restarts()).toBe(0);

    edit("heat");
    // Both calls hold the old client before either looks; the complete look (a workspace
    // listing) and the quick one queue on the same turn.
    const [a, b] = await Promise.all([client(), client()]);
    expect([a, b]).toEqual([first, first]);
    const [one, two] = await Promise.all([refreshFromListing(sessions, pair(), a, options()), refreshSeenFiles(sessions, pair(), b, options())]);
    expect(one.client).not.toBe(first);
    expect(two.client, "the second call takes the restarted client").toBe(one.client);
    expect(first.isClosed).toBe(true);
    expect(restarts()).toBe(1);
    expect([...one.changed]).toEqual([join(repo.root, "cafe/kettle.py")]);

    const again = await refreshFromListing(sessions, pair(), one.client, options());
    expect(again.client, "the new server's look starts from the restart's").toBe(one.client);
    expect([...again.changed]).toEqual([]);
    expect(restarts()).toBe(1);
  });

  test("a change made after the look that restarts, while the new server starts, is found by the next look", async () => {
    const old: LspClient = await client();
    const base = restarts();
    edit("boil");
    const restarting = refreshSeenFiles(sessions, pair(), old, options());
    // Written once the look has decided the restart: the new server may or may not read it. Looked
    // for on every turn of the event loop (the look's own I/O goes on), within a deadline.
    const until = Date.now() + 60_000;
    while (projectStateOf(old).restarted === null) {
      if (Date.now() > until) throw new Error("the look never decided to restart pyrefly");
      await new Promise((resolve) => setImmediate(resolve));
    }
    edit("brew");
    const restarted = await restarting;
    expect(restarts()).toBe(base + 1);
    const next = await refreshSeenFiles(sessions, pair(), restarted.client, options());
    expect(restarts()).toBe(base + 2);
    expect(next.client).not.toBe(restarted.client);
    expect((await refreshSeenFiles(sessions, pair(), next.client, options())).client).toBe(next.client);
    expect(restarts()).toBe(base + 2);
  });
});
