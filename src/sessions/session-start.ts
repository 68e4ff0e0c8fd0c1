import { join } from "node:path";
import { knownByInitialize, knownByVersionOutput, type KnownServer } from "../config/known-servers.js";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { expandWorkspaceCache } from "../config/workspace-cache.js";
import type { Deadline } from "../contract/deadline.js";
import type { Logger } from "../contract/logger.js";
import { ADAPTERS, adapterAdvertised } from "../languages/index.js";
import { launchFor, toolchainFor, toolchainLookups } from "../languages/index.js";
import { checkoutCodeIn, projectRootsIn } from "../languages/index.js";
import { restrictedMode } from "../config/restricted-mode.js";
import { BridgeError } from "../contract/errors.js";
import type { ToolchainReport } from "../lsp/project-model.js";
import { LspClient } from "../lsp/lsp-client.js";
import { scrubbedEnv, spawnSupervised, type SupervisedServer, type SupervisionTimings } from "../supervision/index.js";
import type { StderrTail } from "./stderr-tail.js";
import { assertPinned, runVersionCommand } from "./version-pin.js";

/** What one start of a session's server is made of. */
interface StartInputs {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  /** The session's key, `workspace/server`: the tree's label and the log's. */
  readonly key: string;
  readonly logger: Logger;
  readonly maxOpenDocuments: number;
  /** Follows the server's stderr from its spawn: a server that exits before its start is confirmed said why. */
  readonly stderr: StderrTail;
  readonly supervision?: Partial<SupervisionTimings>;
}

/**
 * What the session keeps of a start as it goes, each as soon as it is known: an exit, a status or
 * a failure midway sees what the start had got to.
 */
export interface StartRecord {
  /** The toolchain that will answer (the one the workspace may bring), or null. */
  toolchainChosen(toolchain: ToolchainReport | null): void;
  /** The project roots found, relative to the workspace root; null for a server that takes none. */
  projectsFound(projects: string[] | null): void;
  /** The server's tree runs: its exit and its memory are the session's to watch from now on. */
  spawned(server: SupervisedServer): void;
  /** The client on `server`'s stdio, before `initialize`, so that a server exit during the handshake ends it at once. */
  connected(client: LspClient, server: SupervisedServer): void;
  /** The version the server reports (again, when its adapter confirmed the compiler that answers). */
  reported(version: string | null): void;
}

/**
 * Starts a session's server within `deadline`: what `launchFor` says it runs, the version command
 * beside the spawn, the connection and `initialize`, the version pin, and the adapter's check of
 * the compiler that answers. Resolves with the initialized client and the version that passed the
 * pin; a failure is thrown as it came (the session judges it, see `start-failure.ts`).
 */
