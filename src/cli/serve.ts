import { restrictedMode } from "../config/restricted-mode.js";
import type { JudgedConfig } from "../config/config-trust.js";
import type { ResolvedConfig } from "../config/types.js";
import type { Logger } from "../contract/logger.js";
import type { ListenAddress } from "../http/listen-address.js";
import { BoundedLineTransport } from "../mcp/bounded-line-transport.js";
import type { MessageChannel } from "../mcp/message-channel.js";
import { RevisionGate } from "../mcp/revision-gate.js";
import { StartupResponder } from "../mcp/startup-responder.js";

/** Exit code of a listen address that cannot be had (CONTRACT §2: usage). */
const EXIT_USAGE = 2;

/** `serve --http HOST:PORT [--token-file FILE] [--allow-remote] [--allowed-host NAME]...`. */
export interface HttpOptions {
  readonly address: ListenAddress;
  readonly tokenFile: string | null;
  /** Names `Host` and `Origin` may give beyond loopback's (allowedHostNames). */
  readonly allowedHosts: readonly string[];
}

/**
 * `lspmcp serve`: MCP over stdio, with the config that `judgedConfig` finds, loads and judges
 * (`--config`, or the discovered one). The agent is answered from the first line (`initialize`,
 * `tools/list`, `ping`: see StartupResponder) while the config is found and loaded. Unless
 * `--standalone` is given or `[shared] enabled = false`, the bridge's sessions live in the one shared server of
 * this config, which this process finds or elects and then attaches to; where sharing cannot work
 * here it serves standalone. stderr names the configuration in use, and for the embedded default
 * the servers it left out. An invalid or untrusted config still ends the process with exit code 2,
 * having run nothing of it. With `http`, the same over Streamable HTTP instead of stdio
 * (http-front.ts), listening once the config is loaded.
 */
export async function serve(
  judgedConfig: () => Promise<JudgedConfig>,
  standalone: boolean,
  logger: Logger,
  version: string,
  http: HttpOptions | null = null,
): Promise<number> {
  if (http !== null) {
    const config = await trustedConfig(judgedConfig, logger);
    const channel = await listenHttp(http, config.shared.lease_dir, logger);
    if (typeof channel === "number") return channel;
    const { stdio, responder } = await front(channel, version);
    return rest(config, standalone, logger, version, stdio, responder);
  }
  const { stdio, responder } = await front(new BoundedLineTransport(process.stdin, process.stdout), version);
  return rest(await trustedConfig(judgedConfig, logger), standalone, logger, version, stdio, responder);
}

async function trustedConfig(judgedConfig: () => Promise<JudgedConfig>, logger: Logger): Promise<ResolvedConfig> {
  const { describeConfig } = await import("../config/config-source.js");
  const { answeringClause } = await import("../languages/index.js");
  const { requireTrusted } = await import("../config/config-trust.js");
  const config = requireTrusted(await judgedConfig());
  logger.info(describeConfig(config, answeringClause));
  return config;
}

// Both MCP revisions: 2026-07-28 requests are told apart and answered at the gate (revision-gate.ts).
async function front(channel: MessageChannel, version: string): Promise<{ stdio: RevisionGate; responder: StartupResponder }> {
  const stdio = new RevisionGate(channel, version);
  const responder = new StartupResponder(stdio, version);
  await stdio.start();
  return { stdio, responder };
}

async function rest(
  config: ResolvedConfig,
  standalone: boolean,
  logger: Logger,
  version: string,
  stdio: MessageChannel,
  responder: StartupResponder,
): Promise<number> {
  // A restricted bridge shares its sessions with no other: a shared one may run what it does not.
  if (standalone || !config.shared.enabled || restrictedMode())
    return (await import("./serve-standalone.js")).serveStandalone(config, logger, version, stdio, responder);
  return (await import("./serve-attached.js")).serveAttached(config, logger, version, stdio, responder);
}

// The HTTP front with its token, or the exit code when the address cannot be had.
async function listenHttp(http: HttpOptions, leaseDir: string | null, logger: Logger): Promise<MessageChannel | number> {
  const { httpToken } = await import("../http/http-token.js");
  const { runtimeFolder } = await import("../config/runtime-folder.js");
  const { HttpFront } = await import("../http/http-front.js");
  const { token, path } = httpToken(http.tokenFile, runtimeFolder(leaseDir));
  try {
    const { front, url } = await HttpFront.listen({ ...http.address, token, allowedHosts: http.allowedHosts });
    logger.info("serving MCP over HTTP", { url, token_file: path });
    return front.channel;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    process.stderr.write(
      `lspmcp: cannot listen on ${http.address.host}:${http.address.port}: ${code}${code === "EADDRINUSE" ? " (the port is in use)" : ""}\n`,
    );
    return EXIT_USAGE;
  }
}
