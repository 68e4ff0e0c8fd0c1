// docs/adding-a-server.md followed to the end as the page writes it: jedi-language-server
// installed by its commands (into a home of the test's own), `lspmcp init` in a Python
// repository named as the page's, the page's server table added and its workspace lines put into
// the workspace init wrote, then the page's `validate`, `trust` and `check` run, each answering
// what the page shows. jedi's own finding (`[compile]`) in the check run is the added server
// answering.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { beforeAll, describe, expect, test } from "vitest";
import { blockAfter, pageBlocks, shellCommands, transcript } from "../helpers/page-blocks.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const page = pageBlocks("docs/adding-a-server.md");
const installBlock = blockAfter(page, "sh", "## A worked example").text;
const tomlBlock = blockAfter(page, "toml", "Then describe it in the repository's `bridge.toml`").text;
const file = blockAfter(page, "python", "Check the file, trust it, then run it.");
const runs = transcript(blockAfter(page, "", "Check the file, trust it, then run it.").text);

/** The home a reader's paths on the page stand for. */
const PAGE_HOME = "/home/me";

let home: string;
let repo: string;
let env: Record<string, string>;
const sh = (command: string, cwd: string) => spawnSync("sh", ["-c", command], { cwd, env, encoding: "utf8" });

beforeAll(() => {
  home = tempDir("lspmcp-adding-");
  const bin = join(home, "bin");
  mkdirSync(bin);
  symlinkSync(BRIDGE_MAIN, join(bin, "lspmcp"));
  env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    LANG: "C.UTF-8",
    // The tool cache (and pip's cache) stay the machine's.
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? "/root", ".cache"),
  };
  // The page's repository: a git checkout named as its workspace, holding the page's file.
  repo = join(home, "app");
  mkdirSync(repo);
  execFileSync("git", ["init", "-q"], { cwd: repo });
  writeFileSync(join(repo, file.before.match(/`([\w./-]+)`:\s*$/)![1]!), file.text);
});

describe("docs/adding-a-server.md", () => {
  test("jedi-language-server installs as the page says and prints the version it says", { timeout: 300_000 }, () => {
    const printed = installBlock.match(/--version\s+#\s*prints (\S+)/)![1]!;
    const commands = shellCommands(installBlock);
    expect(commands).toHaveLength(3);
    for (const command of commands) {
      const result = sh(command, home);
      expect(result.status, `${command}\n${result.stderr}`).toBe(0);
      if (command.endsWith("--version")) expect(result.stdout.trim()).toBe(printed);
    }
  });

  test("from init's file, with the page's server table and workspace lines, validate, trust and check answer what the page shows", { timeout: 300_000 }, () => {
    const init = sh("lspmcp init", repo);
    expect(init.status, init.stderr).toBe(0);
    const written = readFileSync(join(repo, "bridge.toml"), "utf8");

    // The page's block: the server table, then the workspace as it should read after the edit.
    const block = tomlBlock.replaceAll(PAGE_HOME, home);
    const [serverTable, workspaceTable] = block.split("[[workspace]]\n") as [string, string];
    const pageWorkspace = (parse(block) as { workspace: Record<string, unknown>[] }).workspace[0]!;
    const initWorkspace = (parse(written) as { workspace: Record<string, unknown>[] }).workspace;
    // One workspace, the one init wrote: the page's name and root are init's.
    expect(initWorkspace).toHaveLength(1);
    expect({ name: pageWorkspace.name, root: pageWorkspace.root }).toEqual({ name: initWorkspace[0]!.name, root: initWorkspace[0]!.root });

    // The edit the page asks for: its server table before init's workspace, its `servers` line in
    // place of init's, and the lines it adds after that one.
    const added = workspaceTable.split("\n").filter((line) => line !== "" && !/^(name|root|servers) = /.test(line));
    const serversLine = workspaceTable.split("\n").find((line) => line.startsWith("servers = "))!;
    const edited = written.replace("[[workspace]]\n", `${serverTable}[[workspace]]\n`).replace(/^servers = .*$/m, [serversLine, ...added].join("\n"));
    expect(edited).not.toBe(written);
    writeFileSync(join(repo, "bridge.toml"), edited);

    expect(runs.map((run) => run.command)).toEqual(["lspmcp validate", "lspmcp trust", "lspmcp check --fail-on hint"]);
    const exits = [0, 0, 1];
    runs.forEach((run, index) => {
      const result = sh(run.command, repo);
      expect(result.status, `${run.command}\n${result.stdout}${result.stderr}`).toBe(exits[index]);
      // Each line as the page shows it, its home made the test's; "…" stands for what differs from run to run.
      const shown = run.output.map(
        (line) =>
          new RegExp(
            `^${line
              .replaceAll(PAGE_HOME, home)
              .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
              .replaceAll("…", ".*")}$`,
          ),
      );
      const lines = result.stdout.trimEnd().split("\n");
      expect(lines, run.command).toHaveLength(shown.length);
      lines.forEach((line, at) => expect(line, run.command).toMatch(shown[at]!));
    });
    // jedi answered: the finding only it reports is in the run the page shows.
    expect(runs.at(-1)!.output.some((line) => line.endsWith("[compile]"))).toBe(true);
  });
});
