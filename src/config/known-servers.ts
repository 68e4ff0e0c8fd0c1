import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { packageBins } from "./package-dependency.js";
import type { AdapterChoice, AdapterName } from "./types.js";

/**
 * A server lspmcp ships a profile for whose adapter is not the standard one, and the marks by
 * which an entry written without that profile is known to be it. Each mark is exact: the npm
 * package whose `bin` the command is, the `serverInfo.name` its `initialize` answers (compared
 * whole), or the first line of its version command's output (a pattern anchored at both ends).
 * A server is never taken for another on a part of its name.
 */
export interface KnownServer {
  /** The server's own name, as `validate` says it. */
  readonly server: string;
  /** The shipped profile it belongs to. */
  readonly profile: string;
  /** The adapter it answers with. */
  readonly adapter: AdapterName;
  /** The npm package whose command it is, and that command's name; `minMajor`: the package's first major that is this server. */
  readonly npm?: { readonly package: string; readonly bin: string; readonly minMajor?: number };
  readonly serverInfoName?: string;
  readonly versionLine?: RegExp;
}

/**
 * The known servers. typescript-language-server sends no `serverInfo` and its `--version` prints
 * the bare version, so only its package says what it is. A server a profile runs with the
 * standard adapter is not listed: knowing it would change nothing.
 */
export const KNOWN_SERVERS: readonly KnownServer[] = [
  {
    server: "typescript-language-server",
    profile: "typescript",
    adapter: "tsserver",
    npm: { package: "typescript-language-server", bin: "typescript-language-server" },
  },
  {
    server: "TypeScript 7's native language server",
    profile: "typescript",
    adapter: "typescript",
    npm: { package: "typescript", bin: "tsc", minMajor: 7 },
    serverInfoName: "typescript-go",
  },
  {
    server: "yaml-language-server",
    profile: "yaml",
    adapter: "yaml",
    npm: { package: "yaml-language-server", bin: "yaml-language-server" },
    serverInfoName: "yaml-language-server",
  },
  {
    server: "bash-language-server",
    profile: "bash",
    adapter: "bash",
    npm: { package: "bash-language-server", bin: "bash-language-server" },
  },
  { server: "ccls", profile: "ccls", adapter: "ccls", serverInfoName: "ccls", versionLine: /^(?:Debian )?ccls version \S+$/ },
  { server: "gopls", profile: "gopls", adapter: "gopls", serverInfoName: "gopls", versionLine: /^golang\.org\/x\/tools\/gopls v\S+$/ },
  {
    server: "rust-analyzer",
    profile: "rust-analyzer",
    adapter: "rust-analyzer",
    serverInfoName: "rust-analyzer",
    versionLine: /^rust-analyzer \d\S*(?: \(.*\))?$/,
  },
];

/**
 * The known server an `initialize` answer names (its `serverInfo.name`), or else the one whose
 * adapter its advertised commands show (`advertised`: typescript-language-server run through a
 * wrapper advertises tsserver's passthrough), or null.
 */
export function knownByInitialize(name: string | undefined, advertised: AdapterName | null): KnownServer | null {
  const named = name === undefined ? undefined : KNOWN_SERVERS.find((known) => known.serverInfoName === name);
  return named ?? (advertised === null ? null : (KNOWN_SERVERS.find((known) => known.adapter === advertised) ?? null));
}

/** The known server whose version command prints `output` (its first non-empty line), or null. */
export function knownByVersionOutput(output: string): KnownServer | null {
  const first = output
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim();
  if (first === undefined) return null;
  return KNOWN_SERVERS.find((known) => known.versionLine?.test(first)) ?? null;
}

/**
 * The known server whose npm package declares `command` (absolute; links followed) as its
 * command, read from the package's own package.json, or null. Nothing is run.
 */
export function knownByPackage(command: string): KnownServer | null {
  let real: string;
  try {
    real = realpathSync(command);
  } catch {
    return null;
  }
  const found = owningPackage(real);
  if (found === null) return null;
  for (const known of KNOWN_SERVERS) {
    if (!known.npm || known.npm.package !== found.name) continue;
    if (known.npm.minMajor !== undefined && Number(found.version.split(".")[0]) < known.npm.minMajor) continue;
    const bin = packageBins(found.dir)[known.npm.bin];
    if (bin !== undefined && sameFile(join(found.dir, bin), real)) return known;
  }
  return null;
}

/**
 * Each adapter's rule for "the server has settled", in a few words (docs/contributors/adapters.md has the
 * whole of each): what `validate` names beside the adapter.
 */
export const ADAPTER_RULES: Readonly<Record<AdapterName, string>> = {
  standard: "the standard rule",
  "bacon-ls": "a cargo run begun after the sync and ended",
  bash: "the standard rule, no document before its configuration is answered",
  biome: "a publish made after its progress ended",
  ccls: "the standard rule, its index progress ignored",
  gopls: "the standard rule behind a barrier request",
  "python-native": "the standard rule, the bridge watching its files",
  pyrefly: "pull alone, the bridge watching its files",
  "rust-analyzer": "flycheck: a run begun after the sync ended, then two full pulls",
  typescript: "one complete pull per file",
  tsserver: "tsserver's own diagnostics requests, answered for the synced text",
  yaml: "the standard rule, remote schemas refused",
};

/** What `validate` says of a server's rule: "tsserver: tsserver's own … (recognised as …)". */
export function describeAdapterChoice(adapter: AdapterName, choice: AdapterChoice): string {
  return `${adapter}: ${ADAPTER_RULES[adapter]} (${whyChosen(choice)})`;
}

function whyChosen(choice: AdapterChoice): string {
  switch (choice.by) {
    case "entry":
      return "its own adapter key";
    case "profile":
      return `profile "${choice.profile}"`;
    case "package":
      return `recognised as ${choice.server}: its command is that npm package's; as profile "${choice.profile}"`;
    case "started":
      return `recognised as ${choice.server} by its ${choice.evidence}; as profile "${choice.profile}"`;
    case "standard":
      return "no adapter named, no known server's command; a known server's serverInfo or version output at its start chooses its own";
  }
}

/** The nearest package above `file` that has a name and a version. */
function owningPackage(file: string): { dir: string; name: string; version: string } | null {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (typeof manifest.name === "string" && typeof manifest.version === "string") return { dir, name: manifest.name, version: manifest.version };
    } catch {
      // No package.json here, or not one that names a package: look further up.
    }
    if (dirname(dir) === dir) return null;
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
