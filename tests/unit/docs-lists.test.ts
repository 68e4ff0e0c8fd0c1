// The lists the shipped pages give — profiles, tool-cache servers, adapters, memory caps, error
// codes, config keys — held to the code they describe: servers/*.toml, the adapter names, the
// error codes and the zod schema. A page that stops short of a list, or names what the code has
// not, fails here with the difference.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { EmbeddedDefaultSchema } from "../../src/config/embedded-default-schema.js";
import { ADAPTER_NAMES, ConfigSchema, type RawProfile } from "../../src/config/schema.js";
import { ERROR_CODES } from "../../src/contract/errors.js";
import { REPO } from "../helpers/paths.js";
import { shippedProfiles } from "../helpers/shipped-profiles.js";

const page = (path: string): string => readFileSync(join(REPO, path), "utf8");
/** The page's text with every run of whitespace made one space, so lists may wrap. */
const flat = (path: string): string => page(path).replace(/\s+/g, " ");
const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();
/** The first column of the markdown table whose header row starts `| header |`, backticks dropped. */
function firstColumn(text: string, header: string): string[] {
  const at = text.indexOf(`| ${header} |`);
  if (at < 0) throw new Error(`no table headed "${header}"`);
  const rows = text.slice(at).split("\n").slice(2);
  const end = rows.findIndex((row) => !row.startsWith("|"));
  return rows.slice(0, end < 0 ? rows.length : end).map((row) => row.split("|")[1]!.trim().replaceAll("`", ""));
}
/** The backticked names in the text from `from` to the next `to`. */
function namesBetween(text: string, from: string, to: string): string[] {
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`no "${from}"`);
  const part = text.slice(at + from.length, text.indexOf(to, at + from.length));
  return [...part.matchAll(/`([a-z][a-z0-9-]*)`/g)].map((match) => match[1]!);
}

const TOOL_CACHE_SOURCES = ["go", "pypi", "npm", "cargo"];
let profiles: Map<string, RawProfile>;

beforeAll(async () => {
  profiles = await shippedProfiles();
});

/** The profiles installed into the tool cache (from `sources`, by default all of them). */
const toolCacheServers = (sources: readonly string[] = TOOL_CACHE_SOURCES) =>
  sorted([...profiles].filter(([, profile]) => sources.includes(profile.install?.from ?? "")).map(([name]) => name));

describe("docs/configuration.md", () => {
  test("its profile table and its 'More profiles' list name every profile of servers/, once", () => {
    const text = page("docs/configuration.md");
    const table = firstColumn(text, "profile | command");
    const more = namesBetween(text.replace(/\s+/g, " "), "More profiles (", ")");
    expect(sorted([...table, ...more])).toEqual(sorted(profiles.keys()));
    expect(table.length + more.length).toBe(profiles.size);
  });

  test("its memory-cap table has a row for every profile, with the cap the profile sets", () => {
    const text = page("docs/configuration.md");
    const at = text.indexOf("| profile | measured peak |");
    const rows = text.slice(at).split("\n").slice(2);
    const caps = Object.fromEntries(
      rows
        .slice(
          0,
          rows.findIndex((row) => !row.startsWith("|")),
        )
        .map((row) => {
          const cells = row.split("|").map((cell) => cell.trim());
          return [cells[1]!.replaceAll("`", ""), Number(cells[4])];
        }),
    );
    expect(caps).toEqual(Object.fromEntries([...profiles].map(([name, profile]) => [name, profile.max_rss_mb])));
  });

  test("its example of an unknown profile lists the known ones as the loader does", () => {
    expect(flat("docs/configuration.md")).toContain(`(known: ${[...profiles.keys()].join(", ")})`);
  });

  test("its list of adapter names is ADAPTER_NAMES", () => {
    const text = flat("docs/configuration.md");
    const at = text.indexOf("what its initialization options must hold (");
    const part = text.slice(at, text.indexOf("for every other server)", at));
    expect(sorted([...part.matchAll(/`"([a-z-]+)"`/g)].map((match) => match[1]!))).toEqual(sorted(ADAPTER_NAMES));
  });
});

