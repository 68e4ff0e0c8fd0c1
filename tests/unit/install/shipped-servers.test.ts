// Every shipped profile says where its server comes from, and what `servers install` would run for
// each tool-cache source writes only into its staging folder and the shared build caches.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { profileNames } from "../../../src/config/profiles.js";
import { isCachedSource } from "../../../src/config/install-schema.js";
import { installHint } from "../../../src/config/install-hint.js";
import { toolCacheFolder } from "../../../src/config/tool-cache.js";
import { installSteps } from "../../../src/config/install-recipes.js";
import { loadShippedServers } from "../../../src/install/shipped-servers.js";
import { parseCommand } from "../../../src/cli/parse-args.js";
import { REPO } from "../../helpers/paths.js";

describe("the shipped profiles' install tables", () => {
  test("every profile has one; the tool cache's servers run from {cache}/FOLDER and have a version command", async () => {
    const servers = await loadShippedServers(REPO);
    expect(servers.map((server) => server.name)).toEqual(await profileNames(REPO));
    for (const server of servers) {
      const cached = isCachedSource(server.install);
      expect(toolCacheFolder(server.command) !== null, server.name).toBe(cached);
      if (cached) expect(server.versionCommand, server.name).not.toBeNull();
    }
    expect(
      Object.fromEntries(servers.filter((server) => isCachedSource(server.install)).map((server) => [server.name, toolCacheFolder(server.command)])),
    ).toEqual({
      "bacon-ls": "bacon-ls",
      basedpyright: "basedpyright",
      emmylua: "emmylua",
      gopls: "go",
      pyrefly: "pyrefly",
      ruff: "ruff",
      "rust-analyzer": "rust-analyzer",
      ty: "ty",
    });
  });

  test("the hint is the command that installs it", async () => {
    const byName = Object.fromEntries((await loadShippedServers(REPO)).map((server) => [server.name, server]));
    const hint = (name: string) => installHint(name, byName[name]!.install, byName[name]!.command);
    expect(hint("gopls")).toBe("lspmcp servers install gopls");
    expect(hint("pylsp")).toBe("apt-get install python3-pylsp python3-pyflakes");
    expect(hint("json")).toBe("reinstall lspmcp (its dependency vscode-langservers-extracted is missing)");
  });

  test("each step writes into the staging folder, or the build caches under {cache}/build", () => {
    const steps = installSteps({ from: "go", module: "golang.org/x/tools/gopls" }, "v0.23.0", "/c/.go.stage-1", "/c");
    expect(steps.map((step) => step.argv)).toEqual([["go", "install", "golang.org/x/tools/gopls@v0.23.0"]]);
    expect(steps[0]!.env).toMatchObject({ GOBIN: "/c/.go.stage-1/bin", GOMODCACHE: join("/c/build/go/mod"), GOTOOLCHAIN: "local" });
    const cargo = installSteps({ from: "cargo", crate: "ra_ap_rust-analyzer" }, "0.0.348", "/c/.rust-analyzer.stage-1", "/c");
    expect(cargo[0]!.argv).toEqual(["cargo", "install", "--locked", "ra_ap_rust-analyzer", "--version", "0.0.348", "--root", "/c/.rust-analyzer.stage-1"]);
    expect(cargo[0]!.env).toEqual({ CARGO_TARGET_DIR: "/c/build/ra_ap_rust-analyzer" });
  });

  test("a cargo install's `with` crates follow the server's, each at its own pin, in the same folder and target folder", () => {
    const steps = installSteps({ from: "cargo", crate: "bacon-ls", with: [{ crate: "bacon", version: "3.26.0" }] }, "0.31.0", "/c/.bacon-ls.stage-1", "/c");
    expect(steps.map((step) => step.argv)).toEqual([
      ["cargo", "install", "--locked", "bacon-ls", "--version", "0.31.0", "--root", "/c/.bacon-ls.stage-1"],
      ["cargo", "install", "--locked", "bacon", "--version", "3.26.0", "--root", "/c/.bacon-ls.stage-1"],
    ]);
    expect(steps.map((step) => step.env)).toEqual([{ CARGO_TARGET_DIR: "/c/build/bacon-ls" }, { CARGO_TARGET_DIR: "/c/build/bacon-ls" }]);
  });
});

describe("servers on the command line", () => {
  test("the listing and the three ways to choose what to install; anything else is a usage error", () => {
    expect(parseCommand(["servers"])).toEqual({ kind: "servers", format: "text" });
    expect(parseCommand(["servers", "--format", "json"])).toEqual({ kind: "servers", format: "json" });
    expect(parseCommand(["servers", "install", "gopls", "ruff"])).toEqual({
      kind: "servers-install",
      names: ["gopls", "ruff"],
      all: false,
      forPath: null,
      config: null,
    });
    expect(parseCommand(["servers", "install", "--all"])).toEqual({ kind: "servers-install", names: [], all: true, forPath: null, config: null });
    expect(parseCommand(["servers", "install", "--for", "."])).toEqual({ kind: "servers-install", names: [], all: false, forPath: ".", config: null });
    expect(parseCommand(["servers", "install", "--for", ".", "--config", "ci.toml"])).toMatchObject({ forPath: ".", config: "ci.toml" });
    for (const argv of [
      ["servers", "install"],
      ["servers", "install", "--config", "ci.toml", "gopls"],
      ["servers", "--config", "ci.toml"],
      ["servers", "install", "--all", "gopls"],
      ["servers", "gopls"],
      ["servers", "--all"],
      ["servers", "install", "--format", "json", "gopls"],
    ]) {
      expect(() => parseCommand(argv), argv.join(" ")).toThrow();
    }
  });
});
