// docs/contributors/architecture.md lists every arrow between rooms (folders of src/, and the Maude server),
// one room a line from the top floor down; this reads the arrows the imports really have and holds
// the two equal, so the map cannot drift from the code, and holds every arrow to run down that
// list, so no room ever imports one above it (nor, then, two rooms each other).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT_MARKERS } from "../../src/languages/index.js";
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
  const text = readFileSync(join(REPO, "docs/contributors/architecture.md"), "utf8");
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

describe("docs/contributors/architecture.md", () => {
  test("draws every arrow the imports have, and no other", () => {
    expect(sorted(arrowsInDocs())).toEqual(sorted(arrowsInCode()));
  });

  test("lists the rooms so that every arrow of the code runs down the list: none runs back up", () => {
    const order = [...arrowsInDocs().keys()];
    expect(arrowsRunningUp(order, arrowsInCode())).toEqual([]);
  });

  test("stays a ten-minute read: at most 27,000 characters", () => {
    expect(readFileSync(join(REPO, "docs/contributors/architecture.md"), "utf8").length).toBeLessThanOrEqual(27_000);
  });

  test("an arrow back up is found (a room importing one listed above it)", () => {
    const arrows = new Map([
      ["tools", new Set(["calls"])],
      ["calls", new Set(["tools"])],
    ]);
    expect(arrowsRunningUp(["tools", "calls"], arrows)).toEqual(["calls → tools"]);
  });
});

/** Each source file's imports of other source files (relative ones, `.js` read as its `.ts`). */
function fileImports(files: readonly string[], read = (file: string) => readFileSync(file, "utf8")): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      [...read(file).matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)]
        .map((match) => resolve(dirname(file), match[1]!).replace(/\.js$/, ".ts"))
        .filter((target) => known.has(target)),
    ]),
  );
}