describe("the embedded default's pages", () => {
  test("docs/configuration.md names each profile's markers, the order of preference, the yielding and what is never planned, as the [default] tables say", () => {
    const text = flat("docs/configuration.md");
    const at = text.indexOf("or one of the markers of its `[default]` table");
    const list = text.slice(at, text.indexOf("A marker `FILE [TABLE]`", at));
    const said = [...list.matchAll(/((?:`[^`]+`, )*`[^`]+`) \(([a-z-]+)\)/g)].map((match) => [
      match[2],
      [...match[1]!.matchAll(/`([^`]+)`/g)].map((name) => name[1]),
    ]);
    const markers = [...profiles].flatMap(([name, profile]) => {
      const keys = [...(profile.default?.markers ?? []), ...(profile.default?.configured_by ?? [])];
      return keys.length > 0 ? [[name, keys]] : [];
    });
    expect(Object.fromEntries(said)).toEqual(Object.fromEntries(markers));

    const preference = (name: string) => profiles.get(name)!.default?.preference ?? 0;
    const byPreference = (names: string[]) => names.sort((a, b) => preference(b) - preference(a) || a.localeCompare(b));
    const order = text.slice(text.indexOf("in the order of their `preference` ("));
    const first = order.slice(order.indexOf("(") + 1, order.indexOf(", then the others by name")).split(", ");
    const alternatives = order.slice(order.indexOf("then the alternatives (") + "then the alternatives (".length, order.indexOf(")")).split(", ");
    expect(first).toEqual(byPreference([...profiles.keys()].filter((name) => preference(name) > 0)));
    expect(alternatives).toEqual(byPreference([...profiles.keys()].filter((name) => preference(name) < 0)));

    for (const [name, profile] of profiles) {
      const yieldsTo = profile.default?.yields_to;
      if (yieldsTo !== undefined) expect(text, name).toContain(`the first of ${yieldsTo.slice(0, -1).join(", ")} and ${yieldsTo.at(-1)} that the project`);
      expect(text.includes(`\`${name}\` is never in the default`), name).toBe(profile.default?.never === true);
    }
  });

  test("docs/servers.md's table of [default] keys names every key of the schema", () => {
    expect(firstColumn(page("docs/servers.md"), "key | what it says")).toEqual(Object.keys(EmbeddedDefaultSchema.shape));
  });
});

describe("every list of the tool cache's servers", () => {
  // Such a list starts with gopls and names the servers in parentheses: "(gopls, ruff, …)" or
  // "(gopls, ruff, …; see …)".
  const pages = ["README.md", "CONTRIBUTING.md", ...readdirDocs()];
  for (const path of pages) {
    test(`${path} names them all`, () => {
      for (const match of flat(path).matchAll(/\(gopls, ((?:[a-z-]+(?:, and |, | and ))+[a-z-]+)[;)]/g)) {
        const names = `gopls, ${match[1]!}`.split(/, and |, | and /);
        // "built from source (gopls, …)": the servers a toolchain builds, from Go's proxy or crates.io.
        const builtFromSource = /from source $/.test(flat(path).slice(0, match.index));
        expect(sorted(names), match[0]).toEqual(builtFromSource ? toolCacheServers(["go", "cargo"]) : toolCacheServers());
      }
    });
  }
});

describe("README.md", () => {
  test("its table of languages names every profile with its pin", () => {
    const text = flat("README.md");
    const wrong: string[] = [];
    for (const [name, profile] of profiles) {
      // The Maude server is lspmcp's own, versioned with it; Debian's revision suffix ("-2") is left out.
      if (name === "maude") continue;
      const at = text.indexOf(`\`${name}\` (`);
      const said = at < 0 ? "" : text.slice(at, text.indexOf(")", at));
      if (!said.includes(profile.version!.replace(/-\d+$/, ""))) wrong.push(`${name} ${profile.version}: ${said || "not in the table"}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("docs/adapters.md", () => {
  test("its table has a row for every adapter, and each shipped profile's adapter names that profile", async () => {
    const text = page("docs/adapters.md");
    const table = firstColumn(text, "adapter | profiles");
    expect(sorted(table)).toEqual(sorted(ADAPTER_NAMES));
    expect(table.length).toBe(ADAPTER_NAMES.length);
    for (const [name, profile] of profiles) {
      if (profile.adapter === undefined) continue;
      const row = text.split("\n").find((line) => line.startsWith(`| \`${profile.adapter}\` |`))!;
      expect(row.split("|")[2], `${name}'s adapter row`).toContain(`\`${name}\``);
    }
  });
});

describe("docs/errors.md", () => {
  test("its summary table and its sections name every error code, and the count it gives is theirs", () => {
    const text = page("docs/errors.md");
    expect(sorted(firstColumn(text, "code | when"))).toEqual(sorted(ERROR_CODES));
    expect(sorted([...text.matchAll(/^### `([A-Za-z]+)`$/gm)].map((match) => match[1]!))).toEqual(sorted(ERROR_CODES));
    expect(text).toContain(`one of the ${ERROR_CODES.length} codes below`);
  });
});

describe("bridge.toml.example", () => {
  test("names every key of the schema, set or in a comment", () => {
    const example = page("bridge.toml.example");
    const named = new Set([...example.matchAll(/^[#\s{]*([a-z_]+) = /gm), ...example.matchAll(/[{,] ([a-z_]+) = /g)].map((match) => match[1]!));
    expect(schemaKeys().filter((key) => !named.has(key))).toEqual([]);
  });
});

/** Every key a bridge.toml can hold, tables' and nested tables' alike. */
function schemaKeys(): string[] {
  const keys = new Set<string>();
  const walk = (schema: unknown): void => {
    const json = schema as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[] };
    for (const [key, value] of Object.entries(json.properties ?? {})) {
      keys.add(key);
      walk(value);
    }
    if (json.items) walk(json.items);
    for (const option of json.anyOf ?? []) walk(option);
  };
  walk(ConfigSchema.toJSONSchema({ io: "input", unrepresentable: "any" }));
  for (const table of ["bridge", "shared", "server", "workspace"]) keys.delete(table);
  return sorted(keys);
}

function readdirDocs(): string[] {
  return readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
}
