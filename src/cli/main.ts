#!/usr/bin/env -S node --max-semi-space-size=2 --initial-old-space-size=16 --optimize-for-size
import type { JudgedConfig, TrustContext } from "../config/config-trust.js";
import type { ConfigSource } from "../config/types.js";
import { BridgeError, errorText } from "../contract/errors.js";
import { exitWhenFlushed, tolerateClosedReaders } from "./exit-when-flushed.js";
import { buildIdentity } from "../sharing/build-identity.js";
import { packageVersion } from "./package-version.js";
import { parseCommand, RESTRICTED_FLAG, USAGE } from "./parse-args.js";
import { RESTRICTED_VARIABLE } from "../config/restricted-mode.js";
import { createStderrLogger } from "./stderr-logger.js";
import { escapeLines, escapeText } from "../contract/escape-text.js";

/** Exit code for an invalid configuration or usage (CONTRACT §2). */
const EXIT_USAGE = 2;
/**
 * `check`'s exit code for a run that gave no report (CONTRACT §2): never 1, which a CI gate reads
 * as findings, even when its own code cannot load (a machine out of file descriptors).
 */
const EXIT_CHECK_NO_REPORT = 3;

// Each command is loaded only when run: an attached `serve` (one per worker) must not carry the
// sessions, LSP and check machinery it never uses.
async function main(given: readonly string[]): Promise<number> {
  const logger = createStderrLogger();
  let kind: string | null = null;
  try {
    // `--restricted` goes with any command, in any place, and holds for the whole process: the
    // sessions, the supervisors and the helpers it starts read it from the environment.
    const argv = given.filter((arg) => arg !== RESTRICTED_FLAG);
    if (argv.length < given.length) process.env[RESTRICTED_VARIABLE] = "1";
    const command = parseCommand(argv);
    kind = command.kind;
    switch (command.kind) {
      case "help":
        process.stdout.write(USAGE);
        return 0;
      case "version":
        process.stdout.write(`lspmcp ${packageVersion()}\n`);
        return 0;
      case "validate": {
        const { validateConfig } = await import("../config/validate-config.js");
        const { source, context } = await configRequest(command.config, command.trustConfig);
        const { answeringClause, projectRootsIn } = await import("../languages/index.js");
        const result = await validateConfig(source, projectRootsIn, context, {}, answeringClause);
        (result.ok ? process.stdout : process.stderr).write(result.text);
        return result.ok ? 0 : EXIT_USAGE;
      }
      case "trust":
        return await (await import("./trust.js")).trust(command.config, process.cwd());
      case "init":
        return await (await import("./init.js")).init(process.cwd());
      case "servers":
        return await (await import("./servers.js")).servers(command.format);
      case "servers-install":
        return await (await import("./servers-install.js")).serversInstall(command);
      case "serve":
        // Which build this is, read before anything could replace the install under this process.
        buildIdentity();
        // The config is found and loaded inside `serve`, after its front has begun answering.
        return await (await import("./serve.js")).serve(
          () => judgedConfig(command.config, command.trustConfig),
          command.standalone,
          logger,
          packageVersion(),
          command.http,
        );
      case "shared-server": {
        buildIdentity();
        const { judgeConfig } = await import("../config/config-trust.js");
        // A file comes with the judgement of the serve that launched this server (--trust-config).
        const judged =
          command.defaultRoot === null
            ? await judgedConfig(command.config, command.trustConfig)
            : await judgeConfig(
                { kind: "default", root: command.defaultRoot },
                { fromCheckout: false, optIn: null },
                (await import("../languages/index.js")).projectRootsIn,
              );
        return await (await import("./serve-shared.js")).serveShared(judged, logger, packageVersion());
      }
      case "status":
        return await (await import("./status.js")).status(await judgedConfig(command.config, command.trustConfig), command.format);
      case "check":
        return await (await import("./check.js")).check(command);
      case "parity":
        return await (await import("./parity.js")).parity(command);
    }
  } catch (error) {
    return reportFatal(error, logger, kind === "check" || kind === "parity" ? EXIT_CHECK_NO_REPORT : 1);
  }
}

/**
 * The configuration of `--config FILE`, or the discovered file or embedded default (CONTRACT §2),
 * loaded and judged for trust; running nothing of it.
 */
async function judgedConfig(configArg: string | null, trustFlag: boolean): Promise<JudgedConfig> {
  const { source, context } = await configRequest(configArg, trustFlag);
  const { projectRootsIn } = await import("../languages/index.js");
  return (await import("../config/config-trust.js")).judgeConfig(source, context, projectRootsIn);
}

/** Which configuration a command in this folder uses, and how it came by it (what its trust depends on). */
async function configRequest(configArg: string | null, trustFlag: boolean): Promise<{ source: ConfigSource; context: TrustContext }> {
  const { configSourceFor } = await import("../config/config-source.js");
  const { trustContextFor } = await import("../config/config-trust.js");
  const cwd = process.cwd();
  const source = configSourceFor(configArg, cwd);
  return { source, context: trustContextFor(configArg, source, trustFlag, cwd) };
}

/** Config and usage problems are the user's to fix: a clear message and exit 2, no stack trace. */
function reportFatal(error: unknown, logger: { error: (message: string, fields?: Record<string, unknown>) => void }, failure: number): number {
  if (error instanceof BridgeError && (error.code === "ConfigInvalid" || error.code === "ConfigUntrusted" || error.code === "InvalidArguments")) {
    const programs = (error.details.programs as { path: string; value: string }[] | undefined) ?? [];
    // The code names a refusal for scripts that read stderr; ConfigInvalid's problems say enough,
    // and its message already lists them, one a line.
    // The message names the file and its keys: text of the checkout's, shown escaped.
    process.stderr.write(`lspmcp: ${escapeLines(error.message)}${error.code === "ConfigUntrusted" ? " (ConfigUntrusted)" : ""}\n`);
    for (const program of programs) process.stderr.write(`  ${escapeText(program.path)} = ${escapeText(program.value)}\n`);
    if (error.code === "InvalidArguments") process.stderr.write(USAGE);
    return EXIT_USAGE;
  }
  logger.error(errorText(error));
  return failure;
}

// Exit explicitly, since stdin and timers of a finished `serve` must not keep the process alive,
// but only once stdout and stderr have been flushed: a pipe to a slow reader is written
// asynchronously, and exiting earlier would cut the report short.
tolerateClosedReaders();
main(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  () => exitWhenFlushed(1),
);
