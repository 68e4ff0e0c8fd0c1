// The Rust a tool-cache build needs is said where a user looks, and is the profile's own: each
// cargo profile names it (`install.rust`), `lspmcp servers` and an install's refusal say it from
// there, and the README's install section, docs/servers.md's install table and every "Rust 1.NN"
// of a shipped page say what the profiles do.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { buildToolchainOf, olderRust, toolchainVersionCheck } from "../../src/config/install-recipes.js";
import type { RawProfile } from "../../src/config/schema.js";
import { REPO } from "../helpers/paths.js";
import { shippedProfiles } from "../helpers/shipped-profiles.js";

const page = (path: string) => readFileSync(join(REPO, path), "utf8");
let cargo: [string, string | undefined][];

beforeAll(async () => {
  const profiles: Map<string, RawProfile> = await shippedProfiles();
  cargo = [...profiles].flatMap(([name, profile]) => (profile.install?.from === "cargo" ? [[name, profile.install.rust] as [string, string | undefined]] : []));
});

describe("the Rust each cargo profile needs", () => {
  test("every cargo profile names it", () => {
    expect(cargo.length).toBeGreaterThan(0);
    expect(cargo.filter(([, rust]) => rust === undefined).map(([name]) => name)).toEqual([]);
  });

  test("the README's install section and docs/servers.md's install table say each profile's", () => {
    const readme = page("README.md");
    const install = readme.slice(readme.indexOf("## Install"), readme.indexOf("\n## ", readme.indexOf("## Install") + 1)).replace(/\s+/g, " ");
    const servers = page("docs/servers.md");
    const table = servers.slice(servers.indexOf("| profile | built or installed with |")).split("\n");
    for (const [name, rust] of cargo) {
      expect(install, name).toMatch(new RegExp(`(?:Rust )?${rust!.replace(".", "\\.")}(?: or newer)? for ${name}\\b`));
      expect(table.find((row) => row.startsWith(`| \`${name}\` |`)) ?? "", name).toContain(`Rust ${rust}`);
    }
  });

  test("every Rust version a shipped page names is one a cargo profile needs", () => {
    const needed = new Set(cargo.map(([, rust]) => rust));
    const pages = [
      "README.md",
      ...readdirSync(join(REPO, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    const said = pages.flatMap((path) => [...page(path).matchAll(/\bRust (1\.\d+)\b/g)].map((match) => `${path}: ${match[1]}`));
    expect(said.filter((line) => !needed.has(line.slice(line.lastIndexOf(" ") + 1)))).toEqual([]);
  });

  test("the listing and an install's refusal say it", () => {
    expect(buildToolchainOf({ from: "cargo", crate: "bacon-ls", rust: "1.94" }).what).toBe("Rust 1.94 or newer (`cargo` on PATH)");
    expect(olderRust("cargo 1.93.1 (a 2026-01-01)\n", "1.94")).toBe("1.93");
    expect(olderRust("cargo 1.94.0 (b 2026-02-01)", "1.94")).toBeNull();
    expect(olderRust("cargo 2.0.0", "1.95")).toBeNull();
    expect(olderRust("not cargo", "1.95")).toBeNull();
    expect(toolchainVersionCheck({ from: "cargo", crate: "ra_ap_rust-analyzer", rust: "1.95" })?.older("cargo 1.94.1 (c 2026-02-20)")).toBe("Rust 1.94");
    expect(toolchainVersionCheck({ from: "go", module: "golang.org/x/tools/gopls" })).toBeNull();
  });
});

/**
 * The Maude server runs whatever `maude` interpreter is on PATH, unchecked (its profile pins the
 * server, not the interpreter): a page that names the interpreter's version says so beside it,
 * never that it is pinned.
 */
test("every shipped page that names the maude interpreter's version says it is not version-checked", () => {
  const pages = [
    "README.md",
    ...readdirSync(join(REPO, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ];
  const claims = pages.flatMap((path) =>
    page(path)
      .replace(/\s+/g, " ")
      .split(/(?<=\.) (?=[A-Z(*`])|\|/)
      .filter((sentence) => /maude/i.test(sentence) && /\b3\.\d+\b/.test(sentence))
      .map((sentence) => ({ path, sentence })),
  );
  expect(claims.length).toBeGreaterThan(0);
  expect(claims.filter(({ sentence }) => !sentence.includes("not version-checked")).map(({ path, sentence }) => `${path}: ${sentence}`)).toEqual([]);
});
