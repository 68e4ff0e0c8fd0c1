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

test("no shipped page tells how lspmcp was made", () => {
  const found: string[] = [];
  for (const [path, text] of shippedPages()) {
    text.split("\n").forEach((line, index) => {
      // An upstream project's issue is a fact about that project, not about lspmcp's making.
      const own = line.replace(/[\w-]+ issue #\d+/g, "");
      for (const pattern of FORBIDDEN) if (pattern.test(own)) found.push(`${path}:${index + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
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
