import { parseArgs } from "node:util";
import { DEFAULT_BATCH_SIZE } from "../diagnostics/run/batch-size.js";
import { parseShard, type Shard } from "../diagnostics/findings/shard-spec.js";
import { BridgeError, errorText } from "../contract/errors.js";
import { allowedHostNames, isLoopbackHost, isWildcardHost, parseListenAddress } from "../http/listen-address.js";
import { PARITY_USAGE, parseParity, type ParityCommand } from "./parse-parity.js";
import type { HttpOptions } from "./serve.js";

const FORMATS = ["text", "json", "sarif"] as const;
const FAIL_ON = ["error", "warning", "information", "hint", "never"] as const;

export const STATUS_FORMATS = ["text", "json"] as const;

/** The option that turns restricted mode on for any command (`main` takes it off before parsing). */
export const RESTRICTED_FLAG = "--restricted";

/**
 * `config` is the `--config` argument, or null for discovery (CONTRACT §2). The internal
 * `shared-server` is given either a file or, with `--default-root`, the root of an embedded default.
 * `trustConfig` is `--trust-config`: run the checkout's configuration without a recorded trust.
 */
export type Command =
  | { readonly kind: "serve"; readonly config: string | null; readonly trustConfig: boolean; readonly standalone: boolean; readonly http: HttpOptions | null }
  | { readonly kind: "shared-server"; readonly config: string | null; readonly trustConfig: boolean; readonly defaultRoot: string | null }
  | { readonly kind: "status"; readonly config: string | null; readonly trustConfig: boolean; readonly format: (typeof STATUS_FORMATS)[number] }
  | { readonly kind: "validate"; readonly config: string | null; readonly trustConfig: boolean }
  | { readonly kind: "trust"; readonly config: string | null }
  | { readonly kind: "init" }
  | { readonly kind: "servers"; readonly format: (typeof STATUS_FORMATS)[number] }
  /**
   * `servers install`: the named servers, or every one (`all`), or what the configuration in force
   * for `forPath` runs (`config`, else the one found there, else the embedded default).
   */
  | { readonly kind: "servers-install"; readonly names: string[]; readonly all: boolean; readonly forPath: string | null; readonly config: string | null }
  | {
      readonly kind: "check";
      readonly config: string | null;
      readonly trustConfig: boolean;
      readonly format: (typeof FORMATS)[number];
      readonly failOn: (typeof FAIL_ON)[number];
      readonly quiet: boolean;
      readonly baseline: string | null;
      readonly writeBaseline: string | null;
      readonly batchSize: number;
      readonly shard: Shard | null;
      /** `--since REV`: judge only what changed since this git revision. */
      readonly since: string | null;
      readonly paths: string[];
    }
  | ParityCommand
  | { readonly kind: "help" }
  | { readonly kind: "version" };

export const USAGE = `usage:
  lspmcp [serve] [--config FILE] [--trust-config] [--standalone]
         [--http [HOST:]PORT [--token-file FILE] [--allow-remote] [--allowed-host NAME]...]
                                      MCP over stdio until EOF or signal; shares one bridge per
                                      config with other lspmcp processes unless --standalone;
                                      with --http, MCP over Streamable HTTP on loopback, every
                                      request carrying the bearer token of --token-file, else of
                                      http-token in the runtime folder; an address beyond
                                      loopback needs --allow-remote, and one on every interface
                                      (0.0.0.0) the names clients use (--allowed-host, which Host
                                      and Origin must give); put TLS in front of any such address
  lspmcp check [--config FILE] [--trust-config] [--format text|json|sarif] [--fail-on error|warning|information|hint|never]
               [--quiet] [--baseline FILE] [--write-baseline FILE] [--batch-size N] [--shard K/N] [--since REV] [PATH...]
${PARITY_USAGE}  lspmcp validate [--config FILE]     check a bridge.toml, list every problem, and say whether it is trusted
  lspmcp status [--config FILE] [--format text|json]
                                      the shared bridge of this config, its peers and sessions
  lspmcp trust [--config FILE]        trust the bridge.toml found here (or FILE) as it is now: let it
                                      run the programs it names beyond the shipped profiles
  lspmcp init                         write the embedded default as a commented bridge.toml here
  lspmcp servers [--format text|json] every shipped server profile: pin, installed or not, how it installs
  lspmcp servers install NAME... | --all | --for PATH [--config FILE]
                                      install the pinned servers into the tool cache
                                      ($XDG_CACHE_HOME/lspmcp, else ~/.cache/lspmcp) and verify the pin;
                                      --for: those the configuration in force there runs (FILE, else
                                      the bridge.toml found there, else the embedded default)
  lspmcp shared-server --config FILE | --default-root DIR
                                      (internal) the shared bridge that serve launches
  lspmcp --version | --help

without --config: the first bridge.toml or .lspmcp.toml in the current folder or its parents
(up to the git top-level), else an embedded default for the git top-level (or this folder)
serving every shipped profile whose language occurs there.

restricted: --restricted (any command) or LSPMCP_RESTRICTED=1 runs none of the checkout's own code
(its own TypeScript package, its virtualenv's interpreter, configuration files servers load as code,
build scripts and proc macros, go list, the programs its config names): each file whose answer
would need it is listed as not checked, with the reason. serve then runs standalone.

trust: a config in the checkout (found, or named with --config inside it) that runs programs
beyond the shipped profiles' own (command, args, version_command, env, adapter, settings,
initialization_options), or moves lspmcp's own files ([shared] lease_dir), runs nothing until \`lspmcp trust\` records it (in $XDG_STATE_HOME/lspmcp,
else ~/.local/state/lspmcp); any change to it needs trust again. CI opts in with --trust-config
or LSPMCP_TRUST_CONFIG=1.

exit codes: 0 ok; 1 findings at/above --fail-on (check), or no shared bridge (status);
            1 a server failed to install (servers install);
            2 invalid or untrusted config, or usage, or a missing or too old toolchain or Debian package (servers install);
            1 the bridge's findings differ from the CLI's (parity);
            3 a server failed (check), or failed or did not settle in a run (parity)
`;

