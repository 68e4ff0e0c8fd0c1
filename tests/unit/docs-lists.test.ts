// The lists the shipped pages give — profiles, tool-cache servers, adapters, memory caps, error
// codes, config keys — held to the code they describe: servers/*.toml, the adapter names, the
// error codes and the zod schema. A page that stops short of a list, or names what the code has
// not, fails here with the difference.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { EmbeddedDefaultSchema } from "../../src/config/embedded-default-schema.js";
import { KNOWN_SERVERS } from "../../src/config/known-servers.js";
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

  test("the servers' notes' table of [default] keys names every key of the schema", () => {
    expect(firstColumn(page("docs/contributors/servers-notes.md"), "key | what it says")).toEqual(Object.keys(EmbeddedDefaultSchema.shape));
  });
});

/**
 * Every list of servers on the shipped pages and CONTRIBUTING.md, wherever and however it is
 * written: three or more profile names (in any case, backticked or not) joined by ", ", " and "
 * or " or ". Each names, as a set, one of the groups the profiles themselves define, or it is one
 * of PARTIAL_LISTS, which say what they hold; any other list fails here, as does one that has lost
 * or gained a server.
 */
describe("every list of servers", () => {
  test("names one of the profiles' groups, or is a partial list that says what it holds", () => {
    const groups = profileGroups();
    const unknown: string[] = [];
    const partialsFound = new Set<string>();
    for (const { path, before, names } of serverLists(profiles)) {
      const set = sorted(names).join(" ");
      const partial = PARTIAL_LISTS.find((list) => list.path === path && before.endsWith(list.after));
      if (partial !== undefined) {
        partialsFound.add(`${partial.path}: ${partial.after}`);
        if (sorted(partial.names).join(" ") !== set) unknown.push(`${path}: "…${partial.after}" names ${names.join(", ")}, not ${partial.names.join(", ")}`);
        continue;
      }
      const group = [...groups].find(([, members]) => sorted(members).join(" ") === set);
      // Built from source is a group of its own: the tool cache's whole list is not what it means.
      const wanted = /from source \($/.test(before) ? ["built from source", "crates.io's"] : undefined;
      if (group === undefined || (wanted !== undefined && !wanted.includes(group[0])))
        unknown.push(
          `${path}: "…${before.slice(-50)}" ${names.join(", ")}: ${group === undefined ? "no group of the profiles" : `${group[0]}, not built from source`}`,
        );
    }
    expect(unknown).toEqual([]);
    // A partial list that is gone from its page goes from PARTIAL_LISTS too.
    expect(PARTIAL_LISTS.map((list) => `${list.path}: ${list.after}`).filter((key) => !partialsFound.has(key))).toEqual([]);
  });

  test("a list with a server left out, or one added, is found and fails, in any of the ways a page writes one", () => {
    const groups = profileGroups();
    const cached = groups.get("the tool cache's")!;
    const found = (text: string) => serverListsIn("page.md", text, profiles).map((list) => sorted(list.names));
    for (const written of [cached.join(", "), cached.map((name) => `\`${name}\``).join(", "), `${cached.slice(0, -1).join(", ")} and ${cached.at(-1)}`]) {
      expect(found(`Installs (${written}) here.`)).toEqual([sorted(cached)]);
      expect(found(`Installs (${written.replace(/`?ruff`?, /, "")}) here.`)).toEqual([sorted(cached.filter((name) => name !== "ruff"))]);
    }
    expect(found("Answers from TypeScript, Pyright,\n  and Biome.")).toEqual([["biome", "pyright", "typescript"]]);
    // As a TOML or JSON array, a slashed run and a semicolon list write them.
    expect(found('servers = ["typescript", "pyright", "clangd"]')).toEqual([["clangd", "pyright", "typescript"]]);
    expect(found('yields_to = ["ty", "basedpyright"]')).toEqual([]);
    expect(found("the ruff/ty/pyrefly run and gopls / bacon-ls / emmylua")).toEqual([
      ["pyrefly", "ruff", "ty"],
      ["bacon-ls", "emmylua", "gopls"],
    ]);
    expect(found("answered by pyright; clangd; ruff; …")).toEqual([["clangd", "pyright", "ruff"]]);
  });
});

/**
 * Lists that name part of a group, for what the sentence says of them (a measurement, a test's
 * servers, a behaviour some servers share), found by the words just before them.
 */
const PARTIAL_LISTS: { path: string; after: string; names: string[] }[] = [
  { path: "CONTRIBUTING.md", after: "`npm start` stops there: the demo uses ", names: ["typescript", "pyright", "clangd"] },
  { path: "docs/contributors/performance.md", after: "then a shared bridge with ", names: ["typescript", "pyright", "clangd"] },
  { path: "bridge.toml.example", after: "under the nearest one's configuration (", names: ["pyright", "basedpyright", "ty"] },
  { path: "docs/servers.md", after: "*diagnostics*: `pull` (", names: ["pyright", "basedpyright", "ty"] },
  {
    path: "docs/servers.md",
    after: "| every other shipped profile (",
    names: ["pyright", "basedpyright", "gopls", "clangd", "ccls", "biome", "ruff", "pylsp", "bash", "maude"],
  },
  { path: "docs/contributors/adapters.md", after: "- **", names: ["yaml", "graphql", "pylsp"] },
  { path: "docs/contributors/performance.md", after: "and, for each of ", names: ["ty", "pyrefly", "pyright"] },
  { path: "docs/contributors/performance.md", after: "the Debian packages and the tool cache's quick installs (", names: ["ruff", "ty", "pyrefly"] },
  {
    path: "docs/contributors/tools-notes.md",
    after: "that text is done ([maude-server.md](maude-server.md)). - **",
    names: ["ty", "pyrefly", "biome", "ccls", "gopls", "rust-analyzer", "bacon-ls"],
  },
  { path: "docs/contributors/architecture.md", after: "held to its own CLI; `check` on ", names: ["basedpyright", "biome", "clangd"] },
  { path: "docs/contributors/contract-notes.md", after: "then the others by name, then ", names: ["biome", "ccls", "pylsp"] },
  { path: "bridge.toml.example", after: "symlinks are resolved servers = [", names: ["typescript", "pyright", "clangd"] },
  { path: "docs/contributors/performance.md", after: "| `npm ci`, build, Debian check, ", names: ["ruff", "ty", "pyrefly", "basedpyright"] },
  { path: "docs/contributors/configuration-notes.md", after: "RUSTUP_TOOLCHAIN`, `RUSTFLAGS`, ...); ", names: ["pyright", "basedpyright", "pylsp"] },
  { path: "docs/trust.md", after: "Files answered without the checkout's code (", names: ["pyright", "clangd", "ruff"] },
];

/** The groups of servers the profiles define, by what a page calls them. */
function profileGroups(): Map<string, string[]> {
  const all = [...profiles];
  const named = (keep: (profile: RawProfile) => boolean) => all.filter(([, profile]) => keep(profile)).map(([name]) => name);
  const groups = new Map<string, string[]>([
    ["every profile", named(() => true)],
    ["the tool cache's", toolCacheServers()],
    ["built from source", toolCacheServers(["go", "cargo"])],
    ["crates.io's", toolCacheServers(["cargo"])],
    ["PyPI's", toolCacheServers(["pypi"])],
    ["Debian's", named((profile) => profile.install?.from === "debian")],
    ["the default's first, by preference", named((profile) => (profile.default?.preference ?? 0) > 0)],
    ["the default's alternatives", named((profile) => (profile.default?.preference ?? 0) < 0)],
  ]);
  for (const [name, profile] of all) if (profile.default?.yields_to !== undefined) groups.set(`what ${name} yields to`, profile.default.yields_to);
  // The known servers' `serverInfo.name`s that are also profile names (a list finds only those).
  groups.set(
    "the known servers by serverInfo",
    KNOWN_SERVERS.flatMap((known) => (known.serverInfoName !== undefined && profiles.has(known.serverInfoName) ? [known.serverInfoName] : [])),
  );
  const table = new Set(firstColumn(page("docs/configuration.md"), "profile | command"));
  groups.set(
    "every profile beyond docs/configuration.md's table",
    named(() => true).filter((name) => !table.has(name)),
  );
  return groups;
}

/** Every list of three or more server names on the shipped pages and CONTRIBUTING.md, with the page's text before it. */
function serverLists(known: ReadonlyMap<string, unknown>): { path: string; before: string; names: string[] }[] {
  const pages = [
    "README.md",
    "CONTRIBUTING.md",
    "bridge.toml.example",
    ...readdirDocs(),
    ...readdirContributors(),
    ...readdirServers(),
    "servers/maude/README.md",
  ];
  return pages.flatMap((path) => serverListsIn(path, page(path), known));
}

function serverListsIn(path: string, text: string, known: ReadonlyMap<string, unknown>): { path: string; before: string; names: string[] }[] {
  const flatText = text.replace(/\s+/g, " ");
  // Longest first, so that "pyright" is not read out of "basedpyright"; names hold only [a-z-].
  const names = [...known.keys()].sort((a, b) => b.length - a.length);
  // A name as prose, code or a TOML or JSON string writes it; the joints a sentence, an array, a
  // slashed run or a semicolon list puts between names.
  const item = `[\`"']?(?:${names.join("|")})[\`"']?`;
  const joint = ", and |, or |, | and | or | ?/ ?|; ";
  const list = new RegExp(`(?<![\\w-])${item}(?:(?:${joint})${item}){2,}(?![\\w-])`, "gi");
  return [...flatText.matchAll(list)].map((match) => ({
    path,
    before: flatText.slice(0, match.index),
    names: match[0].split(new RegExp(joint, "i")).map((name) => name.replace(/[`"']/g, "").toLowerCase()),
  }));
}

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

describe("docs/contributors/adapters.md", () => {
  test("its table has a row for every adapter, and each shipped profile's adapter names that profile", async () => {
    const text = page("docs/contributors/adapters.md");
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

function readdirServers(): string[] {
  return readdirSync(join(REPO, "servers"))
    .filter((name) => name.endsWith(".toml"))
    .map((name) => `servers/${name}`);
}

function readdirDocs(): string[] {
  return readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
}

/** The contributors' pages: not shipped, but their lists are held to the code all the same. */
function readdirContributors(): string[] {
  return readdirSync(join(REPO, "docs/contributors"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/contributors/${name}`);
}
