import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InitializeRequest, PublishDiagnosticsNotification, ResponseError, type Diagnostic } from "vscode-languageserver-protocol";
import { afterEach, describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { ADAPTERS } from "../../../src/languages/index.js";
import { biomeAdapter } from "../../../src/languages/biome/adapter.js";
import { goplsAdapter } from "../../../src/languages/gopls/adapter.js";
import { rustAnalyzerAdapter } from "../../../src/languages/rust-analyzer/adapter.js";
import type { AdapterFactory } from "../../../src/lsp/server-adapter.js";
import type { ServerEvent } from "../../../src/lsp/server-events.js";
import { connectInProcess, disposePeers } from "../../helpers/in-process-server.js";
import { tempDir } from "../../helpers/temp.js";

// Each server's ways, as its adapter says them to the client and to the settle wait.
afterEach(disposePeers);
const options = () => ({ deadline: Deadline.in(5_000) });
const d = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message });

describe("what each adapter says of its server", () => {
  test.each([
    ["standard", "standard", []],
    ["biome", "after-progress", []],
    ["ccls", "standard", ["index"]],
    ["gopls", "barrier", []],
    ["rust-analyzer", "flycheck", []],
  ] as const)("%s: settles by %s, ignores progress %j, and is picked by its name", (name, settle, ignored) => {
    const { client } = connectInProcess({}, () => {}, ADAPTERS[name]);
    const { settle: strategy } = client.adapter;
    const settles = typeof strategy === "object" ? strategy.name : strategy;
    expect([client.adapter.name, settles, [...client.adapter.ignoredProgress]]).toEqual([name, settle, ignored]);
    expect([client.adapter.filesWatchedBy, client.adapter.projectModel]).toEqual(["server", null]);
  });

  test("rust-analyzer runs one worker thread whatever the profile says; every other adapter sends the profile's options", () => {
    const configured = { checkOnSave: true, numThreads: 8 };
    const { client } = connectInProcess({}, () => {}, rustAnalyzerAdapter);
    expect(client.adapter.initializationOptions(configured, [], true)).toEqual({ checkOnSave: true, numThreads: 1 });
    for (const name of ["standard", "biome", "ccls", "gopls"] as const) {
      expect(connectInProcess({}, () => {}, ADAPTERS[name]).client.adapter.initializationOptions(configured, [], true)).toEqual(configured);
    }
  });

  test("TypeScript 7 is asked for its problems only while nobody reads its log; a profile's own verbosity wins", () => {
    const { client } = connectInProcess({}, () => {}, ADAPTERS.typescript);
    expect(client.adapter.initializationOptions({}, [], false)).toEqual({ logVerbosity: 4 });
    expect(client.adapter.initializationOptions({}, [], true)).toEqual({});
    expect(client.adapter.initializationOptions({ logVerbosity: 2 }, [], false)).toEqual({ logVerbosity: 2 });
  });

  test("initialize sends the adapter's options, not the profile's alone", async () => {
    let sent: unknown;
    const { client } = connectInProcess(
      {},
      (server) =>
        server.onRequest(InitializeRequest.type, (params) => {
          sent = params.initializationOptions;
          return { capabilities: {} };
        }),
      rustAnalyzerAdapter,
    );
    await client.initialize(Deadline.in(5_000));
    expect(sent).toEqual({ numThreads: 1 });
  });

  test("rust-analyzer links each project root's Cargo.toml, unless the profile links its own", () => {
    const { client } = connectInProcess({}, () => {}, rustAnalyzerAdapter);
    expect(client.adapter.initializationOptions({}, ["/w/services/b", "/w/tools/a"], true)).toEqual({
      linkedProjects: ["/w/services/b/Cargo.toml", "/w/tools/a/Cargo.toml"],
      numThreads: 1,
    });
    expect(client.adapter.initializationOptions({ linkedProjects: ["/w/x/Cargo.toml"] }, ["/w/tools/a"], true)).toEqual({
      linkedProjects: ["/w/x/Cargo.toml"],
      numThreads: 1,
    });
  });

  test("initialize sends the project roots as workspace folders after the root, except to rust-analyzer", async () => {
    const folders = async (adapter: AdapterFactory) => {
      let sent: unknown;
      const { client } = connectInProcess(
        {},
        (server) =>
          server.onRequest(InitializeRequest.type, (params) => {
            sent = params.workspaceFolders;
            return { capabilities: {} };
          }),
        adapter,
        ["/w", "/w/packages/core"],
      );
      await client.initialize(Deadline.in(5_000));
      return sent;
    };
    expect(await folders(ADAPTERS.standard)).toEqual([
      { uri: "file:///w", name: "w" },
      { uri: "file:///w/packages/core", name: "w/packages/core" },
    ]);
    expect(await folders(rustAnalyzerAdapter)).toEqual([{ uri: "file:///w", name: "w" }]);
  });

  test("the standard adapter carries out no settle action", async () => {
    const { client } = connectInProcess({}, () => {}, ADAPTERS.standard);
    await expect(client.adapter.perform("barrier", options())).rejects.toMatchObject({ code: "NotSupported" });
  });
});

