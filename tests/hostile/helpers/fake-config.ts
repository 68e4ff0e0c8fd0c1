// Bridges over the fake language server (--lsp): fast, deterministic sessions whose faults the
// test chooses, so that hostile-input tests measure the bridge and not a real server's moods.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERROR_CODES as CONTRACT_CODES } from "../../../src/contract/errors.js";
import { REPO, writeConfig } from "../../helpers/bridge.js";

export const FAKE_SERVER = join(REPO, "tests/fixtures/servers/fake-server.mjs");

/** One fake server entry: its name, the extension it claims, and extra fake-server flags. */
export interface FakeServerSpec {
  readonly name: string;
  readonly extension: string;
  readonly flags?: readonly string[];
}

/** The text of every fixture file: two symbols and two diagnostics, so results are not empty. */
export const SAMPLE_TEXT = "fn alpha\n  a bad line\nfn beta é😀\n  another bad one\n";

/**
 * A temp workspace with `a<ext>` per server (SAMPLE_TEXT) and a config with these servers on one
 * workspace `ws`. Returns the workspace root and the config path.
 */
export function fakeWorkspace(servers: readonly FakeServerSpec[], bridge = "request_timeout_ms = 5000"): { root: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-hostile-"));
  const root = join(dir, "ws");
  mkdirSync(root);
  const entries = servers.map((server) => {
    writeFileSync(join(root, `a${server.extension}`), SAMPLE_TEXT);
    return `
[[server]]
name = ${JSON.stringify(server.name)}
command = ${JSON.stringify(FAKE_SERVER)}
args = ${JSON.stringify(["--lsp", "--no-daemon", "--no-child", ...(server.flags ?? [])])}
version = "1.0.0"
languages = [{ id = "fake", extensions = [${JSON.stringify(server.extension)}] }]
`;
  });
  const config = writeConfig(
    `[bridge]\nmax_sessions = ${Math.max(4, servers.length)}\n${bridge}\n${entries.join("")}
[[workspace]]
name = "ws"
root = ${JSON.stringify(root)}
servers = ${JSON.stringify(servers.map((server) => server.name))}
`,
    dir,
  );
  return { root, config };
}

/** Resident and peak resident memory of a process in KiB, from /proc/PID/status. */
export function memoryOf(pid: number): { rssKiB: number; hwmKiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssKiB: field("VmRSS"), hwmKiB: field("VmHWM") };
}

/** The codes of CONTRACT §6, as the bridge defines them (one list, in `src/contract/errors.ts`). */
export const ERROR_CODES: ReadonlySet<string> = new Set(CONTRACT_CODES);

/** Polls `test` every 20 ms until it holds or `timeoutMs` passes; resolves whether it held. */
export async function eventually(test: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (test()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return test();
}

/** What a fake server started with `--record FILE` has received so far, in order. */
export function recordedMessages(file: string): { id?: number; method?: string; params?: { id?: number } }[] {
  return (existsSync(file) ? readFileSync(file, "utf8") : "")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
