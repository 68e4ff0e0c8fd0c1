// The shelf a user gets: README.md, the pages of docs/ and bridge.toml.example (which
// configuration.md points at in the package) ship in the package, the contributors'
// pages (docs/contributors/) do not, every relative link of either resolves in the repository,
// and the user pages stay short enough to read.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "vitest";
import { REPO } from "../helpers/paths.js";

const pagesIn = (folder: string): string[] =>
  readdirSync(join(REPO, folder))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `${folder}/${name}`);
const USER_PAGES = ["README.md", ...pagesIn("docs")];
const CONTRIBUTOR_PAGES = ["CONTRIBUTING.md", ...pagesIn("docs/contributors")];

/**
 * The user pages' words, at most: a page that grows must make room elsewhere, and what a user does
 * not need (how it was measured, why it is built so) belongs in docs/contributors/.
 */
const USER_WORDS_CEILING = 20_000;

const words = (path: string): number => readFileSync(join(REPO, path), "utf8").split(/\s+/).filter(Boolean).length;

test("the package holds the user pages and none of the contributors'", () => {
  const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--silent"], { cwd: REPO, encoding: "utf8" })) as {
    files: { path: string }[];
  }[];
  const files = new Set(packed[0]!.files.map((file) => file.path));
  expect([...USER_PAGES, "bridge.toml.example"].filter((page) => !files.has(page))).toEqual([]);
  expect([...files].filter((file) => file.startsWith("docs/contributors/") || file === "CONTRIBUTING.md")).toEqual([]);
});

test("every relative link of a user or contributor page names a file of the repository", () => {
  const broken: string[] = [];
  for (const page of [...USER_PAGES, ...CONTRIBUTOR_PAGES])
    for (const [, target] of readFileSync(join(REPO, page), "utf8").matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g))
      if (!/^[a-z]+:/.test(target!) && !existsSync(join(REPO, dirname(page), target!))) broken.push(`${page}: ${target}`);
  expect(broken).toEqual([]);
});

test(`the user pages hold at most ${USER_WORDS_CEILING} words`, () => {
  const count = USER_PAGES.reduce((sum, page) => sum + words(page), 0);
  expect(count).toBeLessThanOrEqual(USER_WORDS_CEILING);
});

test("every page of docs/ says near its top what its reader can do after it", () => {
  const silent = USER_PAGES.filter((page) => page.startsWith("docs/")).filter((page) => {
    const top = readFileSync(join(REPO, page), "utf8").split("\n").slice(0, 12).join(" ");
    return !/After this page you (?:can|know)\b/.test(top);
  });
  expect(silent).toEqual([]);
});
