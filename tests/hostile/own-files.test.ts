// lspmcp's own files (leases, the shared servers' log, the HTTP token) attacked as a checkout's
// author and as another local user would: a checkout that commits a symlink under the log's name
// and points `[shared] lease_dir` at itself, a runtime folder planted as a symlink in the shared
// temp folder by a second local user (made here with useradd, as root, and removed after), and a
// planted token. Each attack's target file is watched: nothing is written to it, cut or adopted.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge } from "../helpers/bridge.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const WORKSPACE = '\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["yaml"]\n';
const SYMBOLS = { name: "document_symbols", arguments: { workspace: "ws", path: "a.fk" } };
/** Past the log's 1 MiB bound: a launch that followed the link would cut it to nothing. */
const VICTIM_TEXT = "the user's own file, which no lspmcp run may touch\n".repeat(40_000);

function lspmcp(args: readonly string[], cwd: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BRIDGE_MAIN, ...args], { cwd, env: { ...bridgeEnv(), ...env }, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
}

/** A victim file of the user's, outside every checkout, and how to tell that it is untouched. */
function victim(): { path: string; untouched(): boolean } {
  const path = join(tempDir("lspmcp-victim-"), "notes.txt");
  writeFileSync(path, VICTIM_TEXT);
  return { path, untouched: () => readFileSync(path, "utf8") === VICTIM_TEXT };
}

describe("a checkout's author", () => {
  // The author's repository commits a bridge.toml that keeps lspmcp's files in the checkout, and
  // there a symlink named like the shared servers' log, pointing at a file of the user's.
  let checkout: string;
  let target: ReturnType<typeof victim>;
  let runtime: string;
  beforeAll(() => {
    target = victim();
    const origin = tempDir("lspmcp-author-");
    writeFileSync(join(origin, "bridge.toml"), `[shared]\nlease_dir = "leases"\n\n[[server]]\nname = "yaml"\nprofile = "yaml"\n${WORKSPACE}`);
    writeFileSync(join(origin, "a.yaml"), "a: 1\n");
    mkdirSync(join(origin, "leases"));
    symlinkSync(target.path, join(origin, "leases", "shared-servers.log"));
    writeFileSync(join(origin, "leases", "http-token"), "0123456789abcdef0123456789abcdef\n");
    git(origin, "init", "-q");
    git(origin, "add", "-A");
    git(origin, "commit", "-q", "-m", "fixture");
    checkout = join(tempDir("lspmcp-clone-"), "repo");
    git(tempDir(), "clone", "-q", origin, checkout);
    // As a user whose umask is 077 would have it: the folder and the token then look like lspmcp's own.
    chmodSync(join(checkout, "leases"), 0o700);
    chmodSync(join(checkout, "leases", "http-token"), 0o600);
    runtime = tempDir("lspmcp-run-");
  });

  test("[shared] lease_dir in a checkout's file needs trust: validate says so, serve refuses it and touches nothing", () => {
    // Moved out of the checkout, so that only the trust stands in the way.
    const config = join(checkout, "outside.toml");
    writeFileSync(config, `[shared]\nlease_dir = ${JSON.stringify(join(runtime, "elsewhere"))}\n\n[[server]]\nname = "yaml"\nprofile = "yaml"\n${WORKSPACE}`);
    const validate = lspmcp(["validate", "--config", config], checkout, { XDG_STATE_HOME: tempDir() });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stdout).toContain("trust: NOT trusted");
    expect(validate.stdout).toContain(`shared.lease_dir = ${JSON.stringify(join(runtime, "elsewhere"))}`);
    const serve = lspmcp(["serve", "--config", config], checkout, { XDG_STATE_HOME: tempDir() });
    expect(serve.status).toBe(2);
    expect(serve.stderr).toContain("ConfigUntrusted");
    expect(existsSync(join(runtime, "elsewhere"))).toBe(false);
    rmSync(config);
  });

  test("a lease_dir inside the checkout is refused even when trusted: the committed log link and token are never used", () => {
    const env = { XDG_STATE_HOME: tempDir(), XDG_RUNTIME_DIR: runtime };
    for (const args of [["serve", "--trust-config"], ["serve", "--trust-config", "--http", "127.0.0.1:0"], ["validate"]]) {
      const run = lspmcp(args, checkout, env);
      expect(run.status, `${args.join(" ")}: ${run.stderr}`).toBe(2);
      expect(run.stdout + run.stderr).toContain("shared.lease_dir");
      expect(run.stdout + run.stderr).toContain("lspmcp writes none of its own files into a checkout");
    }
    expect(target.untouched()).toBe(true);
    expect(readdirSync(join(checkout, "leases")).sort()).toEqual(["http-token", "shared-servers.log"]);
    expect(git(checkout, "status", "--porcelain", "--ignored")).toBe("");
  });

  test("a symlink committed under the name check --write-baseline is given is replaced, never written through", () => {
    const linked = victim();
    const origin = tempDir("lspmcp-author-");
    writeFileSync(join(origin, "a.yaml"), "a: 1\n");
    symlinkSync(linked.path, join(origin, "lspmcp-baseline.json"));
    git(origin, "init", "-q");
    git(origin, "add", "-A");
    git(origin, "commit", "-q", "-m", "fixture");
    const clone = join(tempDir("lspmcp-clone-"), "repo");
    git(tempDir(), "clone", "-q", origin, clone);
    const run = lspmcp(["check", "--write-baseline", "lspmcp-baseline.json"], clone, { XDG_RUNTIME_DIR: runtime });
    expect(run.status, run.stderr).toBe(0);
    expect(linked.untouched()).toBe(true);
    expect(lstatSync(join(clone, "lspmcp-baseline.json")).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(clone, "lspmcp-baseline.json"), "utf8"))).toHaveProperty("items");
  });
});

