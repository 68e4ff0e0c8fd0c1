// `npm test`'s runner (scripts/run-tests.ts) on a first run: the tool cache's builds from source
// go to the background while the test files that do not need them run, and the files that do run
// after. Driven on a package of its own: this package's build and profiles, two test files, and a
// tool cache where every server built from source but gopls is there (stand-ins with receipts),
// and gopls comes through the real `go install` from a local module proxy (seconds, not minutes).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { expandToolCache } from "../../src/config/tool-cache.js";
import { writeReceipt } from "../../src/install/install-receipt.js";
import { loadShippedServers } from "../../src/install/shipped-servers.js";
import { GOPLS_MODULE, GOPLS_VERSION, goplsStandInProxy } from "../helpers/go-local-proxy.js";
import { pollUntil } from "../helpers/poll.js";
import { pidsWithEnv, waitUntilGone } from "../helpers/proc.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";

// Built, so that this file does not name gopls's folder to the runner's own scan of these tests.
const requireCall = "requireCachedTool";

async function firstRunPackage(): Promise<{ root: string; cache: string }> {
  requireBuild();
  requireBinary("go");
  const root = tempDir("lspmcp-runner-");
  for (const part of ["dist", "servers", "package.json"]) cpSync(join(REPO, part), join(root, part), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(root, "node_modules"));
  writeFileSync(
    join(root, "vitest.config.ts"),
    'import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { include: ["tests/**/*.test.ts"] } });\n',
  );
  mkdirSync(join(root, "tests"));
  writeFileSync(
    join(root, "tests/plain.test.ts"),
    'import { test } from "vitest";\ntest("needs no build", () => { process.stderr.write("plain ran\\n"); });\n',
  );
  writeFileSync(
    join(root, "tests/go.test.ts"),
    [
      'import { existsSync } from "node:fs";',
      'import { expect, test } from "vitest";',
      `const ${requireCall} = (path: string): string => \`\${process.env.XDG_CACHE_HOME}/lspmcp/\${path}\`;`,
      'test("needs gopls", () => {',
      '  process.stderr.write("go ran\\n");',
      `  expect(existsSync(${requireCall}("go/bin/gopls"))).toBe(true);`,
      "});",
      "",
    ].join("\n"),
  );
  const cache = tempDir("lspmcp-runner-cache-");
  const env = { XDG_CACHE_HOME: cache };
  for (const server of await loadShippedServers(REPO)) {
    if ((server.install.from !== "go" && server.install.from !== "cargo") || server.name === "gopls") continue;
    // Installed as far as the runner looks: the command, and a receipt of the pin beside it.
    const command = expandToolCache(server.command, env);
    mkdirSync(join(command, ".."), { recursive: true });
    writeFileSync(command, "#!/bin/sh\n");
    chmodSync(command, 0o755);
    await writeReceipt(join(command, "..", ".."), {
      server: server.name,
      version: server.version,
      reported: server.version,
      installed_at: "2026-12-06T00:00:00Z",
    });
  }
  return { root, cache };
}

function npmTest(root: string, cache: string, goproxy: string): { status: number | null; stderr: string; stdout: string } {
  const env = { ...process.env, XDG_CACHE_HOME: cache, GOPROXY: `file://${goproxy}`, GOSUMDB: "off" };
  return spawnSync(process.execPath, [join(root, "dist/scripts/run-tests.js")], { cwd: root, env, encoding: "utf8" });
}

test("a first run builds gopls in the background while the other files run, then runs the file that needs it; a second run is one vitest run", {
  timeout: 300_000,
}, async () => {
  const { root, cache } = await firstRunPackage();
  const first = npmTest(root, cache, goplsStandInProxy());
  expect(first.status, first.stderr).toBe(0);
  const text = first.stderr;
  const plan = text.indexOf("npm test: servers to build from source: gopls; installing them side by side in the background");
  expect(plan, text).toBeGreaterThanOrEqual(0);
  expect(text).toContain("while 1 test files run; the 1 that need those servers run after");
  const installed = text.indexOf("npm test: gopls installed in");
  expect(installed, text).toBeGreaterThan(plan);
  expect(text.indexOf("plain ran")).toBeGreaterThan(plan);
  expect(text.indexOf("go ran")).toBeGreaterThan(installed);
  expect(first.stdout.match(/Test Files .*1 passed/g)).toHaveLength(2);

  const second = npmTest(root, cache, goplsStandInProxy());
  expect(second.status, second.stderr).toBe(0);
  expect(second.stderr).not.toContain("servers to build");
  expect(second.stdout).toMatch(/Test Files .*2 passed/);
});

test("a failed build: exit 1, the end of its log, and the files that waited for it named and not run", { timeout: 300_000 }, async () => {
  const { root, cache } = await firstRunPackage();
  const result = npmTest(root, cache, tempDir("lspmcp-empty-goproxy-"));
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toContain("plain ran");
  expect(result.stderr).toContain(
    `npm test: \`lspmcp servers install gopls\` failed (exit 1); the end of ${join(cache, "lspmcp/npm-test-logs/gopls.log")}:\n  `,
  );
  expect(result.stderr).toContain("npm test: not run, for want of those servers: tests/go.test.ts");
  expect(result.stderr).not.toContain("go ran");
});

test("Ctrl-C while it waits for a build: the build stops, exit 130, and nothing of it is kept or left running", { timeout: 300_000 }, async () => {
  const { root, cache } = await firstRunPackage();
  // The module's zip is a fifo nobody writes: `go install` waits on it until it is stopped.
  const proxy = goplsStandInProxy();
  const zip = join(proxy, GOPLS_MODULE, "@v", `${GOPLS_VERSION}.zip`);
  rmSync(zip);
  execFileSync("mkfifo", [zip]);
  const env = { ...process.env, XDG_CACHE_HOME: cache, GOPROXY: `file://${proxy}`, GOSUMDB: "off" };
  // Its own process group, as a terminal's: Ctrl-C is SIGINT to the whole group.
  const runner = spawn(process.execPath, [join(root, "dist/scripts/run-tests.js")], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  runner.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  runner.stdout.resume();
  try {
    expect(await pollUntil(() => stderr.includes("npm test: waiting for the builds of gopls"), 120_000), stderr).toBe(true);
    process.kill(-runner.pid!, "SIGINT");
    expect(await pollUntil(() => runner.exitCode !== null, 60_000), `still running after Ctrl-C:\n${stderr}`).toBe(true);
    expect(runner.exitCode).toBe(130);
    expect(stderr).toContain("npm test: interrupted: the builds were stopped, and an install that did not finish is not kept");
    expect(stderr).not.toContain("go ran");
    await waitUntilGone("XDG_CACHE_HOME", cache);
    expect(existsSync(join(cache, "lspmcp/go"))).toBe(false);
  } finally {
    // On a failure, nothing of this test stays behind: the runner's group and the detached build.
    for (const pid of [runner.pid!, ...pidsWithEnv("XDG_CACHE_HOME", cache)]) {
      try {
        process.kill(pid === runner.pid ? -pid : pid, "SIGKILL");
      } catch {}
    }
  }
});
