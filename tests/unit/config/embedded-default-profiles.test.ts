// The embedded default's knowledge of each server is its profile's `[default]` table: the marker
// files, the preference among servers of one language, whom a profile yields to. These tests hold
// the shipped tables to what the default has always done, each marker to the plan it brings, and
// the planner's source to naming no server, so that a new server is a profile (and at most an adapter).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { planDefault } from "../../../src/config/default-plan.js";
import { EmbeddedDefaultSchema } from "../../../src/config/embedded-default-schema.js";
import type { RawProfile } from "../../../src/config/schema.js";
import { projectRootsIn } from "../../../src/languages/index.js";
import { REPO } from "../../helpers/paths.js";
import { tempDir, writeFiles } from "./fixture.js";
import { shippedProfiles } from "../../helpers/shipped-profiles.js";

let profiles: Map<string, RawProfile>;

beforeAll(async () => {
  profiles = await shippedProfiles();
});

describe("the shipped profiles' [default] tables", () => {
  test("say the markers, preferences and yielding the embedded default plans by", () => {
    const tables = Object.fromEntries([...profiles].flatMap(([name, profile]) => (profile.default ? [[name, profile.default]] : [])));
    expect(tables).toEqual({
      "bacon-ls": { never: true },
      basedpyright: { configured_by: ["pyproject.toml [tool.basedpyright]"], preference: -10 },
      bash: { preference: 20 },
      biome: { preference: -10 },
      ccls: { preference: -10 },
      clangd: { markers: ["compile_commands.json", "compile_flags.txt"], preference: 30 },
      emmylua: { markers: [".emmyrc.json", ".luarc.json"] },
      maude: { preference: 10 },
      pylsp: { preference: -10 },
      pyrefly: { configured_by: ["pyrefly.toml", "pyproject.toml [tool.pyrefly]"], preference: -10 },
      pyright: {
        markers: ["pyproject.toml", "pyrightconfig.json", "setup.py", "setup.cfg", "requirements.txt"],
        preference: 40,
        yields_to: ["ty", "pyrefly", "basedpyright"],
        role: "Python's type checker",
      },
      ruff: { configured_by: ["ruff.toml", ".ruff.toml", "pyproject.toml [tool.ruff]"], preference: -10 },
      "rust-analyzer": { markers: ["Cargo.toml"] },
      ty: { configured_by: ["ty.toml", "pyproject.toml [tool.ty]"], preference: -10 },
      typescript: { markers: ["tsconfig.json", "jsconfig.json"], preference: 50 },
    });
  });

  test("order the profiles as the default takes them: the first choices, the others by name, then the alternatives", () => {
    const preference = (name: string) => profiles.get(name)!.default?.preference ?? 0;
    const order = [...profiles.keys()].sort((a, b) => preference(b) - preference(a) || a.localeCompare(b));
    const first = ["typescript", "pyright", "clangd", "bash", "maude"];
    const alternatives = ["basedpyright", "biome", "ccls", "pylsp", "pyrefly", "ruff", "ty"];
    expect(order.slice(0, first.length)).toEqual(first);
    expect(order.slice(-alternatives.length)).toEqual(alternatives);
    const others = order.slice(first.length, -alternatives.length);
    expect(others).toEqual([...others].sort());
  });

  test("yield only to shipped profiles that a project can configure", () => {
    for (const [name, profile] of profiles) {
      for (const other of profile.default?.yields_to ?? []) {
        expect(profiles.get(other)?.default?.configured_by, `${name} yields to ${other}`).toBeDefined();
      }
    }
  });

  test("each marker alone brings its profile into the plan, served or left out with how to install it", async () => {
    const missed: string[] = [];
    for (const [name, profile] of profiles) {
      for (const marker of [...(profile.default?.markers ?? []), ...(profile.default?.configured_by ?? [])]) {
        const table = /^(\S+) \[(.+)\]$/.exec(marker);
        const files = table === null ? { [`sub/${marker}`]: "" } : { [`sub/${table[1]}`]: `[${table[2]}]\nkey = 1\n` };
        const repo = await writeFiles(await tempDir(), files);
        execFileSync("git", ["init", "-q"], { cwd: repo });
        const plan = await planDefault(repo, { packageRoot: REPO, searchPath: process.env.PATH ?? "", projectRoots: projectRootsIn });
        const served = plan.servers.find((server) => server.name === name)?.serves.includes(marker) ?? false;
        const left = plan.omitted.some((omitted) => omitted.server === name);
        if (!served && !left) missed.push(`${marker} (${name}): ${JSON.stringify(plan.servers.map((server) => [server.name, server.serves]))}`);
      }
    }
    expect(missed).toEqual([]);
  });
});

describe("a profile's [default] table", () => {
  test("takes a marker as a file name or a file and a table, and `yields_to` only with the `role` its reason needs", () => {
    const problems = (table: unknown) => {
      const parsed = EmbeddedDefaultSchema.safeParse(table);
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    };
    expect(problems({ markers: ["go.work", "pyproject.toml [tool.x.y]"], preference: -1 })).toEqual([]);
    expect(problems({ markers: ["sub/go.work"] })).toEqual([expect.stringMatching(/^markers\.0: a marker is a file name/)]);
    expect(problems({ configured_by: ["pyproject.toml [tool x]"] })).toEqual([expect.stringMatching(/^configured_by\.0: a marker/)]);
    expect(problems({ yields_to: ["other"] })).toEqual([expect.stringMatching(/^role: `yields_to` and `role` go together/)]);
    expect(problems({ never: false })).toHaveLength(1);
  });
});

describe("the embedded default's planner", () => {
  // Where detection, ordering and yielding are decided: a profile's name in a string there would be
  // knowledge of one server outside its profile.
  const PLANNER = ["src/config/default-plan.ts", "src/config/default-markers.ts", "src/config/detect-languages.ts", "src/config/default-config.ts"];

  test("names no server: no string literal of its source holds a profile's name", () => {
    const named: string[] = [];
    for (const path of PLANNER) {
      const code = readFileSync(join(REPO, path), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      const literals = [...code.matchAll(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g)].map((match) => match[0]);
      for (const literal of literals) {
        for (const name of profiles.keys()) {
          if (new RegExp(`(^|[^A-Za-z0-9_-])${name}($|[^A-Za-z0-9_-])`).test(literal)) named.push(`${path}: ${name} in ${literal}`);
        }
      }
    }
    expect(named).toEqual([]);
  });
});
