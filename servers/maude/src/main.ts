/**
 * Entry point of `lspmcp-maude-server`: LSP over stdio. `--stdio` is accepted (and is the only
 * transport); `--version` prints the version. Every way out kills the running checks' process
 * groups first, so no maude outlives the server.
 */
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { removeAllTempDirs } from "./check-input.js";
import { killAllGroups } from "./process-groups.js";
import { startServer } from "./server.js";
import { SERVER_NAME, SERVER_VERSION } from "./version.js";

const args = process.argv.slice(2);
if (args.includes("--version")) {
  process.stdout.write(`${SERVER_NAME} ${SERVER_VERSION}\n`);
  process.exit(0);
}
if (args.includes("--help")) {
  process.stdout.write(`usage: ${SERVER_NAME} [--stdio]\nA Maude diagnostics language server (LSP over stdio).\n`);
  process.exit(0);
}
const unknown = args.filter((a) => a !== "--stdio" && !a.startsWith("--clientProcessId"));
if (unknown.length > 0) {
  process.stderr.write(`${SERVER_NAME}: unknown arguments: ${unknown.join(" ")}\n`);
  process.exit(2);
}

// 'exit' runs on every process.exit (stdin EOF, the exit notification, the parent-pid watchdog).
const cleanUp = (): void => {
  killAllGroups();
  removeAllTempDirs();
};
process.on("exit", cleanUp);
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.on(signal, () => process.exit(0)); // process.exit runs cleanUp through 'exit'.
}

// Logs go to stderr: stdout carries the protocol and nothing else.
const log = (line: string): void => void process.stderr.write(`${line}\n`);
startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout), log);
