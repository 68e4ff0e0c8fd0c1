// docs/architecture.md lists every arrow between rooms (folders of src/, and the Maude server),
// one room a line from the top floor down; this reads the arrows the imports really have and holds
// the two equal, so the map cannot drift from the code, and holds every arrow to run down that
// list, so no room ever imports one above it (nor, then, two rooms each other).
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

/** The arrows of the docs' list, its rooms in the list's order (top floor first). */
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

/** Each arrow of `arrows` that does not run down `order` (to a room listed after its own), as "from → to". */
function arrowsRunningUp(order: readonly string[], arrows: Map<string, Set<string>>): string[] {
  return [...arrows].flatMap(([from, to]) => [...to].filter((room) => order.indexOf(room) <= order.indexOf(from)).map((room) => `${from} → ${room}`));
}

describe("docs/architecture.md", () => {
  test("draws every arrow the imports have, and no other", () => {
    expect(sorted(arrowsInDocs())).toEqual(sorted(arrowsInCode()));
  });

  test("lists the rooms so that every arrow of the code runs down the list: none runs back up", () => {
    const order = [...arrowsInDocs().keys()];
    expect(arrowsRunningUp(order, arrowsInCode())).toEqual([]);
  });

  test("an arrow back up is found (a room importing one listed above it)", () => {
    const arrows = new Map([
      ["tools", new Set(["calls"])],
      ["calls", new Set(["tools"])],
    ]);
    expect(arrowsRunningUp(["tools", "calls"], arrows)).toEqual(["calls → tools"]);
  });
});

// A server's ways live in its adapter: the rest of the bridge asks the adapter interface and never
// which server it talks to, and TypeScript's room is reached only through the adapters' index.
describe("the adapters' rooms", () => {
  const ADAPTERS = join(REPO, "src/lsp/adapters");
  const TYPESCRIPT = join(ADAPTERS, "typescript");
  const inside = (file: string, dir: string): boolean => !relative(dir, file).startsWith("..");
  const allSources = (): string[] => Object.keys(ROOTS).flatMap((root) => sourceFiles(join(REPO, root)));

  /** The files outside `room` that import a file of it, relative to the repository. */
  function importersFromOutside(room: string, files: readonly string[], read = (file: string) => readFileSync(file, "utf8")): string[] {
    return files
      .filter(
        (file) =>
          !inside(file, room) &&
          [...read(file).matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].some((match) => inside(resolve(dirname(file), match[1]!), room)),
      )
      .map((file) => relative(REPO, file));
  }

  test("only the adapters' index imports TypeScript's room", () => {
    expect(importersFromOutside(TYPESCRIPT, allSources())).toEqual(["src/lsp/adapters/index.ts"]);
  });

  test("an import of TypeScript's room from elsewhere is found", () => {
    const stray = join(REPO, "src/diagnostics/stray.ts");
    const files = [join(ADAPTERS, "index.ts"), stray];
    const read = (file: string) => (file === stray ? 'import { x } from "../lsp/adapters/typescript/launch.js";' : readFileSync(file, "utf8"));
    expect(importersFromOutside(TYPESCRIPT, files, read)).toEqual(["src/lsp/adapters/index.ts", "src/diagnostics/stray.ts"]);
  });

  test("no code outside the adapters decides by a server's adapter name or speaks tsserver's passthrough", () => {
    const deciding = /\badapter(?:\.name)?\s*[!=]==?\s*["']|typescript\.tsserverRequest/;
    const found = allSources()
      .filter((file) => !inside(file, ADAPTERS))
      .filter((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .some((line) => !/^\s*(?:\/\/|\*)/.test(line) && deciding.test(line)),
      )
      .map((file) => relative(REPO, file));
    expect(found).toEqual([]);
  });
});