describe("links and files planted in the runtime folder", () => {
  const { config } = fakeWorkspace([{ name: "fake", extension: ".fk" }], "request_timeout_ms = 20000");

  test("a symlink where the shared servers' log goes: serve still answers, and the linked file is neither appended to nor cut", async () => {
    const target = victim();
    const xdg = tempDir("lspmcp-run-");
    const folder = join(xdg, "lspmcp");
    mkdirSync(folder, { mode: 0o700 });
    symlinkSync(target.path, join(folder, "shared-servers.log"));
    const bridge = await startBridge(config, { XDG_RUNTIME_DIR: xdg, LSPMCP_LOG_LEVEL: "info" }, { shared: true });
    try {
      const answer = await bridge.client.callTool(SYMBOLS);
      expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
      expect(bridge.stderr()).toContain("is a symlink");
    } finally {
      await bridge.close();
    }
    expect(target.untouched()).toBe(true);
  });

  test("a token file that is a symlink, a hard link, or another user's is refused, whatever its mode", () => {
    const cases: [string, (path: string) => void][] = [
      [
        "is a symlink",
        (path) => {
          const elsewhere = join(tempDir(), "token");
          writeFileSync(elsewhere, "0123456789abcdef0123456789abcdef\n", { mode: 0o600 });
          symlinkSync(elsewhere, path);
        },
      ],
      [
        "has 2 names",
        (path) => {
          const elsewhere = join(tempDir(), "token");
          writeFileSync(elsewhere, "0123456789abcdef0123456789abcdef\n", { mode: 0o600 });
          linkSync(elsewhere, path);
        },
      ],
      [
        "is owned by uid 65534",
        (path) => {
          writeFileSync(path, "0123456789abcdef0123456789abcdef\n", { mode: 0o600 });
          chownSync(path, 65534, 65534);
        },
      ],
    ];
    for (const [reason, plant] of cases) {
      if (reason.includes("owned") && process.getuid!() !== 0) continue;
      const xdg = tempDir("lspmcp-run-");
      mkdirSync(join(xdg, "lspmcp"), { mode: 0o700 });
      plant(join(xdg, "lspmcp", "http-token"));
      const run = lspmcp(["serve", "--standalone", "--config", config, "--http", "127.0.0.1:0"], tempDir(), { XDG_RUNTIME_DIR: xdg });
      expect(run.status, `${reason}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(reason);
    }
  });
});

// A second local user, made for this test and removed after: root only (CI runs as root).
describe.runIf(process.getuid!() === 0)("another local user", () => {
  const user = `lspmcp-t${process.pid}`;
  beforeAll(() => {
    execFileSync("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", user]);
  });
  afterAll(() => {
    execFileSync("userdel", [user]);
  });

  test("plants the default runtime folder in the shared temp folder as a symlink to a 0700 folder of this user's: nothing is written there", async () => {
    const { config } = fakeWorkspace([{ name: "fake", extension: ".fk" }], "request_timeout_ms = 20000");
    // A temp folder like /tmp: everyone may create in it, sticky.
    const shared = tempDir("lspmcp-tmp-");
    chmodSync(shared, 0o1777);
    // A private folder of this user's (as ~/.ssh is): owned, 0700, so a check that followed the
    // link would find nothing wrong with it.
    const privateFolder = tempDir("lspmcp-private-");
    chmodSync(privateFolder, 0o700);
    execFileSync("runuser", ["-u", user, "--", "ln", "-s", privateFolder, join(shared, `lspmcp-${process.getuid!()}`)]);
    const bridge = await startBridge(config, { TMPDIR: shared, XDG_RUNTIME_DIR: "", LSPMCP_LOG_LEVEL: "info" }, { shared: true });
    try {
      const answer = await bridge.client.callTool(SYMBOLS);
      expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
      expect(bridge.stderr()).toContain("is a symlink");
    } finally {
      await bridge.close();
    }
    expect(readdirSync(privateFolder)).toEqual([]);
  });
});
