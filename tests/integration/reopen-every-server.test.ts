// Document eviction and reopen on every real server that has a profile (CONTRACT §3
// `max_open_documents`), and freshness across rewrites on real servers (issue 30). With the cap
// at 1, every call on another file closes the last one (didClose), and the next call on it opens
// it again: its answers must be the ones it had before, also when several calls ask about it at
// once while its reopen is still making room (the soak's empty document_symbols, which came from a
// request that reached tsserver before the reopen's didOpen). The answers compared first are a
// fresh session's first calls, so they also show that a first call answers as a later one does.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { copyFixtureWorkspace, profilesConfig } from "../helpers/workspace.js";

interface Case {
  /** Workspace root, and two files the profile's server claims in it. */
  readonly setup: () => { root: string; a: string; b: string };
  readonly requires?: () => void;
}

/** A fixture workspace's copy, with `a` copied to `b` when `b` is not one of its files. */
const fixture =
  (name: string, a: string, b: string, copy = false) =>
  () => {
    const root = copyFixtureWorkspace(name);
    if (copy) copyFileSync(join(root, a), join(root, b));
    return { root, a, b };
  };

/** A folder holding two copies of one text. */
const twoFiles = (a: string, b: string, text: string) => () => {
  const root = tempDir("lspmcp-reopen-");
  writeFileSync(join(root, a), text);
  writeFileSync(join(root, b), text);
  return { root, a, b };
};

const CASES: Record<string, Case> = {
  typescript: { setup: fixture("nav", "ts/geometry.ts", "ts/report.ts") },
  biome: { setup: fixture("langs", "lint.ts", "lint_copy.ts", true) },
  pyright: { setup: fixture("nav", "py/shapes.py", "py/report.py") },
  basedpyright: { setup: fixture("nav", "py/shapes.py", "py/report.py"), requires: () => requireCachedTool("basedpyright/node_modules/.bin/basedpyright") },
  ty: { setup: fixture("nav", "py/shapes.py", "py/report.py"), requires: () => requireCachedTool("ty/bin/ty") },
  pyrefly: { setup: fixture("nav", "py/shapes.py", "py/report.py"), requires: () => requireCachedTool("pyrefly/bin/pyrefly") },
  pylsp: { setup: fixture("langs", "inventory_lint.py", "inventory_copy.py", true), requires: () => requireBinary("pylsp") },
  ruff: { setup: fixture("python-lint", "cafe/menu.py", "cafe/orders.py"), requires: () => requireCachedTool("ruff/bin/ruff") },
  clangd: { setup: fixture("nav", "c/main.c", "c/stats.c"), requires: () => requireBinary("clangd") },
  ccls: { setup: fixture("langs", "cafe.c", "cafe_copy.c", true), requires: () => requireBinary("ccls") },
  fortls: { setup: fixture("langs", "cafe.f90", "cafe_copy.f90", true), requires: () => requireBinary("fortls") },
  yaml: { setup: fixture("langs", "config.yaml", "config_copy.yaml", true) },
  json: { setup: fixture("langs", "settings.json", "settings_copy.json", true) },
  css: { setup: fixture("langs", "styles.css", "styles_copy.css", true) },
  html: { setup: fixture("langs", "page.html", "page_copy.html", true) },
  dockerfile: { setup: fixture("langs", "Dockerfile", "Containerfile", true) },
  svelte: { setup: fixture("langs", "Widget.svelte", "Widget2.svelte", true) },
  graphql: { setup: fixture("langs", "menu.graphql", "schema.graphql") },
  bash: { setup: twoFiles("a.sh", "b.sh", '#!/bin/bash\ngreet() {\n  echo "hello $1"\n}\nfarewell() {\n  echo bye\n}\ngreet world\n') },
  maude: {
    setup: twoFiles("a.maude", "b.maude", readFileSync(join(REPO, "tests/fixtures/maude/recoverable.maude"), "utf8")),
    requires: () => requireBinary("maude"),
  },
  gopls: { setup: fixture("golang", "brew/brew.go", "cmd/cafe/main.go"), requires: () => (requireBinary("go"), requireCachedTool("go/bin/gopls")) },
  emmylua: { setup: fixture("lua", "cafe/orders.lua", "cafe/menu.lua"), requires: () => requireCachedTool("emmylua/bin/emmylua_ls") },
  "rust-analyzer": {
    setup: fixture("rust-crate", "cafe/src/lib.rs", "menu/src/lib.rs"),
    requires: () => (requireBinary("cargo"), requireCachedTool("rust-analyzer/bin/rust-analyzer")),
  },
  "bacon-ls": {
    setup: fixture("rust-crate", "cafe/src/lib.rs", "menu/src/lib.rs"),
    requires: () => (requireBinary("cargo"), requireCachedTool("bacon-ls/bin/bacon-ls")),
  },
};

