import { installHint } from "../config/install-hint.js";
import { buildToolchainOf, installWords } from "../config/install-recipes.js";
import { isCachedSource } from "../config/install-schema.js";
import { serverState, type StateContext } from "./server-state.js";
import type { ShippedServer } from "./shipped-servers.js";

/** One line of `lspmcp servers`: a shipped profile, its pin, whether it is here, how it gets here. */
export interface ServerListing {
  readonly name: string;
  readonly languages: readonly string[];
  readonly version: string;
  readonly installed: boolean;
  /** Where it is (its command, or its tool-cache folder); null when not installed. */
  readonly where: string | null;
  /** Why it is not installed; null when it is. */
  readonly why: string | null;
  /** `package` (lspmcp's npm dependency), `debian`, or the tool cache's `go`, `pypi`, `npm`, `cargo`. */
  readonly from: string;
  /** How it installs, in words: the registry and artifact. */
  readonly how: string;
  /** The command that installs it. */
  readonly install: string;
  /** What it needs on this machine beyond itself (a toolchain, an executable it runs). */
  readonly needs: readonly string[];
}

/** The listing of every shipped server, in name order; the states are found at once. */
export async function listServers(servers: readonly ShippedServer[], context: StateContext): Promise<ServerListing[]> {
  return Promise.all(servers.map((server) => listing(server, context)));
}

async function listing(server: ShippedServer, context: StateContext): Promise<ServerListing> {
  const state = await serverState(server, context);
  const source = server.install;
  const toolchain = isCachedSource(source) ? buildToolchainOf(source) : null;
  const runs = (source.needs ?? []).filter((executable) => executable !== toolchain?.executable).map((executable) => `\`${executable}\` on PATH`);
  const needs = [...(toolchain === null ? [] : [toolchain.what]), ...runs];
  return {
    name: server.name,
    languages: server.languages,
    version: server.version,
    installed: state.installed,
    where: state.installed ? state.where : null,
    why: state.installed ? null : state.why,
    from: source.from,
    how: installWords(source, server.version),
    install: installHint(server.name, source, server.command),
    needs,
  };
}
