import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { configSourceFor } from "../config/config-source.js";
import { projectRootsIn } from "../languages/index.js";
import { configuredProfiles } from "../config/configured-profiles.js";
import { planDefault } from "../config/default-plan.js";
import { discoverConfig } from "../config/discover-config.js";
import { installHint } from "../config/install-hint.js";
import { isCachedSource } from "../config/install-schema.js";
import { packageRoot } from "../config/package-root.js";
import { toolCacheDir, toolCacheFolder } from "../config/tool-cache.js";
import { BridgeError } from "../contract/errors.js";
import { elapsed, streamProgress } from "../install/install-progress.js";
import { installServer } from "../install/install-server.js";
import { serverState, type StateContext } from "../install/server-state.js";
import { loadShippedServers, type ShippedServer } from "../install/shipped-servers.js";
import { missingToolchain } from "../install/toolchain.js";
import type { Command } from "./parse-args.js";

/** Exit codes of `servers install` (CONTRACT §2). */
const EXIT_FAILED = 1;
const EXIT_MISSING = 2;

/**
 * `lspmcp servers install NAME... | --all | --for PATH [--config FILE]`: installs each chosen tool-cache server's
 * pinned version (one after another: the builds are CPU-bound), names the apt-get command for a
 * missing Debian one, and says where each is. Exit 0 when every one is there after; 1 when an
 * install failed or was interrupted; 2 when a toolchain or a Debian package is missing (the rest
 * is still installed) or a name is unknown.
 */
export async function serversInstall(command: Extract<Command, { kind: "servers-install" }>): Promise<number> {
  const root = packageRoot();
  const shipped = await loadShippedServers(root);
  const chosen = await choose(command, shipped, root);
  for (const line of [...chosen.notes, ...chosen.problems]) process.stderr.write(`${line}\n`);
  const context: StateContext = { packageRoot: root, searchPath: process.env.PATH ?? "", env: process.env };
  const progress = streamProgress(process.stderr);
  const abort = new AbortController();
  const interrupt = (): void => abort.abort();
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  let code = chosen.problems.length > 0 ? EXIT_MISSING : 0;
  try {
    for (const server of chosen.servers) {
      if (abort.signal.aborted) break;
      const result = await installOne(server, context, progress, abort.signal);
      progress.line(result.text);
      code = Math.max(code, result.code);
    }
  } finally {
    progress.close();
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
  return abort.signal.aborted ? EXIT_FAILED : code;
}

async function installOne(
  server: ShippedServer,
  context: StateContext,
  progress: ReturnType<typeof streamProgress>,
  signal: AbortSignal,
): Promise<{ code: number; text: string }> {
  const source = server.install;
  const folder = toolCacheFolder(server.command);
  if (!isCachedSource(source) || folder === null) {
    const state = await serverState(server, context);
    if (state.installed) return { code: 0, text: `${server.name} ${server.version}: installed (${state.where})` };
    return {
      code: EXIT_MISSING,
      text: `${server.name} ${server.version}: missing (${state.why}); lspmcp does not install it: ${installHint(server.name, source, server.command)}`,
    };
  }
  const missing = await missingToolchain(source, context.searchPath);
  if (missing !== null)
    return {
      code: EXIT_MISSING,
      text: `${server.name} ${server.version}: needs ${missing.what}, ${missing.found === undefined ? "which is missing" : `and ${missing.found} is older`}; get it with: ${missing.fix}`,
    };
  const outcome = await installServer({
    server,
    source,
    folder,
    cache: toolCacheDir(context.env),
    context,
    progress,
    signal,
    terminal: process.stderr.isTTY === true,
  });
  switch (outcome.kind) {
    case "already":
      return { code: 0, text: `${server.name} ${server.version}: installed (${outcome.where})` };
    case "installed":
      return { code: 0, text: `${server.name} ${server.version}: installed into ${outcome.where} in ${elapsed(outcome.ms)} (verified: ${outcome.reported})` };
    case "failed":
      return {
        code: EXIT_FAILED,
        text: [`${server.name} ${server.version}: install failed: ${outcome.message}`, ...outcome.tail.map((line) => `  | ${line}`)].join("\n"),
      };
  }
}

/** The servers an install works through, and what it says before and exits with beside them. */
interface Choice {
  readonly servers: ShippedServer[];
  /** Lines said first: which configuration chose them, and what it names that lspmcp does not install. */
  readonly notes: readonly string[];
  /** Problems of that configuration, each said once; any of them makes the exit 2. */
  readonly problems: readonly string[];
}

/** The servers a command names, in the order given (or name order); an unknown name is a usage error. */
async function choose(command: Extract<Command, { kind: "servers-install" }>, shipped: readonly ShippedServer[], root: string): Promise<Choice> {
  if (command.all) return { servers: [...shipped], notes: [], problems: [] };
  if (command.forPath !== null) return chooseFor(resolve(command.forPath), command.config, shipped, root);
  const unknown = command.names.filter((name) => !shipped.some((server) => server.name === name));
  if (unknown.length > 0) {
    throw new BridgeError("InvalidArguments", `unknown server ${unknown.join(", ")} (known: ${shipped.map((server) => server.name).join(", ")})`, {});
  }
  return { servers: pick(command.names, shipped), notes: [], problems: [] };
}

/**
 * What the configuration in force for `path` runs (CONTRACT §2): `--config FILE`, else the
 * bridge.toml or .lspmcp.toml that `check` there would find, else the embedded default for its
 * repository, with the servers it chose and those it left out as missing. Nothing of a file is
 * run: only the shipped profiles it names are installed.
 */
async function chooseFor(path: string, configArg: string | null, shipped: readonly ShippedServer[], root: string): Promise<Choice> {
  if (!existsSync(path)) throw new BridgeError("InvalidArguments", `--for ${path}: no such folder`, {});
  const source = configArg === null ? discoverConfig(path) : configSourceFor(configArg);
  if (source.kind === "default") {
    const plan = await planDefault(source.root, { packageRoot: root, searchPath: process.env.PATH ?? "", projectRoots: projectRootsIn });
    const names = [...plan.servers.map((server) => server.name), ...plan.omitted.map((omitted) => omitted.server)];
    const said =
      names.length === 0
        ? `none, nothing to install: no file of a shipped profile's language is in it (write a bridge.toml with \`lspmcp init\` for a server lspmcp does not ship)`
        : listed(names);
    return { servers: pick(names, shipped), notes: [`lspmcp: servers of the embedded default for ${source.root}: ${said}`], problems: [] };
  }
  const configured = await configuredProfiles(source.path);
  const known = configured.profiles.filter((name) => shipped.some((server) => server.name === name));
  const unknown = configured.profiles.filter((name) => !known.includes(name));
  const notes = [`lspmcp: servers of ${source.path}: ${listed(known)}`];
  if (configured.own.length > 0) notes.push(`lspmcp: ${configured.own.join(", ")} run a command of their own, which lspmcp does not install`);
  const problems = [
    ...configured.problems,
    ...unknown.map((name) => `${source.path}: unknown profile "${name}" (known: ${shipped.map((server) => server.name).join(", ")})`),
  ];
  return { servers: pick(known, shipped), notes, problems };
}

function pick(names: readonly string[], shipped: readonly ShippedServer[]): ShippedServer[] {
  return [...new Set(names)].map((name) => shipped.find((server) => server.name === name)!);
}

function listed(names: readonly string[]): string {
  return names.length === 0 ? "none" : names.join(", ");
}