/**
 * Every answer about one file that could change with a reopen, as the client received it (errors
 * included), both asked at once. The first answers are a fresh session's first calls: they must
 * be the later ones too (bash-language-server and graphql-language-service answer a documentSymbol
 * that arrives before they have taken the opened file in with [], which the bridge does not believe).
 */
async function answers(bridge: Bridge, path: string): Promise<string> {
  const [diagnostics, symbols] = await Promise.all([bridge.call("diagnostics", { path }), bridge.call("document_symbols", { path })]);
  return JSON.stringify({ diagnostics, symbols });
}

describe("with max_open_documents = 1, a closed and reopened document answers as before, on every profile", () => {
  test("every shipped profile has a case here", () => {
    const profiles = readdirSync(join(REPO, "servers"))
      .filter((file) => file.endsWith(".toml"))
      .map((file) => file.replace(/\.toml$/, ""));
    expect(Object.keys(CASES).sort()).toEqual(profiles.sort());
  });

  test.each(Object.keys(CASES))("%s", { timeout: 600_000 }, async (profile) => {
    const { setup, requires } = CASES[profile]!;
    requires?.();
    const { root, a, b } = setup();
    const config = profilesConfig(root, [profile]).replace("request_timeout_ms", "max_open_documents = 1\nrequest_timeout_ms");
    const bridge = await startBridge(writeConfig(config));
    try {
      const before = await answers(bridge, a);
      const parsed = JSON.parse(before) as { diagnostics: { structuredContent?: { total: number } }; symbols: { structuredContent?: { total: number } } };
      // Something to lose: the file has findings or symbols.
      expect((parsed.diagnostics.structuredContent?.total ?? 0) + (parsed.symbols.structuredContent?.total ?? 0), before).toBeGreaterThan(0);
      await answers(bridge, b);
      const status = (await bridge.ok("session_status")).sessions[0];
      expect(status, JSON.stringify(status)).toMatchObject({ open_documents: 1, max_open_documents: 1 });
      // Reopened by three calls at once, then once more after b closed it again.
      expect(await Promise.all([answers(bridge, a), answers(bridge, a), answers(bridge, a)])).toEqual([before, before, before]);
      await answers(bridge, b);
      expect(await answers(bridge, a)).toBe(before);
    } finally {
      await bridge.close();
    }
  });
});

describe("freshness across rewrites on real servers: clangd's push path, pyright's pull", () => {
  // Each generation rewrites the file with the same size: broken generations use an undeclared
  // name (C) or a str for an int (Python) on the last line where clean ones have a number, and the
  // function's name says which generation it is. Every answer must describe the bytes on disk.
  const LANGUAGES = {
    clangd: {
      file: "gen.c",
      text: (g: number, broken: boolean) => `int gen_${g}(void) { return 0; }\nint value = ${broken ? "nope" : "1234"};\n`,
      channel: "push",
      requires: () => requireBinary("clangd"),
    },
    pyright: {
      file: "gen.py",
      text: (g: number, broken: boolean) => `def gen_${g}() -> int:\n    return 0\nvalue: int = ${broken ? '"ab"' : "1234"}\n`,
      channel: "pull",
      requires: () => {},
    },
  };

  test.each(Object.keys(LANGUAGES) as (keyof typeof LANGUAGES)[])("%s", { timeout: 600_000 }, async (profile) => {
    const { file, text, channel, requires } = LANGUAGES[profile];
    requires();
    const root = tempDir("lspmcp-rewrites-");
    writeFileSync(join(root, file), text(1, false));
    const bridge = await startBridge(writeConfig(profilesConfig(root, [profile])));
    try {
      for (let generation = 1; generation <= 8; generation++) {
        const broken = generation % 2 === 0;
        writeFileSync(join(root, file), text(generation, broken));
        const diagnostics = await bridge.ok("diagnostics", { path: file });
        expect(
          diagnostics.items.map((item: { range: { start: { line: number } }; severity: string }) => `${item.range.start.line} ${item.severity}`),
          `generation ${generation}`,
        ).toEqual(broken ? [`${profile === "clangd" ? 2 : 3} error`] : []);
        const symbols = await bridge.ok("document_symbols", { path: file });
        expect(
          symbols.items.map((item: { name: string }) => item.name),
          `generation ${generation}`,
        ).toContain(`gen_${generation}`);
        // clangd only publishes; pyright registers pull diagnostics with a client that offers them.
        for (const item of diagnostics.items as { channels: string[] }[]) expect(item.channels).toEqual([channel]);
      }
    } finally {
      await bridge.close();
    }
  });
});