export async function startServer(inputs: StartInputs, record: StartRecord, deadline: Deadline): Promise<StartOutcome> {
  const { workspace, key, logger } = inputs;
  let server = inputs.server;
  const env = scrubbedEnv(await expandWorkspaceCache(server.env, workspace), server.inherit_env);
  // An entry that names no adapter and whose command is no known package may still be a known
  // server by what its version command prints: that command runs first, so the server starts
  // with its own adapter from `initialize` on.
  const recognisable = server.adapter_chosen_by.by === "standard";
  let versionFromCommand: Promise<string | null> | null = null;
  if (recognisable && server.version_command) {
    const output = await runVersionCommand(server.name, server.version_command, env, Math.max(1, deadline.remainingMs()), [workspace.root]);
    versionFromCommand = Promise.resolve(output);
    const known = knownByVersionOutput(output);
    if (known !== null) {
      server = recognised(server, known, "version output");
      logger.info("server recognised", { session: key, server: known.server, adapter: known.adapter, by: "version output" });
    }
  }
  // Restricted mode starts no server that would run the checkout's own code here.
  const checkoutCode = restrictedMode() ? await checkoutCodeIn(server, workspace.root) : null;
  if (checkoutCode !== null) throw new BridgeError("ServerStartFailed", checkoutCode, { server: server.name, restricted: true });
  // Which server this workspace needs (its own compiler, for TypeScript) is chosen afresh at
  // every start, so a reinstall in the workspace is seen by the next start.
  const launch = launchFor(server, workspace);
  record.toolchainChosen(launch.toolchain);
  // Found afresh at every start, as the compiler is: a package added since is then seen. The
  // search (a listing of the workspace) runs beside the spawn: only `initialize` needs its answer.
  const projectsFinding =
    server.projects === null ? Promise.resolve(null) : projectRootsIn(workspace.root, server.projects).then((roots) => ownProjects(server, workspace, roots));
  // The version command runs beside the server start: both must finish within the deadline.
  versionFromCommand ??= launch.versionCommand
    ? runVersionCommand(server.name, launch.versionCommand, env, Math.max(1, deadline.remainingMs()), [workspace.root])
    : Promise.resolve(null);
  versionFromCommand.catch(() => {});
  const spawned = await spawnSupervised(
    {
      command: launch.command,
      args: launch.args,
      env,
      cwd: workspace.root,
      label: key,
      maxRssMb: server.max_rss_mb,
      onStderr: (stream) => inputs.stderr.follow(stream),
    },
    inputs.supervision,
  );
  record.spawned(spawned);
  const projects = await projectsFinding;
  record.projectsFound(projects);
  const client = LspClient.connect({
    input: spawned.stdout,
    output: spawned.stdin,
    rootPath: workspace.root,
    workspaceName: workspace.name,
    initializationOptions: launch.initializationOptions,
    projects: (projects ?? []).map((folder) => join(workspace.root, folder)),
    settings: launch.settings,
    positionEncoding: server.position_encoding,
    settleQuietMs: server.settle_quiet_ms,
    serverCpuTicks: () => spawned.cpuTicks(),
    adapter: ADAPTERS[launch.adapter],
    maxOpenDocuments: inputs.maxOpenDocuments,
    log: (line) => logger.debug("server log", { session: key, line }),
    logRead: logger.enabled?.("debug") ?? true,
  });
  record.connected(client, spawned);
  await client.initialize(deadline);
  const reported = (await versionFromCommand) ?? client.serverInfo?.version ?? null;
  record.reported(reported);
  assertPinned(server.name, launch.version, reported);
  // Known only now, by what it answers `initialize` with: the session starts it again with its own
  // adapter, whose `initialize` may differ (options, file watching), once its pin has passed.
  if (server.adapter_chosen_by.by === "standard") {
    const known = knownByInitialize(client.serverInfo?.name, adapterAdvertised(client.capabilities.executeCommandProvider?.commands ?? []));
    if (known !== null) {
      logger.info("server recognised", { session: key, server: known.server, adapter: known.adapter, by: "serverInfo" });
      return { client, spawned, reported, again: recognised(server, known, "serverInfo") };
    }
  }
  // A server that runs a compiler it was given (typescript-language-server's tsserver): the one that answers is asked.
  const confirmToolchain = client.adapter.projectModel?.confirmToolchain;
  if (confirmToolchain && launch.toolchain !== null) record.reported(await confirmToolchain(launch.toolchain, deadline));
  return { client, spawned, reported, again: null };
}

/** How a start ended: ready, or to be made again as the known server it turned out to be (`again`). */
interface StartOutcome {
  readonly client: LspClient;
  readonly spawned: SupervisedServer;
  readonly reported: string | null;
  /** The entry as the known server it named itself, for a start afresh; null: `client` is ready. */
  readonly again: ResolvedServer | null;
}

/** `server` as the known server `known`, recognised by `evidence`. */
function recognised(server: ResolvedServer, known: KnownServer, evidence: "serverInfo" | "version output"): ResolvedServer {
  return { ...server, adapter: known.adapter, adapter_chosen_by: { by: "started", server: known.server, profile: known.profile, evidence } };
}

/**
 * The project roots (relative folders) a session answers: for a server whose projects each run
 * their own toolchain, those whose toolchain is the session's (the root's, for the configured
 * pair); every root for any other server.
 */
function ownProjects(server: ResolvedServer, workspace: ResolvedWorkspace, roots: string[]): string[] {
  const lookups = toolchainLookups();
  // Any file of the folder: its toolchain is the folder's.
  const keyOf = (folder: string) => toolchainFor(server, workspace, join(workspace.root, folder, "-"), lookups)?.key;
  const own = server.toolchain?.key ?? keyOf("");
  return own === undefined ? roots : roots.filter((folder) => keyOf(folder) === own);
}
