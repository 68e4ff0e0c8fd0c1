import { resolve } from "node:path";
import { BridgeError } from "../contract/errors.js";
import { gitTopLevel } from "./discover-config.js";
import { loadDefaultConfig } from "./default-config.js";
import { loadConfigFile, type LoadOptions } from "./load-config.js";
import { packageRoot } from "./package-root.js";
import type { ProgramKey } from "./program-keys.js";
import type { ProjectRootsFinder } from "./project-roots.js";
import { restrictedMode } from "./restricted-mode.js";
import { stateFolder } from "./state-folder.js";
import { trustDigest, trustedDigest } from "./trust-store.js";
import { checkoutOf, isWithin, realPath, type TrustSubject, trustSubject } from "./trust-subject.js";
import type { ConfigSource, ResolvedConfig } from "./types.js";

/** How CI says that it trusts whatever configuration the checkout holds. */
type TrustOptIn = "--trust-config" | "LSPMCP_TRUST_CONFIG=1";

/** How a command came by its configuration: what decides whether that configuration needs trust. */
export interface TrustContext {
  /** Found by discovery, or named with `--config` inside the checkout the command runs in. */
  readonly fromCheckout: boolean;
  readonly optIn: TrustOptIn | null;
}

/**
 * Whether a configuration may run its programs. `not-needed`: it runs none beyond the shipped
 * profiles' own, or the user named it from outside the checkout. `trusted`: by a recorded trust
 * of this very file, or by the opt-in. `untrusted`: none of it may run.
 */
export type TrustState =
  | { readonly state: "not-needed"; readonly reason: string }
  | { readonly state: "trusted"; readonly by: "record" | TrustOptIn; readonly programs: readonly ProgramKey[] }
  | { readonly state: "untrusted"; readonly path: string; readonly programs: readonly ProgramKey[]; readonly reason: string };

/** A loaded configuration and whether it may run. */
export interface JudgedConfig {
  readonly config: ResolvedConfig;
  readonly trust: TrustState;
}

/**
 * The trust context of a command run in `cwd` with `--config configArg` (null: discovery) and
 * `--trust-config` given or not. The checkout is the git top-level of `cwd`, else `cwd` itself:
 * a file named inside it is the checkout's as much as a discovered one, since a CI job or an
 * agent names the checkout's own file that way. Inside it by the name given or by the file's
 * real path: a path through a symlinked folder (`$PWD` after a `cd` through a link) or a link
 * the checkout holds names the checkout's file all the same.
 */
export function trustContextFor(
  configArg: string | null,
  source: ConfigSource,
  trustFlag: boolean,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): TrustContext {
  const optIn = trustFlag ? "--trust-config" : env.LSPMCP_TRUST_CONFIG === "1" ? "LSPMCP_TRUST_CONFIG=1" : null;
  if (source.kind === "default") return { fromCheckout: false, optIn };
  const checkout = gitTopLevel(cwd) ?? resolve(cwd);
  const inside = (folder: string) => isWithin(source.path, folder) || isWithin(realPath(source.path), folder);
  return { fromCheckout: configArg === null || inside(checkout) || inside(realPath(checkout)), optIn };
}

/**
 * Loads the configuration of `source` (rejecting with ConfigInvalid as loading does) and judges
 * its trust on the very text that was loaded. Runs nothing of it.
 */
export async function judgeConfig(
  source: ConfigSource,
  context: TrustContext,
  projectRoots: ProjectRootsFinder,
  options: LoadOptions = {},
): Promise<JudgedConfig> {
  if (source.kind === "default") {
    return {
      config: await loadDefaultConfig(source.root, projectRoots, options),
      trust: { state: "not-needed", reason: "the embedded default runs only the shipped profiles" },
    };
  }
  const { config, text, document } = await loadConfigFile(source.path, options);
  const subject = await trustSubject(config, document, options.packageRoot ?? packageRoot());
  return { config, trust: decide(subject, text, context) };
}

function decide(subject: TrustSubject, text: string, context: TrustContext): TrustState {
  const { path, keys: programs } = subject;
  if (programs.length === 0) return { state: "not-needed", reason: "it only picks shipped profiles" };
  if (!context.fromCheckout) return { state: "not-needed", reason: "it was named with --config from outside the checkout" };
  if (restrictedMode()) return { state: "untrusted", path, programs, reason: "restricted mode runs none of a checkout's own programs, trusted or not" };
  if (context.optIn !== null) return { state: "trusted", by: context.optIn, programs };
  const folder = stateFolder();
  const misplaced = misplacedTrustFolder(path, folder);
  if (misplaced !== null) return { state: "untrusted", path, programs, reason: misplaced };
  const trusted = trustedDigest(path, folder);
  if (trusted === trustDigest(path, text, subject.programs)) return { state: "trusted", by: "record", programs };
  const reason = trusted === null ? "it has not been trusted" : "it has changed since it was trusted (the file, or a program it names inside its checkout)";
  return { state: "untrusted", path, programs, reason };
}

/**
 * Why the trust records in `folder` cannot count for the config at `configPath` (its real path),
 * or null: a record inside the checkout that holds the file (its git top-level, else its folder)
 * is one the checkout could bring along, trusting itself.
 */
export function misplacedTrustFolder(configPath: string, folder: string): string | null {
  const checkout = checkoutOf(configPath);
  return isWithin(folder, checkout) || isWithin(realPath(folder), checkout)
    ? `the trust records (${folder}) are inside the checkout ${checkout}; set XDG_STATE_HOME to a folder outside it`
    : null;
}

/** `config` when it may run; else the ConfigUntrusted error, which names the file, its programs and how to trust it. */
export function requireTrusted(judged: JudgedConfig): ResolvedConfig {
  if (judged.trust.state === "untrusted") throw untrustedError(judged.trust);
  return judged.config;
}

/** The command that trusts the file at `path`, ready to paste into a shell. */
export function trustCommand(path: string): string {
  return `lspmcp trust --config ${/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`}`;
}

function untrustedError(trust: Extract<TrustState, { state: "untrusted" }>): BridgeError {
  return new BridgeError(
    "ConfigUntrusted",
    `untrusted configuration ${trust.path}: ${trust.reason}, and it would run programs beyond the shipped profiles' own, move lspmcp's own files ` +
      `or reach beyond its checkout (listed below); nothing of it was run. To trust it as it is now: ${trustCommand(trust.path)} (in CI: --trust-config or LSPMCP_TRUST_CONFIG=1)`,
    { path: trust.path, programs: trust.programs, trust_command: trustCommand(trust.path) },
  );
}

/** One line saying whether a configuration may run, for `validate` and `status`. */
export function describeTrust(trust: TrustState): string {
  switch (trust.state) {
    case "not-needed":
      return `trust: not needed (${trust.reason})`;
    case "trusted":
      return `trust: trusted (${trust.by === "record" ? "recorded with lspmcp trust" : trust.by}); it runs ${trust.programs.map((key) => key.path).join(", ")}`;
    case "untrusted":
      return `trust: NOT trusted (${trust.reason}); serve and check refuse it until: ${trustCommand(trust.path)}`;
  }
}
