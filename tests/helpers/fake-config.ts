// The one writer of configs over fake language servers (tests/fixtures/servers/): a temp folder
// with a workspace `ws` of small files and a bridge.toml whose servers the test chooses.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeConfig } from "./bridge.js";
import { FAKE_SERVER } from "./paths.js";
import { tempDir } from "./temp.js";

/** One fake server entry. */
export interface FakeServerSpec {
  readonly name: string;
  /** The one extension it claims. */
  readonly extension: string;
  /** Extra fake-server flags on top of `--lsp --no-daemon --no-child` (when `args` is not given). */
  readonly flags?: readonly string[];
  /** The program; the fake server by default. */
  readonly command?: string;
  /** Its whole argv, replacing the default flags. */
  readonly args?: readonly string[];
  /** Its pinned version; "1.0.0", which the fake server reports unless told otherwise. */
  readonly version?: string;
  /** The entry's `env` table. */
  readonly env?: Readonly<Record<string, string>>;
  /** More keys of the entry, as TOML lines (`settle_quiet_ms = 0`). */
  readonly keys?: string;
}

/** The text of every default fixture file: two symbols and two diagnostics, so results are not empty. */
export const SAMPLE_TEXT = "fn alpha\n  a bad line\nfn beta é😀\n  another bad one\n";

/**
 * A temp workspace and a config with these servers on its one workspace `ws`; `bridge` is the
 * body of the `[bridge]` table. The workspace holds `files`, or else `a<ext>` (SAMPLE_TEXT) per
 * server. Returns the workspace root and the config path; both go away after the test file.
 */
export function fakeWorkspace(
  servers: readonly FakeServerSpec[],
  bridge = "request_timeout_ms = 5000",
  files?: Readonly<Record<string, string>>,
): { root: string; config: string } {
  const dir = tempDir("lspmcp-fake-");
  const root = join(dir, "ws");
  mkdirSync(root);
  const contents = files ?? Object.fromEntries(servers.map((server) => [`a${server.extension}`, SAMPLE_TEXT]));
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(root, name), text);
  const entries = servers.map((server) => {
    const args = server.args ?? ["--lsp", "--no-daemon", "--no-child", ...(server.flags ?? [])];
    const env = Object.entries(server.env ?? {}).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
    return `
[[server]]
name = ${JSON.stringify(server.name)}
command = ${JSON.stringify(server.command ?? FAKE_SERVER)}
args = ${JSON.stringify(args)}
version = ${JSON.stringify(server.version ?? "1.0.0")}
languages = [{ id = "fake", extensions = [${JSON.stringify(server.extension)}] }]
${env.length > 0 ? `env = { ${env.join(", ")} }\n` : ""}${server.keys ?? ""}`;
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

/** What a fake server started with `--record FILE` has received so far, in order. */
export function recordedMessages(file: string): { id?: number; method?: string; params?: { id?: number } }[] {
  return (existsSync(file) ? readFileSync(file, "utf8") : "")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
