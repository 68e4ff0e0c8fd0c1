import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { isWithin } from "../../config/checkout-code.js";
import type { ResolvedServer, ToolchainChoice } from "../../config/types.js";
import { BridgeError } from "../../contract/errors.js";
import { isProjectRoot, type ProjectKind, type RootMarkers } from "../../config/project-roots.js";
import { ENVIRONMENT_FOLDERS, restrictedReason, shown } from "../checkout-code.js";
import { PYTHON_ROOT_MARKERS } from "./root-markers.js";
import { type AdapterLaunch, launchWith, type ToolchainLookups, type WorkspacePlace } from "../launch.js";

/** What runs, in the words of the profiles' `checkout_code` (pyrefly's, basedpyright's). */
const ENVIRONMENT_INTERPRETER = "the Python interpreter of the checkout's environment";
/** The toolchain key of the files whose configuration root has no environment of its own: the configured session's. */
const CONFIGURED = "configured";

/**
 * Restricted mode for a server that runs the interpreter of a Python environment it finds, and
 * that lspmcp hands its configuration roots (basedpyright), root by root: a file whose root — the
 * nearest of the server's own project roots (`projects`), else the workspace root — has a
 * virtualenv in it or in a folder above it within the workspace is refused, its own session never
 * started (so no interpreter of it runs) and the file listed as not checked; the other roots are
 * answered by the configured session, whose project folders leave the refused roots out. An
 * environment at or above the workspace root, or an active one in the checkout, refuses the whole
 * workspace (`checkout-code.ts`).
 */
export const RESTRICTED_ENVIRONMENT_LAUNCH: AdapterLaunch = {
  launch(server, workspace, from) {
    const refused = refusal(server, workspace, from);
    if (refused !== null) throw new BridgeError("ServerStartFailed", refused, { server: server.name, restricted: true });
    return launchWith(undefined, server, workspace);
  },
  describe(server, workspace, from) {
    const refused = refusal(server, workspace, from);
    return refused === null ? { answers: "its own environment search", own: null } : { refused, own: from };
  },
  toolchain(server, workspace, file, lookups): ToolchainChoice {
    const from = server.projects === null ? workspace.root : configurationRoot(dirname(file), workspace.root, server.projects, lookups);
    const key = `${server.name}\0environment\0${from}`;
    const known = lookups.choices.get(key);
    if (known) return known;
    const refused = refusal(server, workspace, from);
    const chosen: ToolchainChoice = { from, key: refused === null ? CONFIGURED : (environmentOf(from, workspace.root) ?? from), refused };
    lookups.choices.set(key, chosen);
    return chosen;
  },
};

/** Why restricted mode answers no file of the configuration root `from` (its environment would run), or null. */
function refusal(server: Pick<ResolvedServer, "name">, workspace: WorkspacePlace, from: string): string | null {
  const environment = environmentOf(from, workspace.root);
  if (environment === null) return null;
  return restrictedReason(server.name, ENVIRONMENT_INTERPRETER, shown(workspace.root, environment));
}

/** The virtualenv in `from` or a folder above it up to the workspace root, the nearest first; null when none. */
function environmentOf(from: string, root: string): string | null {
  for (let dir = from; isWithin(dir, root); dir = dirname(dir)) {
    for (const name of ENVIRONMENT_FOLDERS) if (existsSync(join(dir, name, "pyvenv.cfg"))) return join(dir, name);
    if (dir === root || dirname(dir) === dir) break;
  }
  return null;
}

/**
 * The nearest folder from `dir` up to the workspace root that is a project root of `kind` (the
 * server's own), else the root; a kind no Python checker reads has none but the root.
 */
function configurationRoot(dir: string, root: string, kind: ProjectKind, lookups: ToolchainLookups): string {
  const cacheKey = `${kind}\0${dir}`;
  const cached = lookups.configs.get(cacheKey);
  if (cached !== undefined && cached !== null) return cached;
  const markers: RootMarkers | undefined = (PYTHON_ROOT_MARKERS as Partial<Record<ProjectKind, RootMarkers>>)[kind];
  let found = root;
  for (let at = dir; isWithin(at, root) && at !== root; at = dirname(at)) {
    if (markers !== undefined && isProjectRoot(at, markers)) {
      found = at;
      break;
    }
  }
  lookups.configs.set(cacheKey, found);
  return found;
}
