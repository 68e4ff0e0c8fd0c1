import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { copyFixtureWorkspace, profilesConfig } from "../helpers/workspace.js";

// The npm-installed servers of issue 20, one bridge, every session started at once (beforeAll).
const FILES = {
  yaml: "config.yaml",
  json: "settings.json",
  css: "styles.css",
  html: "page.html",
  dockerfile: "Dockerfile",
  svelte: "Widget.svelte",
  graphql: "menu.graphql",
} as const;

let bridge: Bridge;
let root: string;
const diagnostics: Record<string, any> = {};
const source = (path: string) => readFileSync(join(root, path), "utf8");
/** The range of `needle`'s first occurrence, `length` code points long (default: the needle's). */
const rangeOf = (path: string, needle: string, length = [...needle].length) => {
  const start = positionOf(source(path), needle);
  return { start, end: { line: start.line, column: start.column + length } };
};

beforeAll(async () => {
  root = copyFixtureWorkspace("langs");
  bridge = await startBridge(writeConfig(profilesConfig(root, Object.keys(FILES))));
  const answers = await Promise.all(Object.values(FILES).map((path) => bridge.ok("diagnostics", { path })));
  Object.keys(FILES).forEach((name, i) => (diagnostics[name] = answers[i]));
});
afterAll(async () => bridge?.close());

describe("diagnostics of the npm-installed servers, at exact code-point columns", () => {
  test("yaml-language-server: a schema type error from the file's $schema modeline", () => {
    expect(diagnostics.yaml.items).toEqual([
      {
        path: "config.yaml",
        range: rangeOf("config.yaml", '"🍵 eighty"'),
        severity: "error",
        code: "0",
        source: `yaml-schema: ${pathToFileURL(join(root, "config.schema.json")).href}`,
        message: 'Incorrect type. Expected "number".',
        channels: ["push"],
      },
    ]);
  });

  test("vscode-json-language-server: the same schema error, a warning without code or source, pulled", () => {
    expect(diagnostics.json.items).toEqual([
      {
        path: "settings.json",
        range: rangeOf("settings.json", '"🍵 eighty"'),
        severity: "warning",
        code: null,
        source: null,
        message: 'Incorrect type. Expected "number".',
        channels: ["pull"],
      },
    ]);
  });

  test("vscode-css-language-server: an unknown property after an astral character", () => {
    expect(diagnostics.css.items).toEqual([
      {
        path: "styles.css",
        range: rangeOf("styles.css", "colr"),
        severity: "warning",
        code: "unknownProperties",
        source: "css",
        message: "Unknown property: 'colr'",
        channels: ["pull"],
      },
    ]);
  });

  test("vscode-html-language-server: the embedded <style> is validated", () => {
    expect(diagnostics.html.items).toEqual([
      {
        path: "page.html",
        range: rangeOf("page.html", "colr"),
        severity: "warning",
        code: "unknownProperties",
        source: "css",
        message: "Unknown property: 'colr'",
        channels: ["pull"],
      },
    ]);
  });

  test("docker-langserver: a bare Dockerfile is claimed by its file name", () => {
    expect(diagnostics.dockerfile.items).toEqual([
      {
        path: "Dockerfile",
        range: rangeOf("Dockerfile", "8O"),
        severity: "error",
        code: "24",
        source: "dockerfile-utils",
        message: "Invalid containerPort: 8O",
        channels: ["push"],
      },
    ]);
  });

  test('svelte-language-server: the TypeScript error in <script lang="ts">', () => {
    expect(diagnostics.svelte.items).toEqual([
      {
        path: "Widget.svelte",
        range: rangeOf("Widget.svelte", "count"),
        severity: "error",
        code: "2322",
        source: "ts",
        message: "Type 'string' is not assignable to type 'number'.",
        channels: ["pull"],
      },
    ]);
  });

  test("graphql-lsp: a validation error whose range ends past the end of its line is clamped", () => {
    const at = positionOf(source("menu.graphql"), "price");
    const lineLength = [...source("menu.graphql").split("\n")[at.line - 1]!].length;
    expect(diagnostics.graphql.items).toEqual([
      {
        path: "menu.graphql",
        // The server's range covers one character more than the line holds.
        range: { start: at, end: { line: at.line, column: lineLength + 1 } },
        severity: "error",
        code: null,
        source: "GraphQL: Validation",
        message: 'Cannot query field "price" on type "Dish".',
        channels: ["push"],
      },
    ]);
  });
});

describe("hover of the npm-installed servers", () => {
  const hover = async (path: string, needle: string) => (await bridge.ok("hover", { path, ...positionOf(source(path), needle) })).contents as string;

  test("each server describes the symbol under the cursor", async () => {
    const [yaml, json, css, html, docker, svelte, graphql] = await Promise.all([
      hover("config.yaml", "port"),
      hover("settings.json", '"name"'),
      hover("styles.css", "color"),
      hover("page.html", "div"),
      hover("Dockerfile", "FROM"),
      hover("Widget.svelte", "label"),
      hover("menu.graphql", "dish"),
    ]);
    expect(yaml).toContain("The port it listens on.");
    expect(json).toContain("The service's name");
    expect(css).toContain("Sets the color of an element's text");
    expect(html).toContain("The div element has no special meaning at all.");
    expect(docker).toContain("Set the `baseImage` to use for subsequent instructions.");
    expect(svelte).toContain("let label: string");
    expect(graphql).toContain("Query.dish: Dish");
  });

  test("the svelte hover range is found at its code-point column", async () => {
    const at = rangeOf("Widget.svelte", "label");
    const result = await bridge.ok("hover", { path: "Widget.svelte", ...at.start });
    expect(result.range).toEqual(at);
  });
});

describe("definition of the npm-installed servers", () => {
  test("svelte and graphql go from a use to the definition", async () => {
    const [svelte, graphql] = await Promise.all([
      bridge.ok("definition", { path: "Widget.svelte", ...positionOf(source("Widget.svelte"), "label", "<p>{") }),
      bridge.ok("definition", { path: "menu.graphql", ...positionOf(source("menu.graphql"), "dish") }),
    ]);
    expect(svelte.items.map((item: any) => [item.path, item.range, item.text])).toEqual([
      ["Widget.svelte", rangeOf("Widget.svelte", "label"), '  export let label = "x";'],
    ]);
    // graphql-language-service's range is the field's whole definition, from its description.
    expect(graphql.items.map((item: any) => [item.path, item.range.start, item.text])).toEqual([
      ["schema.graphql", positionOf(source("schema.graphql"), '"A dish'), '  "A dish on the menu."'],
    ]);
  });
});

describe("document symbols", () => {
  test("the CSS rules and the Dockerfile instructions, in document order", async () => {
    const css = await bridge.ok("document_symbols", { path: "styles.css" });
    expect(css.items.map((s: any) => `${s.kind} ${s.name} ${s.range.start.line}:${s.range.start.column}`)).toEqual([
      `class .menu ${positionOf(source("styles.css"), ".menu").line}:${positionOf(source("styles.css"), ".menu").column}`,
      "class .card 2:1",
    ]);
    const docker = await bridge.ok("document_symbols", { path: "Dockerfile" });
    expect(docker.items.map((s: any) => s.name)).toEqual(["FROM", "EXPOSE", "RUN"]);
  });
});
