// The Node versions lspmcp runs on, said once in `engines` and held everywhere: the README says
// the same versions, and every package lspmcp ships (its dependencies and theirs, as
// package-lock.json installs them) declares at least that range, or is one of the servers' packages
// that declare less, each named with its range in the README's "Where it runs". lspmcp's own
// code depends on nothing that declares less.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { expect, test } from "vitest";
import { REPO } from "../helpers/paths.js";

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { engines: { node: string }; dependencies: Record<string, string> };
const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
const readme = readFileSync(join(REPO, "README.md"), "utf8");

/**
 * The servers' packages whose own tree declares a narrower Node than lspmcp's `engines`. Each runs
 * on every Node lspmcp supports (the suite runs them on Node 20); the README says which and why
 * an install prints a warning for them.
 */
const SERVER_PACKAGES_DECLARING_LESS = ["yaml-language-server", "graphql-language-service-cli"];

/** The lock's path of the package `name` as Node resolves it from the package at `from`. */
function resolve(name: string, from: string): string | undefined {
  for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf("/node_modules/")))) {
    const path = `${at === "" ? "" : `${at}/`}node_modules/${name}`;
    if (lock.packages[path] !== undefined) return path;
    if (at === "") return undefined;
  }
}

/** Every installed package reachable from the dependency `root`, by lock path. */
function tree(root: string): Set<string> {
  const seen = new Set<string>();
  const queue = [resolve(root, "")!];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const entry = lock.packages[path]!;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
      const found = resolve(name, path);
      if (found !== undefined) queue.push(found);
    }
  }
  return seen;
}

/** What the package at `path` declares, when that leaves out part of lspmcp's range: "name version: range". */
function declaresLess(path: string, ours: string): string | undefined {
  const engines = lock.packages[path]!.engines;
  const node = Array.isArray(engines) ? undefined : engines?.node;
  if (node === undefined || semver.subset(ours, node)) return undefined;
  return `${path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)} ${lock.packages[path]!.version}: ${node}`;
}

/** Each dependency of lspmcp → what its tree declares less than `ours`. */
function narrower(ours: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const root of Object.keys(manifest.dependencies)) {
    const less = [...new Set([...tree(root)].flatMap((path) => declaresLess(path, ours) ?? []))].sort();
    if (less.length > 0) found.set(root, less);
  }
  return found;
}

test("every shipped package declares lspmcp's Node range, but the servers' packages named in the README with what they declare", () => {
  const found = narrower(manifest.engines.node);
  expect([...found.keys()].sort()).toEqual([...SERVER_PACKAGES_DECLARING_LESS].sort());
  const where = readme.slice(readme.indexOf("## Where it runs"), readme.indexOf("\n## ", readme.indexOf("## Where it runs") + 1)).replace(/\s+/g, " ");
  for (const [root, less] of found) {
    expect(where, root).toContain(`${root} ${manifest.dependencies[root]}`);
    for (const range of new Set(less.map((line) => line.slice(line.indexOf(": ") + 2)))) expect(where, `${root}: ${range}`).toContain(`\`${range}\``);
  }
});

test("a dependency of lspmcp's own code that declares a narrower Node is found", () => {
  // zod and the MCP SDK are lspmcp's own; a range above theirs leaves them out.
  const found = narrower("^18.0.0 || ^20.0.0");
  expect(found.has("zod") || found.has("@modelcontextprotocol/sdk")).toBe(true);
});

test("the README names the Node versions engines does", () => {
  const minimums = manifest.engines.node.split("||").map((range) => semver.minVersion(range.trim())!);
  const said = minimums.map((version) => (version.minor === 0 ? `${version.major}` : `${version.major}.${version.minor}`));
  const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Languages"));
  expect(quickStart).toContain(
    `Node ${said
      .slice(0, -1)
      .map((version) => `${version}+`)
      .join(", ")} or ${said.at(-1)}`,
  );
  const where = readme.slice(readme.indexOf("## Where it runs"));
  for (const version of minimums)
    expect(where).toContain(version.minor === 0 ? `${version.major}` : `${version.major} (${version.major}.${version.minor} or newer)`);
});

/** The shipped pages, the contributors' guide and lspmcp's own sources: every place a user or a message reads a Node version. */
function nodeMentions(): { where: string; said: string; version: string }[] {
  const files = [
    "README.md",
    "CONTRIBUTING.md",
    ...readdirSync(join(REPO, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
    ...readdirSync(join(REPO, "src"), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts"))
      .map((name) => `src/${name}`),
  ];
  return files.flatMap((file) =>
    [
      ...readFileSync(join(REPO, file), "utf8")
        .replace(/\s+/g, " ")
        .matchAll(/Node(?:\.js)? (\d+(?:\.\d+)?)(?:\+| or newer| and newer| or later)/g),
    ].map((match) => ({
      where: file,
      said: match[0],
      version: match[1]!,
    })),
  );
}

test("every 'Node N or newer' a page or a message says is at least engines' minimum for that major", () => {
  const minimums = manifest.engines.node.split("||").map((range) => semver.minVersion(range.trim())!);
  const low = nodeMentions().filter(({ version }) => {
    const said = semver.coerce(version)!;
    const floor = minimums.find((minimum) => minimum.major === said.major) ?? minimums[0]!;
    return semver.lt(said, floor);
  });
  expect(low.map(({ where, said }) => `${where}: ${said}`)).toEqual([]);
});