/** The import circles among `imports`' files (each a strongly connected set of two or more, or a file importing itself), by Tarjan's algorithm. */
function importCircles(imports: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of imports.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1 || (imports.get(file) ?? []).includes(file)) circles.push(circle.map((one) => relative(REPO, one)).sort());
  };
  for (const file of imports.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe("the import graph of the sources", () => {
  const allSources = (): string[] => Object.keys(ROOTS).flatMap((root) => sourceFiles(join(REPO, root)));

  test("has no circle: no file reaches itself through its imports, type imports included", () => {
    expect(importCircles(fileImports(allSources()))).toEqual([]);
  });

  test("a circle is found, however long", () => {
    const [a, b, c] = ["src/x/a.ts", "src/x/b.ts", "src/y/c.ts"].map((file) => join(REPO, file));
    const texts = new Map([
      [a!, 'import type { B } from "./b.js";'],
      [b!, 'import { c } from "../y/c.js";'],
      [c!, 'import { a } from "../x/a.js";'],
    ]);
    expect(importCircles(fileImports([a!, b!, c!], (file) => texts.get(file)!))).toEqual([["src/x/a.ts", "src/x/b.ts", "src/y/c.ts"]]);
  });
});

// A server's ways live in its language's folder under src/languages/: the rest of the bridge asks
// the registry (src/languages/index.ts) and the adapter interface, never which server it talks to.
describe("the languages' rooms", () => {
  const LANGUAGES = join(REPO, "src/languages");
  const REGISTRY = join(LANGUAGES, "index.ts");
  const inside = (file: string, dir: string): boolean => !relative(dir, file).startsWith("..");
  const allSources = (): string[] => Object.keys(ROOTS).flatMap((root) => sourceFiles(join(REPO, root)));
  /** A language's folder: a folder directly under src/languages/. */
  const languageFolderOf = (file: string): string | null => {
    const parts = relative(LANGUAGES, file).split(sep);
    return parts[0] === ".." || parts.length < 2 ? null : join(LANGUAGES, parts[0]!);
  };

  /** Each import that breaks the registry's rule, as "importer → imported" relative to the repository. */
  function strayImports(files: readonly string[], read = (file: string) => readFileSync(file, "utf8")): string[] {
    const stray: string[] = [];
    for (const [file, targets] of fileImports(files, read)) {
      for (const target of targets) {
        const folder = languageFolderOf(target);
        // Outside src/languages/, the registry is the only way in.
        const outsideIn = !inside(file, LANGUAGES) && inside(target, LANGUAGES) && target !== REGISTRY;
        // Inside it, a language's folder is imported by the registry and by its own files alone.
        const intoLanguage = folder !== null && file !== REGISTRY && !inside(file, folder);
        if (outsideIn || intoLanguage) stray.push(`${relative(REPO, file)} → ${relative(REPO, target)}`);
      }
    }
    return stray;
  }

  test("only the registry imports a language's folder, and nothing outside src/languages/ imports anything of it but the registry", () => {
    expect(strayImports(allSources())).toEqual([]);
  });

  test("an import past the registry is found, from outside and from another language", () => {
    const stray = join(REPO, "src/diagnostics/stray.ts");
    const launch = join(LANGUAGES, "launch.ts");
    const gopls = join(LANGUAGES, "gopls/adapter.ts");
    const files = [REGISTRY, stray, launch, gopls, join(LANGUAGES, "typescript/launch.ts"), join(LANGUAGES, "standard.ts")];
    const texts = new Map([
      [stray, 'import { x } from "../languages/launch.js";'],
      [launch, 'import { y } from "./typescript/launch.js";'],
      [gopls, 'import { z } from "../typescript/launch.js";\nimport { standardAdapter } from "../standard.js";'],
    ]);
    const read = (file: string) => texts.get(file) ?? readFileSync(file, "utf8");
    expect(strayImports(files, read)).toEqual([
      "src/diagnostics/stray.ts → src/languages/launch.ts",
      "src/languages/launch.ts → src/languages/typescript/launch.ts",
      "src/languages/gopls/adapter.ts → src/languages/typescript/launch.ts",
    ]);
  });

  test("no code outside the languages decides by a server's adapter name or speaks tsserver's passthrough", () => {
    const deciding = /\badapter(?:\.name)?\s*[!=]==?\s*["']|typescript\.tsserverRequest/;
    const found = allSources()
      .filter((file) => !inside(file, LANGUAGES))
      .filter((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .some((line) => !/^\s*(?:\/\/|\*)/.test(line) && deciding.test(line)),
      )
      .map((file) => relative(REPO, file));
    expect(found).toEqual([]);
  });
});

// A toolchain's words belong to the languages (src/languages/) and to the config that names them
// (src/config/, which also holds how each install source builds: cargo's among them): elsewhere
// they stand in comments only. One file outside is let name one: src/contract/toolchain-fields.ts
// keeps the product's output names for the toolchain that answers (`compiler_source` and
// `compiler_path` of session_status, `compiler` in a run of check's JSON report), which the user
// pages and the clients that read them fix; the code everywhere else says "toolchain".
describe("a toolchain's words outside the languages and the config", () => {
  const WORDS = /tsconfig|tsserver|compiler|cargo/i;
  const allSources = (): string[] => sourceFiles(join(REPO, "src"));
  const OUTPUT_NAMES = ["src/contract/toolchain-fields.ts"];

  /** The code of a file without its comments (a `//` after a colon, as in a URL, is kept). */
  const codeOf = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

  /** The files outside src/languages/ and src/config/ whose code names a toolchain's words, relative to the repository. */
  function naming(files: readonly string[], read = (file: string) => readFileSync(file, "utf8")): string[] {
    const blind = [join(REPO, "src/languages"), join(REPO, "src/config")];
    return files
      .filter((file) => blind.every((dir) => relative(dir, file).startsWith("..")))
      .filter((file) => WORDS.test(codeOf(read(file))))
      .map((file) => relative(REPO, file))
      .sort();
  }

  test("appear in comments only, but in the one file of the output's names", () => {
    expect(naming(allSources())).toEqual(OUTPUT_NAMES);
  });

  // The config knows the kinds of project root its `projects` key names; what makes a folder a
  // root of each kind is the language's that reads it, given by the registry's ROOT_MARKERS.
  test("the config's code names no file that marks a project root: the languages own their markers", () => {
    const markerFiles = new Set(Object.values(ROOT_MARKERS).flatMap((markers) => [...markers.files, ...markers.tables.map(({ file }) => file)]));
    expect(markerFiles).toContain("tsconfig.json");
    const found = sourceFiles(join(REPO, "src/config")).flatMap((file) => {
      const code = codeOf(readFileSync(file, "utf8"));
      return [...markerFiles].filter((name) => code.includes(`"${name}"`)).map((name) => `${relative(REPO, file)}: ${name}`);
    });
    expect(found).toEqual([]);
  });

  /** The files outside src/git/run-git.ts whose code starts git: an argv or a spawn whose program is "git". */
  function gitStarters(files: readonly string[], read = (file: string) => readFileSync(file, "utf8")): string[] {
    const startsGit = /(?:\[|\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync)\()\s*["'`]git["'`\s]/;
    return files.filter((file) => file !== join(REPO, "src/git/run-git.ts") && startsGit.test(codeOf(read(file)))).map((file) => relative(REPO, file));
  }

  test("nothing starts git but src/git/run-git.ts", () => {
    expect(gitStarters(allSources())).toEqual([]);
  });

  test("a git started elsewhere is found", () => {
    const stray = join(REPO, "src/diagnostics/stray.ts");
    const read = (file: string) => (file === stray ? 'await runOwnCommand(["git", "status"], {});' : readFileSync(file, "utf8"));
    expect(gitStarters([stray], read)).toEqual(["src/diagnostics/stray.ts"]);
  });

  test("a word in code is found, and one in a comment is not", () => {
    const [coded, commented] = ["src/disk-sync/coded.ts", "src/disk-sync/commented.ts"].map((file) => join(REPO, file));
    const texts = new Map([
      [coded!, 'const url = "https://example.com"; // a comment\nconst marker = "tsconfig.json";'],
      [commented!, "/** Reads the tsconfig. */\nconst x = 1; // cargo, too\n"],
    ]);
    expect(naming([coded!, commented!], (file) => texts.get(file)!)).toEqual(["src/disk-sync/coded.ts"]);
  });
});

// The absences of docs/contributors/architecture.md that a reading of the imports can hold.
describe("which rooms import what", () => {
  /** The rooms (folders of src/) whose files import a module whose name `imported` matches. */
  function roomsImporting(imported: RegExp, files: readonly string[], read = (file: string) => readFileSync(file, "utf8")): string[] {
    const rooms = files
      .filter((file) => [...read(file).matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].some((match) => imported.test(match[1]!)))
      .map((file) => roomOf(file)!);
    return [...new Set(rooms)].sort();
  }
  const sources = (): string[] => sourceFiles(join(REPO, "src"));

  test("only src/mcp/, src/attach/, src/shared-server/ and src/http/ import the MCP SDK", () => {
    expect(roomsImporting(/^@modelcontextprotocol\//, sources())).toEqual(["attach", "http", "mcp", "shared-server"]);
  });

  test("only src/lsp/ speaks JSON-RPC to servers", () => {
    expect(roomsImporting(/^vscode-jsonrpc/, sources())).toEqual(["lsp"]);
  });

  test("src/contract/ imports nothing of ours and no Node built-in", () => {
    const contract = sourceFiles(join(REPO, "src/contract"));
    const found = contract.filter((file) => /(?:from|import)\s*\(?\s*["'](?:node:|\.\.\/)/.test(readFileSync(file, "utf8")));
    expect(found.map((file) => relative(REPO, file))).toEqual([]);
  });

  test("src/supervision/, src/sharing/ and src/exec/ never parse an LSP message: none imports vscode-jsonrpc or the protocol's types", () => {
    const rooms = roomsImporting(/^vscode-(?:jsonrpc|languageserver)/, sources());
    expect(rooms.filter((room) => ["supervision", "sharing", "exec"].includes(room))).toEqual([]);
  });

  test("the Maude server imports nothing of the bridge but src/exec/executable.ts and src/supervision/parent-death.ts", () => {
    const maude = sourceFiles(join(REPO, "servers/maude/src"));
    const bridge = new Set(
      maude.flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)]
          .map((match) => relative(REPO, resolve(dirname(file), match[1]!)))
          .filter((target) => target.startsWith(`src${sep}`)),
      ),
    );
    expect([...bridge].sort()).toEqual(["src/exec/executable.js", "src/supervision/parent-death.js"]);
  });

  test("an import of the SDK from another room is found", () => {
    const stray = join(REPO, "src/tools/stray.ts");
    const read = (file: string) => (file === stray ? 'import type { X } from "@modelcontextprotocol/sdk/types.js";' : readFileSync(file, "utf8"));
    expect(roomsImporting(/^@modelcontextprotocol\//, [...sources(), stray], read)).toEqual(["attach", "http", "mcp", "shared-server", "tools"]);
  });
});

// docs/contributors/architecture.md's walk of `lspmcp check --since`, as scripts/walk.mjs measures
// it from the code: the road (the ground floor entered, not followed) within ten folders, and no
// new call back up a layer.
describe("the walk of lspmcp check --since", () => {
  test("follows at most ten folders of the road and calls back up a layer at most nine times", () => {
    const doors = "--doors=config,contract,exec,supervision,git,files";
    const out = execFileSync(process.execPath, [join(REPO, "scripts/walk.mjs"), doors, "--json"], { encoding: "utf8" });
    const walk = JSON.parse(out) as { followed: string[]; upCalls: string[] };
    expect(walk.followed.length).toBeLessThanOrEqual(10);
    expect(walk.upCalls.length).toBeLessThanOrEqual(9);
  }, 60_000);
});
