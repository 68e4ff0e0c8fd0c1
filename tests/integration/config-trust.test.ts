// A checkout's config that names programs of its own runs nothing until the user trusts it
// (docs/trust.md): each way a config can name a program is refused before anything runs (its
// program leaves no mark, and lspmcp starts no process at all, watched in /proc while it runs),
// then trusted and run; a one-byte change is refused again; the trust record is the user's (mode
// 0600, under XDG_STATE_HOME, nothing in the checkout). Every run gets a temp XDG_STATE_HOME.
import { spawn } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { childOutput, type ChildOutput } from "../helpers/child-output.js";
import { BRIDGE_MAIN, FAKE_SERVER, REPO } from "../helpers/paths.js";
import { recordTrust, trustDigest } from "../../src/config/trust-store.js";
import { startBridge } from "../helpers/bridge.js";
import { pollUntil } from "../helpers/poll.js";
import { descendantsOf } from "../helpers/proc.js";
import { sharedServers } from "../sharing/helpers/shared.js";
import { tempDir } from "../helpers/temp.js";
import { type TempRepo, tempRepo } from "../helpers/temp-repo.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const BASH_LS = join(REPO, "node_modules/bash-language-server/out/cli.js");

/** A checkout whose `.lspmcp.toml` names a program by one key; `marker` is the file that program touches. */
interface Case {
  readonly key: string;
  readonly repo: TempRepo;
  readonly marker: string;
}

const marks = tempDir("lspmcp-trust-marks-");
const repos: TempRepo[] = [];
afterAll(() => {
  for (const repo of repos) repo.remove();
});

/** A shell script that touches `marker` and then does `then`; made executable. */
function script(path: string, marker: string, then: string): void {
  writeFileSync(path, `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n${then}\n`);
  chmodSync(path, 0o755);
}

const workspace = (server: string) => `\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["${server}"]\n`;
const bashServer = (extra: string) => `[[server]]\nname = "bash"\nprofile = "bash"\n${extra}\n${workspace("bash")}`;

/**
 * The checkout of one key: a committed repo with `a.sh`, `a.fake` and the programs in `evil/`,
 * whose `.lspmcp.toml` (from `toml(root, marker)`) names them. Every server but the `args` one is
 * the shipped bash profile, so the key under test is the only thing the file changes.
 */
function checkout(key: string, toml: (root: string, marker: string) => string, programs: (root: string, marker: string) => void): Case {
  const repo = tempRepo({ "a.sh": "#!/bin/sh\necho $1\n", "a.fake": "fn alpha\n", "evil/.keep": "" });
  repos.push(repo);
  const marker = join(marks, `${key}-${repos.length}`);
  programs(repo.root, marker);
  writeFileSync(join(repo.root, ".lspmcp.toml"), toml(repo.root, marker));
  return { key, repo, marker };
}

