#!/usr/bin/env node
import { BridgeError } from "../contract/errors.js";
import { packageVersion } from "./package-version.js";
import { parseCommand, USAGE } from "./parse-args.js";
import { createStderrLogger } from "./stderr-logger.js";

/** Exit code for an invalid configuration or usage (CONTRACT §2). */
const EXIT_USAGE = 2;

// Each command is loaded only when run: an attached `serve` (one per worker) must not carry the
// sessions, LSP and check machinery it never uses.
async function main(argv: readonly string[]): Promise<number> {
  const logger = createStderrLogger();
  try {
    const command = parseCommand(argv);
    switch (command.kind) {
      case "help":
        process.stdout.write(USAGE);
        return 0;
      case "version":
        process.stdout.write(`lspmcp ${packageVersion()}\n`);
        return 0;
      case "validate": {
        const { validateConfig } = await import("../config/validate-config.js");
        const result = await validateConfig(command.config);
        (result.ok ? process.stdout : process.stderr).write(result.text);
        return result.ok ? 0 : EXIT_USAGE;
      }
      case "serve":
        return await (await import("./serve.js")).serve(command.config, command.standalone, logger, packageVersion());
      case "shared-server":
        return await (await import("./serve-shared.js")).serveShared(command.config, logger, packageVersion());
      case "status":
        return await (await import("./status.js")).status(command.config, command.format);
      case "check":
        return await (await import("./check.js")).check(command);
    }
  } catch (error) {
    return reportFatal(error, logger);
  }
}

/** Config and usage problems are the user's to fix: a clear message and exit 2, no stack trace. */
function reportFatal(error: unknown, logger: { error: (message: string, fields?: Record<string, unknown>) => void }): number {
  if (error instanceof BridgeError && (error.code === "ConfigInvalid" || error.code === "InvalidArguments")) {
    const problems = (error.details.problems as { path: string; message: string }[] | undefined) ?? [];
    process.stderr.write(`lspmcp: ${error.message}\n`);
    for (const problem of problems) process.stderr.write(`  ${problem.path}: ${problem.message}\n`);
    if (error.code === "InvalidArguments") process.stderr.write(USAGE);
    return EXIT_USAGE;
  }
  logger.error(error instanceof Error ? error.message : String(error));
  return 1;
}

// Exit explicitly: stdin and timers of a finished `serve` must not keep the process alive.
// (stdout and stderr are synchronous for files and pipes on Linux, so nothing is cut short.)
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  () => process.exit(1),
);
