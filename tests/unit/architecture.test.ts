// docs/architecture.md lists every arrow between rooms (folders of src/, and the Maude server);
// this reads the arrows the imports really have and holds the two equal, so the map cannot drift
// from the code.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO } from "../helpers/paths.js";

const ROOTS: Record<string, string> = { src: "", "servers/maude/src": "maude" };

/** The room of a file: its folder under src/, or "maude". */
function roomOf(file: string): string | undefined {
  for (const [root, name] of Object.entries(ROOTS)) {
    const rel = relative(join(REPO, root), file);
    if (rel.startsWith("..")) continue;
    return name === "" ? rel.split(sep)[0] : name;
  }
  return undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

function arrowsInCode(): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  for (const root of Object.keys(ROOTS)) {
    for (const file of sourceFiles(join(REPO, root))) {
      const from = roomOf(file)!;
      if (!arrows.has(from)) arrows.set(from, new Set());
      for (const match of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
        const to = roomOf(resolve(dirname(file), match[1]!));
        if (to !== undefined && to !== from) arrows.get(from)!.add(to);
      }
    }
  }
  return arrows;
}

function arrowsInDocs(): Map<string, Set<string>> {
  const text = readFileSync(join(REPO, "docs/architecture.md"), "utf8");
  const block = text.slice(text.indexOf("<!-- arrows -->"), text.indexOf("<!-- /arrows -->"));
  const arrows = new Map<string, Set<string>>();
  for (const line of block.split("\n")) {
    const match = /^(\S+)\s+→\s*(.*)$/.exec(line);
    if (match)
      arrows.set(
        match[1]!,
        new Set(
          match[2]!
            .split(",")
            .map((room) => room.trim())
            .filter(Boolean),
        ),
      );
  }
  return arrows;
}

const sorted = (arrows: Map<string, Set<string>>): Record<string, string[]> =>
  Object.fromEntries([...arrows].sort(([a], [b]) => a.localeCompare(b)).map(([room, to]) => [room, [...to].sort()]));

describe("docs/architecture.md", () => {
  test("draws every arrow the imports have, and no other", () => {
    expect(sorted(arrowsInDocs())).toEqual(sorted(arrowsInCode()));
  });
});