const CASES: Record<string, () => Case> = {
  command: () =>
    checkout(
      "command",
      () => bashServer('command = "evil/server"'),
      (root, marker) => script(join(root, "evil/server"), marker, `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BASH_LS)} "$@"`),
    ),
  version_command: () =>
    checkout(
      "version_command",
      () => bashServer('version_command = ["evil/version"]'),
      (root, marker) => script(join(root, "evil/version"), marker, "echo 5.8.1"),
    ),
  // The user's own node, made to load the checkout's code by its arguments.
  args: () =>
    checkout(
      "args",
      (root) =>
        `[[server]]\nname = "fake"\ncommand = ${JSON.stringify(process.execPath)}\n` +
        `args = ${JSON.stringify(["--require", join(root, "evil/preload.cjs"), FAKE_SERVER, "--lsp", "--no-daemon", "--no-child"])}\n` +
        `version = "1.0.0"\nlanguages = [{ id = "fake", extensions = [".fake"] }]\n${workspace("fake")}`,
      (root, marker) => writeFileSync(join(root, "evil/preload.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "");\n`),
    ),
  // bash-language-server is `#!/usr/bin/env node`: the PATH it is given decides which node runs it.
  env: () =>
    checkout(
      "env",
      (root) => bashServer(`env = { PATH = ${JSON.stringify(`${join(root, "evil")}:/usr/local/bin:/usr/bin:/bin`)} }`),
      (root, marker) => script(join(root, "evil/node"), marker, `exec ${JSON.stringify(process.execPath)} "$@"`),
    ),
  // An initialization option the shipped profile's server reads (bash-language-server takes its
  // configuration from `initializationOptions` too), naming the linter the server runs.
  initialization_options: () =>
    checkout(
      "initialization_options",
      (root) => bashServer(`initialization_options = { shellcheckPath = ${JSON.stringify(join(root, "evil/shellcheck"))} }`),
      (root, marker) => script(join(root, "evil/shellcheck"), marker, `echo '{"comments":[]}'`),
    ),
  // A setting the shipped profile hands to its server, naming the linter the server runs.
  settings: () =>
    checkout(
      "settings",
      (root) => bashServer(`settings = { bashIde = { shellcheckPath = ${JSON.stringify(join(root, "evil/shellcheck"))} } }`),
      (root, marker) => script(join(root, "evil/shellcheck"), marker, `echo '{"comments":[]}'`),
    ),
};

/**
 * lspmcp run to its end in `cwd` with `state` as XDG_STATE_HOME; when `watch`, with every process
 * it started, seen in /proc while it ran (polled without pause, so that a process it started
 * would be seen in the time it takes to run; a refusal takes well under a second).
 */
async function run(args: readonly string[], cwd: string, state: string, env: Record<string, string> = {}, watch = false): Promise<Run> {
  const child = spawn(process.execPath, [BRIDGE_MAIN, ...args], {
    cwd,
    env: { ...bridgeEnv(), XDG_STATE_HOME: state, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const started = new Map<string, string>();
  let running = true;
  // A watched run is a refusal or a trust, well under a second: one that goes on (a serve that
  // did not refuse) is ended here rather than left running past the test.
  const deadline = watch ? setTimeout(() => child.kill("SIGKILL"), 60_000) : undefined;
  const output = childOutput(child).finally(() => {
    running = false;
    clearTimeout(deadline);
  });
  while (watch && running && child.pid !== undefined) {
    for (const p of descendantsOf(child.pid)) started.set(`${p.pid}/${p.startTime}`, p.cmdline);
    await delay(1);
  }
  return { ...(await output), started: [...started.values()] };
}

type Run = ChildOutput & { started: string[] };

/** Runs lspmcp watched, expecting a refusal: exit 2, ConfigUntrusted naming the file, its program keys and the trust command; nothing ran. */
async function expectRefused(args: readonly string[], c: Case, state: string, env: Record<string, string> = {}): Promise<Run> {
  const result = await run(args, c.repo.root, state, env, true);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(`untrusted configuration ${join(c.repo.root, ".lspmcp.toml")}`);
  expect(result.stderr).toContain("(ConfigUntrusted)");
  expect(result.stderr).toContain(`lspmcp trust --config ${join(c.repo.root, ".lspmcp.toml")}`);
  expect(result.stderr).toMatch(new RegExp(`^  server\\[0\\]\\.${c.key}`, "m"));
  expect(result.started).toEqual([]);
  expect(existsSync(c.marker)).toBe(false);
  return result;
}

describe.each(Object.keys(CASES))("a checkout's config that names a program by %s", (key) => {
  let c: Case;
  let state: string;
  beforeAll(() => {
    c = CASES[key]!();
    state = tempDir("lspmcp-state-");
  });

  test("check and serve (standalone, attached, over HTTP) refuse it before anything runs; trusted, check runs it", async () => {
    await expectRefused(["check"], c, state);
    await expectRefused(["serve", "--standalone"], c, state);
    // Attached to a shared server (serve's default): refused before one is looked for or launched.
    await expectRefused(["serve"], c, state);
    // Over HTTP: refused before it listens, so no token file is written either.
    const runtime = tempDir("lspmcp-trust-run-");
    await expectRefused(["serve", "--http", "127.0.0.1:0"], c, state, { XDG_RUNTIME_DIR: runtime });
    expect(readdirSync(runtime)).toEqual([]);

    const trusted = await run(["trust"], c.repo.root, state, {}, true);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(`server[0].${key}`);
    expect(trusted.started).toEqual([]);
    expect(existsSync(c.marker)).toBe(false);

    const checked = await run(["check", "--format", "json"], c.repo.root, state);
    expect(existsSync(c.marker), checked.stderr).toBe(true);
    expect([0, 1], checked.stderr).toContain(checked.code);
  }, 120_000);
});

describe("a checkout's config that chooses another adapter for a shipped profile", () => {
  // An adapter decides what the bridge starts beside the server (a workspace's own compiler,
  // `cargo check`): choosing one is a program key like the others, with no program of the
  // checkout's to mark here, so the refusal itself is what is shown.
  test("check and serve (standalone, attached, over HTTP) refuse it, naming server[0].adapter; trusted, check runs", async () => {
    const repo = tempRepo({ "a.sh": "#!/bin/sh\necho $1\n" });
    repos.push(repo);
    writeFileSync(join(repo.root, ".lspmcp.toml"), bashServer('adapter = "tsserver"'));
    const c: Case = { key: "adapter", repo, marker: join(marks, "adapter-none") };
    const state = tempDir("lspmcp-state-");
    for (const args of [["check"], ["serve", "--standalone"], ["serve"], ["serve", "--http", "127.0.0.1:0"]]) {
      const refused = await expectRefused(args, c, state, { XDG_RUNTIME_DIR: tempDir("lspmcp-trust-run-") });
      expect(refused.stderr).toContain('  server[0].adapter = "tsserver"');
    }
    expect((await run(["trust"], repo.root, state)).code).toBe(0);
    const checked = await run(["check", "--format", "json"], repo.root, state);
    expect(checked.stderr).not.toContain("ConfigUntrusted");
    expect([0, 1, 3], checked.stderr).toContain(checked.code);
  }, 120_000);
});

describe("a config that may run, in a shared bridge", () => {
  // The shared server runs in "/", where the checkout a config came from is unknown: it is given
  // the judgement of the serve that launched it.
  test.each(["trusted in the checkout", "named from outside the checkout"])(
    "%s: serve runs it through the shared server it launches",
    async (how) => {
      const c = CASES.args!();
      const state = tempDir("lspmcp-state-");
      let config = join(c.repo.root, ".lspmcp.toml");
      if (how === "trusted in the checkout") expect((await run(["trust"], c.repo.root, state)).code).toBe(0);
      else {
        config = join(tempDir(), "bridge.toml");
        writeFileSync(config, readFileSync(join(c.repo.root, ".lspmcp.toml"), "utf8").replace('root = "."', `root = ${JSON.stringify(c.repo.root)}`));
      }
      const named = how === "trusted in the checkout" ? null : config;
      const bridge = await startBridge(named, { XDG_STATE_HOME: state, TMPDIR: tempDir() }, { shared: true, cwd: c.repo.root });
      try {
        expect(await bridge.ok("document_symbols", { path: "a.fake" })).toMatchObject({ total: 1 });
        expect(sharedServers({ config })).toHaveLength(1);
        expect(existsSync(c.marker)).toBe(true);
      } finally {
        await bridge.close();
      }
      expect(await pollUntil(() => sharedServers({ config }).length === 0, 30_000)).toBe(true);
    },
    120_000,
  );
});

describe("what trust is recorded as", () => {
  test("a one-byte change is refused again; the record is 0600 under XDG_STATE_HOME and the checkout stays untouched", async () => {
    const c = CASES.command!();
    const state = tempDir("lspmcp-state-");
    const before = c.repo.status();
    expect((await run(["trust"], c.repo.root, state)).code).toBe(0);
    const records = join(state, "lspmcp", "trusted-configs");
    const [record] = readdirSync(records);
    expect(statSync(join(records, record!)).mode & 0o777).toBe(0o600);
    expect(statSync(records).mode & 0o777).toBe(0o700);
    expect(c.repo.status()).toBe(before);

    appendFileSync(join(c.repo.root, ".lspmcp.toml"), "#");
    const changed = await expectRefused(["check"], c, state);
    expect(changed.stderr).toContain("it has changed since it was trusted");
  }, 60_000);

  test("a state folder inside the checkout is neither written nor read", async () => {
    const c = CASES.command!();
    const state = join(c.repo.root, ".state");
    const refused = await run(["trust"], c.repo.root, state);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("inside the checkout");
    expect(existsSync(state)).toBe(false);
    // A record the checkout brings along, made as `lspmcp trust` would make it.
    const path = join(c.repo.root, ".lspmcp.toml");
    recordTrust(path, trustDigest(path, readFileSync(path, "utf8")), join(state, "lspmcp"));
    const planted = await expectRefused(["check"], c, state);
    expect(planted.stderr).toContain("are inside the checkout");
  });

  test("trust with no config here, or an invalid one, exits 2 and records nothing", async () => {
    const state = tempDir("lspmcp-state-");
    const bare = tempRepo({ "a.sh": "echo\n" });
    repos.push(bare);
    const none = await run(["trust"], bare.root, state);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("needs no trust");
    writeFileSync(join(bare.root, "bridge.toml"), "[[server]]\nname = 1\n");
    expect((await run(["trust"], bare.root, state)).code).toBe(2);
    expect(existsSync(join(state, "lspmcp"))).toBe(false);
  });
});

describe("what needs no trust, and how CI opts in", () => {
  test("a config named with --config from outside the checkout runs; the same file named from inside it does not", async () => {
    const c = CASES.command!();
    const state = tempDir("lspmcp-state-");
    const outside = join(tempDir(), "bridge.toml");
    writeFileSync(
      outside,
      bashServer(`command = ${JSON.stringify(join(c.repo.root, "evil/server"))}`).replace('root = "."', `root = ${JSON.stringify(c.repo.root)}`),
    );
    const named = await run(["check", "--config", outside, "--format", "json"], c.repo.root, state);
    expect(existsSync(c.marker), named.stderr).toBe(true);
    rmSync(c.marker);
    await expectRefused(["check", "--config", ".lspmcp.toml"], c, state);
  }, 60_000);

  test("a checkout config that only picks shipped profiles (and their pins) runs without trust", async () => {
    const repo = tempRepo({ "a.sh": "#!/bin/sh\necho $1\n", ".lspmcp.toml": bashServer('version = "5.8.1"\nmax_rss_mb = 2048') });
    repos.push(repo);
    const state = tempDir("lspmcp-state-");
    const result = await run(["check", "--format", "json"], repo.root, state);
    expect([0, 1], result.stderr).toContain(result.code);
    const validated = await run(["validate"], repo.root, state);
    expect(validated.stdout).toContain("trust: not needed (it only picks shipped profiles)");
  }, 60_000);

  test("--trust-config and LSPMCP_TRUST_CONFIG=1 run it without a record; LSPMCP_TRUST_CONFIG=0 does not", async () => {
    const c = CASES.command!();
    const state = tempDir("lspmcp-state-");
    const flagged = await run(["check", "--trust-config", "--format", "json"], c.repo.root, state);
    expect(existsSync(c.marker), flagged.stderr).toBe(true);
    rmSync(c.marker);
    const env = await run(["check", "--format", "json"], c.repo.root, state, { LSPMCP_TRUST_CONFIG: "1" });
    expect(existsSync(c.marker), env.stderr).toBe(true);
    rmSync(c.marker);
    await expectRefused(["check"], c, state, { LSPMCP_TRUST_CONFIG: "0" });
    expect(existsSync(join(state, "lspmcp"))).toBe(false);
  }, 60_000);

  test("validate and status report an untrusted config without refusing it, and say when it is trusted", async () => {
    const c = CASES.env!();
    const state = tempDir("lspmcp-state-");
    const validated = await run(["validate"], c.repo.root, state, {}, true);
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain("trust: NOT trusted (it has not been trusted)");
    expect(validated.stdout).toContain("  server[0].env.PATH = ");
    expect(validated.started).toEqual([]);
    const status = await run(["status", "--format", "json"], c.repo.root, state);
    expect(JSON.parse(status.stdout).trust).toMatchObject({ state: "untrusted", path: join(c.repo.root, ".lspmcp.toml") });
    await run(["trust"], c.repo.root, state);
    expect((await run(["validate"], c.repo.root, state)).stdout).toContain("trust: trusted (recorded with lspmcp trust)");
    expect((await run(["status"], c.repo.root, state)).stdout).toContain("trust: trusted (recorded with lspmcp trust)");
  }, 60_000);
});

describe("the file as it is, and what it reaches", () => {
  test("named through a symlinked folder ($PWD after a cd through a link), it is still the checkout's file", async () => {
    const c = CASES.command!();
    const state = tempDir("lspmcp-state-");
    const link = join(tempDir(), "link");
    symlinkSync(c.repo.root, link);
    const viaLink = await run(["check", "--config", join(link, ".lspmcp.toml"), "--format", "json"], link, state, { PWD: link }, true);
    expect(viaLink.code, viaLink.stderr).toBe(2);
    // Judged, and named, as the file it is.
    expect(viaLink.stderr).toContain(`untrusted configuration ${join(c.repo.root, ".lspmcp.toml")}`);
    expect(viaLink.started).toEqual([]);
    expect(existsSync(c.marker)).toBe(false);
    // Trusted through the link, it is trusted by its real path too.
    expect((await run(["trust", "--config", join(link, ".lspmcp.toml")], link, state)).code).toBe(0);
    const real = await run(["check", "--format", "json"], c.repo.root, state);
    expect(existsSync(c.marker), real.stderr).toBe(true);
  }, 60_000);

  test('a profile-only config whose workspace root lies outside the checkout needs trust (root = "/", or a committed link out)', async () => {
    const outside = tempDir("lspmcp-outside-");
    writeFileSync(join(outside, "secret.sh"), "#!/bin/sh\nif [ x = x ]\n");
    const state = tempDir("lspmcp-state-");
    const slash = tempRepo({ "a.sh": "echo\n", ".lspmcp.toml": bashServer("").replace('root = "."', 'root = "/"') });
    repos.push(slash);
    const validated = await run(["validate"], slash.root, state);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toContain("trust: NOT trusted (it has not been trusted)");
    expect(validated.stdout).toContain(`  workspace[0].root = "/" (outside the checkout ${slash.root})`);

    const linked = tempRepo({ "a.sh": "echo\n", ".lspmcp.toml": bashServer("").replace('root = "."', 'root = "out"') });
    repos.push(linked);
    symlinkSync(outside, join(linked.root, "out"));
    const refused = await run(["check", "--format", "json"], linked.root, state, {}, true);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("(ConfigUntrusted)");
    expect(refused.stderr).toMatch(/^ {2}workspace\[0\]\.root = "out" \(outside the checkout /m);
    expect(refused.stdout).not.toContain("secret.sh");
    expect(refused.started).toEqual([]);
    // A root inside the checkout needs none.
    const inside = tempRepo({ "a.sh": "echo\n", "sub/b.sh": "echo\n", "sub/.lspmcp.toml": bashServer("").replace('root = "."', 'root = ".."') });
    repos.push(inside);
    expect((await run(["validate"], join(inside.root, "sub"), state)).stdout).toContain("trust: not needed (it only picks shipped profiles)");
  }, 60_000);

  test("a trusted config's command that is a script inside the checkout: changing the script needs trust again", async () => {
    const c = CASES.command!();
    const state = tempDir("lspmcp-state-");
    const trusted = await run(["trust"], c.repo.root, state);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(`so does any change to the programs it names inside ${c.repo.root}: evil/server`);
    expect((await run(["check", "--format", "json"], c.repo.root, state)).code).not.toBe(2);
    rmSync(c.marker);
    // The checkout changes the script (a pull, a checkout of another branch) and leaves the config alone.
    const changed = `${c.marker}-changed`;
    const server = join(c.repo.root, "evil/server");
    writeFileSync(server, readFileSync(server, "utf8").replace("#!/bin/sh\n", `#!/bin/sh\ntouch ${JSON.stringify(changed)}\n`));
    const refused = await expectRefused(["check"], c, state);
    expect(refused.stderr).toContain("it has changed since it was trusted (the file, or a program it names inside its checkout)");
    expect(existsSync(changed)).toBe(false);
  }, 60_000);
});