/** argv (without node and script) → a command; bad usage is `InvalidArguments` (exit 2). */
export function parseCommand(argv: readonly string[]): Command {
  const first = argv[0];
  const named =
    first === "serve" || first === "check" || first === "validate" || first === "status" || first === "shared-server" || first === "init" || first === "trust";
  if (first === "servers") return parseServers(argv.slice(1));
  if (first === "parity") return parseParity(argv.slice(1));
  const kind = named ? first : "serve";
  const rest = named ? argv.slice(1) : [...argv];
  const parsed = refusingAsUsage(() =>
    parseArgs({
      args: rest,
      allowPositionals: kind === "check",
      strict: true,
      options: {
        config: { type: "string", short: "c" },
        "trust-config": { type: "boolean" },
        "default-root": { type: "string" },
        format: { type: "string" },
        "fail-on": { type: "string" },
        quiet: { type: "boolean", short: "q" },
        baseline: { type: "string" },
        "write-baseline": { type: "string" },
        "batch-size": { type: "string" },
        shard: { type: "string" },
        since: { type: "string" },
        standalone: { type: "boolean" },
        http: { type: "string" },
        "token-file": { type: "string" },
        "allow-remote": { type: "boolean" },
        "allowed-host": { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
      },
    }),
  );
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const config = values.config ?? null;
  if (config === "") throw usage("--config needs a file name");
  if (kind === "init") {
    if (Object.values(values).some((value) => value !== undefined)) throw usage("init takes no options: it writes ./bridge.toml");
    return { kind };
  }
  const trustConfig = values["trust-config"] ?? false;
  if (kind === "trust") {
    if (Object.entries(values).some(([name, value]) => name !== "config" && value !== undefined)) throw usage("trust takes only --config FILE");
    return { kind, config };
  }
  if (kind === "shared-server") {
    const defaultRoot = values["default-root"] ?? null;
    if ((config === null) === (defaultRoot === null)) throw usage("shared-server needs exactly one of --config FILE and --default-root DIR");
    return { kind, config, trustConfig, defaultRoot };
  }
  if (values["default-root"] !== undefined) throw usage("--default-root belongs to shared-server");
  if (values.standalone !== undefined && kind !== "serve") throw usage("--standalone belongs to serve");
  const checkOnly = [values["fail-on"], values.quiet, values.baseline, values["write-baseline"], values["batch-size"], values.shard, values.since];
  if (kind !== "check" && (checkOnly.some((value) => value !== undefined) || (kind !== "status" && values.format !== undefined))) {
    throw usage("--format belongs to check and status; --fail-on, --quiet, --baseline, --write-baseline, --batch-size, --shard and --since to check");
  }
  const httpOnly = [values["token-file"], values["allow-remote"], values["allowed-host"]];
  if ((values.http !== undefined || httpOnly.some((value) => value !== undefined)) && kind !== "serve")
    throw usage("--http, --token-file, --allow-remote and --allowed-host belong to serve");
  if (httpOnly.some((value) => value !== undefined) && values.http === undefined) throw usage("--token-file, --allow-remote and --allowed-host go with --http");
  if (kind === "serve") {
    const http = httpOptions(values.http, values["token-file"], values["allow-remote"] ?? false, values["allowed-host"] ?? []);
    return { kind, config, trustConfig, standalone: values.standalone ?? false, http };
  }
  if (kind === "status") return { kind, config, trustConfig, format: oneOf(values.format ?? "text", STATUS_FORMATS, "--format") };
  if (kind !== "check") return { kind, config, trustConfig };
  const format = oneOf(values.format ?? "text", FORMATS, "--format");
  const failOn = oneOf(values["fail-on"] ?? "error", FAIL_ON, "--fail-on");
  if (values.since !== undefined && values.since.trim() === "") throw usage("--since needs a git revision");
  // Each decides on its own which findings are old; together they would contradict each other.
  if (values.since !== undefined && values.baseline !== undefined) throw usage("--since and --baseline exclude each other");
  return {
    kind,
    config,
    trustConfig,
    format,
    failOn,
    quiet: values.quiet ?? false,
    baseline: values.baseline ?? null,
    writeBaseline: values["write-baseline"] ?? null,
    batchSize: batchSize(values["batch-size"]),
    shard: values.shard === undefined ? null : parseShard(values.shard),
    since: values.since ?? null,
    paths: positionals,
  };
}

/** `servers [--format F]` and `servers install NAME... | --all | --for PATH`. */
function parseServers(argv: readonly string[]): Command {
  const install = argv[0] === "install";
  const { values, positionals } = refusingAsUsage(() =>
    parseArgs({
      args: install ? argv.slice(1) : [...argv],
      allowPositionals: install,
      strict: true,
      options: {
        format: { type: "string" },
        all: { type: "boolean" },
        for: { type: "string" },
        config: { type: "string", short: "c" },
        help: { type: "boolean", short: "h" },
      },
    }),
  );
  if (values.help) return { kind: "help" };
  if (!install) {
    if (values.all !== undefined || values.for !== undefined || values.config !== undefined) throw usage("--all, --for and --config belong to servers install");
    return { kind: "servers", format: oneOf(values.format ?? "text", STATUS_FORMATS, "--format") };
  }
  if (values.format !== undefined) throw usage("--format belongs to servers (the listing)");
  const all = values.all ?? false;
  const forPath = values.for ?? null;
  if (forPath === "") throw usage("--for needs a folder");
  if ([positionals.length > 0, all, forPath !== null].filter(Boolean).length !== 1) {
    throw usage("servers install needs server names, or --all, or --for PATH (one of the three)");
  }
  const config = values.config ?? null;
  if (config === "") throw usage("--config needs a file name");
  if (config !== null && forPath === null) throw usage("--config goes with --for PATH");
  return { kind: "servers-install", names: positionals, all, forPath, config };
}

function batchSize(value: string | undefined): number {
  if (value === undefined) return DEFAULT_BATCH_SIZE;
  const n = Number(value);
  if (/^[0-9]+$/.test(value) && n >= 1 && n <= 10_000) return n;
  throw usage(`--batch-size must be a whole number from 1 to 10000 (got "${value}")`);
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw usage(`${flag} must be one of ${allowed.join(", ")} (got "${value}")`);
}

function usage(message: string): BridgeError {
  return new BridgeError("InvalidArguments", message, {});
}

// node:util's parseArgs throws on an unknown or malformed option: that is a usage error.
function refusingAsUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw usage(errorText(error));
  }
}

