// `npm test`'s runner (scripts/run-tests.ts) on a first run: the tool cache's builds from source
// go to the background while the test files that do not need them run, and the files that do run
// after; then the files of ON_OTHER_NODES run again on Node 22 and 24; the end names each phase
// and each failure under it. Driven on a package of its own: this package's build and profiles,
// two test files and stand-ins at ON_OTHER_NODES's paths, the other Nodes that scripts/setup.sh
// installed, and a tool cache where every server built from source but gopls is there (stand-ins
// with receipts), and gopls comes through the real `go install` from a local module proxy.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { expandToolCache } from "../../src/config/tool-cache.js";
import { writeReceipt } from "../../src/install/install-receipt.js";
import { loadShippedServers } from "../../src/install/shipped-servers.js";
import { ON_OTHER_NODES } from "../../scripts/test-plan.js";
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
  // The other Nodes, where scripts/setup.sh put them.
  for (const tools of ["tests/conformance", "tests/tools"]) {
    mkdirSync(join(root, tools), { recursive: true });
    symlinkSync(join(REPO, tools, "node_modules"), join(root, tools, "node_modules"));
  }
  // Stand-ins at the paths the runner runs again on each other Node: each says which Node ran it.
  for (const file of ON_OTHER_NODES) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(
      join(root, file),
      `import { test } from "vitest";\ntest("says its Node", () => { process.stderr.write(\`${file} ran on \${process.version}\\n\`); });\n`,
    );
  }
  writeFileSync(
    join(root, "vitest.config.ts"),
    'import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { include: ["tests/**/*.test.ts"] } });\n',
  );
  mkdirSync(join(root, "tests"), { recursive: true });
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
  expect(text).toContain(`while ${1 + ON_OTHER_NODES.length} test files run; the 1 that need those servers run after`);
  const installed = text.indexOf("npm test: gopls installed in");
  expect(installed, text).toBeGreaterThan(plan);
  expect(text.indexOf("plain ran")).toBeGreaterThan(plan);
  expect(text.indexOf("go ran")).toBeGreaterThan(installed);
  // Then each file of ON_OTHER_NODES again, on Node 22 and on Node 24, after the tests after the builds.
  for (const major of ["22", "24"]) {
    const phase = text.indexOf(`npm test: phase: the files run again on Node ${major} (v${major}.`);
    expect(phase, text).toBeGreaterThan(text.indexOf("go ran"));
    for (const file of ON_OTHER_NODES) expect(text.slice(phase), `${file} on Node ${major}`).toMatch(new RegExp(`${file} ran on v${major}\\.`));
  }
  expect(first.stdout.match(/Test Files .*passed/g)).toEqual([
    expect.stringMatching(`${1 + ON_OTHER_NODES.length} passed`),
    expect.stringMatching("1 passed"),
    expect.stringMatching(`${ON_OTHER_NODES.length} passed`),
    expect.stringMatching(`${ON_OTHER_NODES.length} passed`),
  ]);
  expect(text).toMatch(
    /npm test: passed: the tests beside the builds\nnpm test: passed: the builds from source\nnpm test: passed: the tests after the builds\nnpm test: passed: the files run again on Node 22 \(v22\.[^)]+\)\nnpm test: passed: the files run again on Node 24 \(v24\.[^)]+\)\n$/,
  );

  const second = npmTest(root, cache, goplsStandInProxy());
  expect(second.status, second.stderr).toBe(0);
  expect(second.stderr).not.toContain("servers to build");
  expect(second.stdout.match(/Test Files .*passed/g)?.[0]).toMatch(`${2 + ON_OTHER_NODES.length} passed`);
  expect(second.stderr).toContain("npm test: passed: the suite\n");
});

test("a test that fails: exit 1, and the end names it under its phase, with the first line of its message", { timeout: 300_000 }, async () => {
  const { root, cache } = await firstRunPackage();
  writeFileSync(
    join(root, "tests/fails.test.ts"),
    'import { beforeAll, describe, expect, test } from "vitest";\n' +
      'describe("an install", () => {\n  beforeAll(() => { throw new Error("the registry is down\\nmore"); });\n  test("never runs", () => {});\n});\n' +
      'test("an assertion", () => { expect(1).toBe(2); });\n',
  );
  const result = npmTest(root, cache, goplsStandInProxy());
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toContain(
    'npm test: failed in the phase "the tests beside the builds":\n' +
      "  tests/fails.test.ts > an install: the registry is down\n" +
      "  tests/fails.test.ts > an assertion: expected 1 to be 2 // Object.is equality\n",
  );
  expect(result.stderr).toContain("npm test: passed: the tests after the builds\n");
});

test("a failed build: exit 1, the end of its log, and the files that waited for it named and not run", { timeout: 300_000 }, async () => {
  const { root, cache } = await firstRunPackage();
  const result = npmTest(root, cache, tempDir("lspmcp-empty-goproxy-"));
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toContain("plain ran");
  expect(result.stderr).toContain(
    `npm test: \`lspmcp servers install gopls\` failed (exit 1); the end of ${join(cache, "lspmcp/npm-test-logs/gopls.log")}:\n  `,
  );
  expect(result.stderr).toContain('npm test: failed in the phase "the tests after the builds":\n  not run, for want of those servers: tests/go.test.ts\n');
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
