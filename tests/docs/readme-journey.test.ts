// The README's first screen, followed as a new user does: its quick start's commands run as the
// page writes them (the tarball installed into a prefix of the test's own, `servers install` in a
// repository under a home of the test's own), the registration's command started as the MCP
// client starts it, the agent's call it shows made through the SDK's client and its answer held
// to the page's JSON, and the `check` run it shows held to its output, line by line.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { blockAfter, pageBlocks, shellCommands, transcript } from "../helpers/page-blocks.js";
import { REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { isAlive } from "../helpers/proc.js";
import { sharedStatus } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";

const page = pageBlocks("README.md");
const quickStart = shellCommands(blockAfter(page, "sh", "## Quick start").text);
const file = blockAfter(page, "ts", "An agent's call");
const call = blockAfter(page, "", "An agent's call").text.trim();
const answer = blockAfter(page, "json", "An agent's call").text;
const gate = transcript(blockAfter(page, "", "The same servers as a CI gate").text);

/** The home a reader's paths on the page stand for. */
const PAGE_HOME = "/home/me";

let work: string;
let home: string;
let repo: string;
let env: Record<string, string>;
let bridge: Bridge | undefined;

beforeAll(() => {
  work = tempDir("lspmcp-readme-");
  // The release's tarball, made as the Install section says (dist/ is built before the tests run).
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work, REPO], { cwd: work, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  expect(quickStart[0]).toBe(`npm install -g ./${packed}`);
  home = join(work, "home");
  repo = join(home, "your-repo");
  // The file the page's call names, with the text the page shows, in a git repository.
  const path = file.before.match(/`([\w./-]+)`:\s*$/)![1]!;
  mkdirSync(join(repo, path, ".."), { recursive: true });
  writeFileSync(join(repo, path), file.text);
  execFileSync("git", ["init", "-q"], { cwd: repo });
  const prefix = join(work, "prefix");
  env = {
    PATH: `${join(prefix, "bin")}:${process.env.PATH}`,
    HOME: home,
    XDG_RUNTIME_DIR: tempDir("lspmcp-readme-runtime-"),
    // The tool cache stays the machine's: every server is there.
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? "/root", ".cache"),
    npm_config_prefix: prefix,
    npm_config_cache: join(process.env.HOME ?? "/root", ".npm"),
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
}, 300_000);

afterAll(async () => {
  // The shared server the registration started outlives its client by its linger: wait it out, so that nothing writes into the folders as they go.
  const server = bridge === undefined ? null : (await sharedStatus({ config: null, cwd: repo, env })).server;
  await bridge?.close();
  if (server !== null) await pollUntil(() => !isAlive(server.pid), 30_000, 100);
});

describe("README.md", () => {
  test("the quick start installs lspmcp and the servers the repository needs, and registers a command that serves it", { timeout: 600_000 }, async () => {
    expect(quickStart).toHaveLength(3);
    const [install, servers, register] = quickStart as [string, string, string];
    for (const step of [install, servers]) {
      const result = spawnSync("sh", ["-c", step], { cwd: work, env, encoding: "utf8" });
      expect(result.status, `${step}\n${result.stdout}${result.stderr}`).toBe(0);
    }
    const lspmcp = execFileSync("sh", ["-c", "command -v lspmcp"], { env, encoding: "utf8" }).trim();
    expect(lspmcp).toBe(join(work, "prefix", "bin", "lspmcp"));

    // The client runs what follows `--`, in the project folder, with no arguments.
    const registered = register.match(/^claude mcp add lspmcp -- (.*)$/)![1]!.split(" ");
    expect(registered).toEqual(["lspmcp"]);
    bridge = await startBridge(null, env, { bare: true, bin: lspmcp, cwd: repo });

    const [tool, args] = [call.slice(0, call.indexOf(" ")), JSON.parse(call.slice(call.indexOf(" ") + 1))];
    expect(await bridge.ok(tool, args)).toEqual(JSON.parse(answer));
  });

  test("its check run prints what the page shows, and exits as it says", { timeout: 300_000 }, () => {
    const [run, status] = gate as [{ command: string; output: string[] }, { command: string; output: string[] }];
    expect(status.command).toBe("echo $?");
    const result = spawnSync("sh", ["-c", run.command], { cwd: repo, env, encoding: "utf8" });
    const shown = run.output.map((line) => line.replaceAll(PAGE_HOME, home));
    // stderr's lines (lspmcp's own, prefixed) and stdout's, each in the page's order.
    expect(result.stderr.trimEnd().split("\n")).toEqual(shown.filter((line) => line.startsWith("lspmcp: ")));
    expect(result.stdout.trimEnd().split("\n")).toEqual(shown.filter((line) => !line.startsWith("lspmcp: ")));
    expect(String(result.status)).toBe(status.output.join(""));
  });
});
