import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./paths.js";
import { tempRepo, type TempRepo } from "./temp-repo.js";
import { requireCachedTool } from "./tool-cache.js";

/**
 * The repository of issue 36 as a user has it, committed, with no bridge.toml: Go in `gosvc/` (the
 * golang fixture: three type errors, three vet findings), Rust in `rs/` (the rust-crate fixture, a
 * cargo workspace with its lock: three errors, three warnings), Python in `py/` with `[tool.ruff]`
 * in its pyproject.toml (the python-lint fixture's rules: ruff and pyright findings), TypeScript
 * in `web/` (an error across two modules, and one in a file of its own) and a JSON file with a
 * syntax error. Each of Go, Rust, Python and TypeScript has a function named after a kettle, for
 * workspace symbols across servers. The embedded default serves it with typescript, pyright, gopls, json,
 * rust-analyzer and ruff.
 */
export function polyglotRepo(): TempRepo {
  // The tool cache's servers it is served with: missing ones fail loudly here, and name this
  // helper's users to scripts/run-tests.ts as files that wait for those servers' builds.
  requireCachedTool("go/bin/gopls");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  requireCachedTool("ruff/bin/ruff");
  return tempRepo({
    ...fixtureFiles("golang", "gosvc"),
    "gosvc/brew/kettle.go": "package brew\n\n// BoilKettle heats the water.\nfunc BoilKettle() int { return 100 }\n",
    ...fixtureFiles("rust-crate", "rs"),
    "rs/menu/src/lib.rs": `${fixtureFiles("rust-crate", "rs")["rs/menu/src/lib.rs"]}\n/// Heats the water.\npub fn boil_kettle() -> u32 {\n    100\n}\n`,
    ...fixtureFiles("python-lint", "py", (path) => path !== "ruff.toml"),
    "py/pyproject.toml": PYPROJECT,
    "py/cafe/kettle.py": '"""The water."""\n\n\ndef boil_kettle() -> int:\n    return 100\n',
    "web/tsconfig.json":
      '{\n  "compilerOptions": { "strict": true, "target": "ES2022", "module": "NodeNext", "noEmit": true, "types": [] },\n  "include": ["src/**/*.ts"]\n}\n',
    "web/src/price.ts": "/** What a cup costs, in cents. */\nexport function price(cups: number): number {\n  return cups * 250;\n}\n",
    "web/src/order.ts":
      'import { price } from "./price.js";\n\n/** Totals an order of cups. */\nexport function order(cups: string): number {\n  return price(cups);\n}\n\nexport const label: string = order("two");\n',
    "web/src/kettle.ts": "/** Heats the water. */\nexport function boilKettle(): number {\n  return 100;\n}\n",
    "web/src/menu.ts": 'export const menu = ["tea", "coffee"];\nexport const first: number = menu[0];\n',
    "web/settings.json": '{\n  "theme": "dark",\n  "cups": 3,\n}\n',
  });
}

/** The python-lint fixture's ruff.toml, as a monorepo's Python package configures ruff instead. */
const PYPROJECT = `[project]
name = "cafe"
version = "0.1.0"

[tool.ruff]
line-length = 60

[tool.ruff.lint]
extend-select = ["B", "UP", "E501"]
`;

function fixtureFiles(name: string, under: string, keep: (path: string) => boolean = () => true): Record<string, string> {
  const source = join(REPO, "tests/fixtures/workspaces", name);
  const files: Record<string, string> = {};
  for (const path of readdirSync(source, { recursive: true }) as string[]) {
    if (statSync(join(source, path)).isFile() && keep(path)) files[`${under}/${path}`] = readFileSync(join(source, path), "utf8");
  }
  return files;
}

/**
 * An edit in three languages of the polyglot repo, and what it changes: price() now takes a
 * string, so its multiplication breaks and order.ts's call to it is fixed; menu.py loses its
 * unused import (the findings below it move up a line, unchanged); Go's main gains an unused
 * variable (in a package that has type errors already, so brew's vet findings stay).
 */
export const EDIT: Readonly<Record<string, string>> = {
  "web/src/price.ts": "/** What a cup costs, in cents. */\nexport function price(cups: string): number {\n  return cups * 250;\n}\n",
  "py/cafe/menu.py": '"""A file with one unused import and one undefined name."""\n\n\ndef menu() -> str:\n    return "🍵 " + undefined_tea\n',
  "gosvc/cmd/cafe/main.go": fixtureFiles("golang", "gosvc")["gosvc/cmd/cafe/main.go"]!.replace(
    "\tfmt.Println(brew.Missing())\n",
    "\tfmt.Println(brew.Missing())\n\tspare := 0\n",
  ),
};