describe("gopls's barrier", () => {
  test("any answer is the barrier, MethodNotFound included; it is told to the rule as barrier-answer", async () => {
    const { client } = connectInProcess({}, () => {}, goplsAdapter);
    await expect(client.adapter.perform("barrier", options())).resolves.toEqual({ type: "barrier-answer" });
  });

  test("a server error answer is the barrier too; a closed connection is not", async () => {
    const { client, toClient } = connectInProcess({}, (server) => server.onRequest("$/lspmcp/barrier", () => new ResponseError(-32603, "no")), goplsAdapter);
    await expect(client.adapter.perform("barrier", options())).resolves.toEqual({ type: "barrier-answer" });
    toClient.end();
    await expect(client.adapter.perform("barrier", options())).rejects.toMatchObject({ code: "ServerCrashed" });
  });
});

describe("gopls and a file a preview creates", () => {
  test("a Go file in a folder with no Go file on disk is not checked; one beside a package, or a go.mod, is", () => {
    const { client } = connectInProcess({}, () => {}, goplsAdapter);
    const root = tempDir("lspmcp-gopls-created-");
    writeFileSync(join(root, "lib.go"), "package lib\n");
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs", "README.md"), "notes\n");
    const { createdNotChecked } = client.adapter;
    expect(createdNotChecked(join(root, "new.go"))).toBeNull();
    expect(createdNotChecked(join(root, "fresh", "go.mod"))).toBeNull();
    for (const path of [join(root, "docs", "docs.go"), join(root, "fresh", "fresh.go"), join(root, "a", "b", "c_test.go")]) {
      expect(createdNotChecked(path)).toMatch(/^a new package: /);
    }
  });
});

describe("rust-analyzer's flycheck", () => {
  test("a run is asked for once until it begins, and every wait hears that it was", async () => {
    let asked = 0;
    let heard!: () => void;
    const twice = new Promise<void>((resolve) => (heard = resolve));
    const { client } = connectInProcess(
      {},
      (server) =>
        server.onNotification("rust-analyzer/runFlycheck", () => {
          if (++asked === 1) heard();
        }),
      rustAnalyzerAdapter,
    );
    const told: ServerEvent["type"][] = [];
    client.events.subscribe((event) => told.push(event.type));
    expect(await client.adapter.perform("flycheck", options())).toBeNull();
    expect(await client.adapter.perform("flycheck", options())).toBeNull();
    await twice;
    expect([asked, told]).toEqual([1, ["flycheck-requested"]]);
    expect(client.adapter.startingEvents("file:///w/a.rs")[1]).toEqual({ type: "flycheck-history", everBegun: false, pending: true });
  });

  test("every publish is kept whatever its version, and a wait starts from the file's last set", async () => {
    const uri = "file:///w/src/lib.rs";
    let publish!: (version: number | undefined, diagnostics: Diagnostic[]) => Promise<void>;
    const { client } = connectInProcess(
      {},
      (server) => (publish = (version, diagnostics) => server.sendNotification(PublishDiagnosticsNotification.type, { uri, version, diagnostics })),
      rustAnalyzerAdapter,
    );
    const told = new Promise<ServerEvent>((resolve) => client.events.subscribe((event) => event.type === "flycheck-publish" && resolve(event)));
    await publish(3, [d("E0308")]);
    expect(await told).toEqual({ type: "flycheck-publish", uri, diagnostics: [d("E0308")] });
    expect(client.adapter.startingEvents(uri)).toEqual([
      { type: "status", quiescent: false },
      { type: "flycheck-history", everBegun: false, pending: false },
      { type: "flycheck-publish", uri, diagnostics: [d("E0308")] },
    ]);
  });

  test("the other adapters keep nothing of publishes", () => {
    const { client } = connectInProcess({}, () => {}, biomeAdapter);
    expect(client.adapter.startingEvents("file:///w/a.ts")).toEqual([]);
  });
});
