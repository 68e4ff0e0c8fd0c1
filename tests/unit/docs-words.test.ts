// The pages lspmcp ships speak to its users about the product: none of them tells how it was made
// (issue or stop numbers, helpers, sessions of work, commit hashes, "this machine", the design
// contract's section marks). The pages are the package's own: README.md, docs/, the server
// profiles and their READMEs, bridge.toml.example, and the CLI's --help text.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { USAGE } from "../../src/cli/parse-args.js";
import { REPO } from "../helpers/paths.js";

const FORBIDDEN = [
  /\b[Ii]ssues? #?\d+/,
  /\b[Ss]tops? \d+/,
  /CONTRACT ?§/,
  /§ ?\d/,
  /\bthis (?:session|turn)\b/,
  /\bthe helpers?\b/,
  /\bhelper branch\b/,
  /\blanded\b/,
  /\bthis machine\b/,
  /\b[Tt]his issue\b/,
  /\b[Tt]he issue (?:asked|asks|said|says|wanted|wants)\b/,
  /#[a-z0-9-]*-(?:issue|stop)-\d+/,
  /\b(?:commit|at|before|after) [0-9a-f]{7,40}\b/,
];

/** Shipped page → its text. */
function shippedPages(): Map<string, string> {
  const paths = [
    "README.md",
    "bridge.toml.example",
    ...readdirSync(join(REPO, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
    ...readdirSync(join(REPO, "servers"))
      .filter((name) => name.endsWith(".toml"))
      .map((name) => `servers/${name}`),
    "servers/maude/README.md",
  ];
  return new Map([...paths.map((path): [string, string] => [path, readFileSync(join(REPO, path), "utf8")]), ["lspmcp --help", USAGE]]);
}

/**
 * The upstream projects whose issues a page may cite ("typescript-sdk issue #2559"): a fact about
 * that project, not about lspmcp's making. Only these: "… issue #N" after any other word (lspmcp's
 * own, or "the issue #N") is refused like any issue number.
 */
const UPSTREAM_PROJECTS = ["typescript-sdk"];
const UPSTREAM_ISSUE = new RegExp(`(?<![\\w-])(?:${UPSTREAM_PROJECTS.join("|")}) issue #\\d+`, "g");

/** Where `text` says how lspmcp was made: "LINE: the line" for each line that does. */
function howItWasMade(text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    const own = line.replace(UPSTREAM_ISSUE, "");
    if (FORBIDDEN.some((pattern) => pattern.test(own))) found.push(`${index + 1}: ${line.trim()}`);
  });
  return found;
}

test("no shipped page tells how lspmcp was made", () => {
  const found = [...shippedPages()].flatMap(([path, text]) => howItWasMade(text).map((line) => `${path}:${line}`));
  expect(found).toEqual([]);
});

test("an upstream project's issue is let pass only when the project is one of UPSTREAM_PROJECTS", () => {
  expect(howItWasMade("the SDK keeps one entry per request (typescript-sdk issue #2559).")).toEqual([]);
  expect(howItWasMade("Fixed in lspmcp issue #61.\nAs the bridge issue #7 asked.\nSee issue #3.")).toEqual([
    "1: Fixed in lspmcp issue #61.",
    "2: As the bridge issue #7 asked.",
    "3: See issue #3.",
  ]);
  expect(howItWasMade("a my-typescript-sdk issue #4 aside")).toEqual(["1: a my-typescript-sdk issue #4 aside"]);
});

test("every path of lspmcp's own sources a shipped page names exists", () => {
  // A page's example project has its files at the top of its src/ (src/app.ts); a path deeper
  // than that is lspmcp's own, and a renamed or moved file must take its mentions along.
  const missing: string[] = [];
  for (const [path, text] of shippedPages())
    for (const [named] of text.matchAll(/(?<![\w/.])src\/[\w-]+\/[\w./-]*[\w/]/g))
      if (!existsSync(join(REPO, named.replace(/\/$/, "")))) missing.push(`${path}: ${named}`);
  expect(missing).toEqual([]);
});
