// A user reads the package's pages offline, in the package: every link of a shipped page (README.md,
// docs/*.md) must land on a page the package holds, and on a heading that page has. A link into
// docs/contributors/ (not shipped), to a missing file or to a missing anchor fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { expect, test } from "vitest";
import { REPO } from "../helpers/paths.js";

const SHIPPED = [
  "README.md",
  "servers/maude/README.md",
  ...readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The anchors GitHub gives a page's headings: lowercased, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  for (const [, heading] of withoutCode.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Each link of a shipped page that leads nowhere a user of the package can follow, with why. */
function brokenLinks(
  page: string,
  text: string,
  files: { ships: (path: string) => boolean; exists: (path: string) => boolean; read: (path: string) => string },
): string[] {
  const broken: string[] = [];
  const prose = text.replace(/^```[\s\S]*?^```$/gm, "");
  for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue;
    const [file = "", anchor] = target!.split("#");
    const path = file === "" ? page : normalize(join(dirname(page), file));
    if (path.startsWith("docs/contributors/") || !files.ships(path)) broken.push(`${page}: ${target} (not in the package)`);
    else if (!files.exists(path)) broken.push(`${page}: ${target} (no such file)`);
    else if (anchor !== undefined && path.endsWith(".md") && !anchorsOf(files.read(path)).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
  }
  return broken;
}

/** Whether the package's `files` take `path` in: the shipped pages, and what else a page may link (the example config, a profile). */
function packed(path: string): boolean {
  return (
    SHIPPED.includes(path) ||
    /^servers\/[^/]+\.toml$/.test(path) ||
    path === "servers/maude/README.md" ||
    path === "config/bridge.schema.json" ||
    path === "bridge.toml.example" ||
    path === "LICENSE"
  );
}

test("every link of a shipped page lands on a shipped page, and on a heading it has", () => {
  const read = (path: string) => readFileSync(join(REPO, path), "utf8");
  const exists = (path: string) => existsSync(join(REPO, path));
  expect(SHIPPED.flatMap((page) => brokenLinks(page, read(page), { ships: packed, exists, read }))).toEqual([]);
});

test("a link into the contributors' notes, to a missing page or to a missing heading is found", () => {
  const pages: Record<string, string> = { "docs/a.md": "# A page\n\n## Its `key`: a part\n", "docs/contributors/notes.md": "# Notes\n" };
  const exists = (path: string) => path in pages;
  const read = (path: string) => pages[path]!;
  const links = (text: string) => brokenLinks("docs/b.md", text, { ships: (path) => !path.startsWith("docs/contributors/"), exists, read }).length;
  expect(links("[a](a.md) [a's key](a.md#its-key-a-part)")).toBe(0);
  expect(links("[notes](contributors/notes.md)")).toBe(1);
  expect(links("[gone](gone.md)")).toBe(1);
  expect(links("[a](a.md#no-such-part)")).toBe(1);
});