/**
 * `--http [HOST:]PORT`, `--token-file FILE`, `--allow-remote` and `--allowed-host NAME`, or null
 * for stdio. An address beyond loopback is taken only with `--allow-remote`; one on every
 * interface only with the names clients will reach it by, which `Host` and `Origin` are held to.
 */
function httpOptions(http: string | undefined, tokenFile: string | undefined, allowRemote: boolean, allowedHosts: readonly string[]): HttpOptions | null {
  if (http === undefined) return null;
  const address = parseListenAddress(http);
  if (address === undefined) throw usage(`--http ${http}: give [HOST:]PORT, e.g. 127.0.0.1:8765`);
  if (tokenFile === "") throw usage("--token-file needs a file name");
  for (const name of allowedHosts) {
    if (!/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]+\]?)$/.test(name))
      throw usage(`--allowed-host ${name}: give a host name or address, without scheme or port`);
  }
  if (!isLoopbackHost(address.host) && !allowRemote)
    throw usage(`--http ${http} listens beyond this machine: add --allow-remote to mean it, and put TLS in front (the bearer token travels in clear)`);
  if (isWildcardHost(address.host) && allowedHosts.length === 0)
    throw usage(
      `--http ${http} listens on every interface: name the host names clients use with --allowed-host NAME (Host and Origin are checked against them)`,
    );
  return { address, tokenFile: tokenFile ?? null, allowedHosts: allowedHostNames(address, allowedHosts) };
}
