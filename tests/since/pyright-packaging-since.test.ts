import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { findingKeys, pyrightCliFindings, type Finding } from "../helpers/differential.js";
import { tempDir } from "../helpers/temp.js";
import { vendoredRepo } from "../helpers/vendored-repo.js";

// Real code nobody here wrote (packaging 23.0 in pyright's strict mode, see tests/differential),
// as the whole of a throwaway git repository: the truth is pyright's own CLI on the tree before and
// after each edit, compared with full ranges.
const repo = vendoredRepo(join(REPO, "tests/fixtures/differential/python-packaging"), ".");
const CONFIG = writeConfig(`
[bridge]
max_result_bytes = 1048576
request_timeout_ms = 600000

[shared]
lease_dir = ${JSON.stringify(tempDir("lspmcp-since-runtime-"))}

[[server]]
name = "pyright"
profile = "pyright"

[[workspace]]
name = "packaging"
root = ${JSON.stringify(repo.root)}
servers = ["pyright"]
`);

/** pyright's editor-only hints (unused, unreachable, deprecated), which its CLI never prints. */
const withoutHints = (findings: readonly Finding[]) => findings.filter((finding) => finding.severity !== "hint");

function minus(after: readonly string[], before: readonly string[]): string[] {
  const left = [...before];
  return after.filter((key) => {
    const at = left.indexOf(key);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

interface SinceAnswer {
  items: Finding[];
  introduced: number;
  resolved: number;
  unchanged: number;
}

const since = (bridge: Bridge, args: Record<string, unknown> = {}) =>
  bridge.ok<SinceAnswer>("diagnostics", { path: ".", since: "HEAD", min_severity: "information", limit: 1000, ...args });

let head: string[];
let bridge: Bridge;
beforeAll(async () => {
  head = findingKeys(await pyrightCliFindings(repo.root));
  bridge = await startBridge(CONFIG);
}, 300_000);
afterAll(async () => bridge?.close());

describe("diagnostics since HEAD, against pyright's CLI on both trees (packaging)", () => {
  test("an exported type changed so that its callers break: exactly the CLI's new findings, none of the pre-existing", async () => {
    expect(head.length).toBeGreaterThan(50);
    const file = "packaging/utils.py";
    const original = repo.read(file);
    repo.write(file, original.replace('NewType("NormalizedName", str)', 'NewType("NormalizedName", bytes)'));
    try {
      const after = findingKeys(await pyrightCliFindings(repo.root));
      const introduced = minus(after, head);
      expect(introduced.some((key) => key.startsWith("packaging/markers.py"))).toBe(true);
      const before = repo.footprint();
      const answer = await since(bridge);
      expect(findingKeys(withoutHints(answer.items))).toEqual(introduced.sort());
      expect(answer.resolved).toBe(minus(head, after).length);
      expect(answer.unchanged).toBe(after.length - introduced.length);
      expect(repo.footprint()).toBe(before);
    } finally {
      repo.write(file, original);
    }
  }, 600_000);

  test("code moved above pre-existing errors keeps them unchanged; fixing one resolves it, shown where it was", async () => {
    const file = "packaging/tags.py";
    const original = repo.read(file);
    const moved = `def added(value: int) -> int:\n    return value * 2\n\n\n${original}`;
    repo.write(file, moved);
    try {
      const answer = await since(bridge);
      expect(answer.items).toEqual([]);
      expect(answer.resolved).toBe(0);
      expect(answer.unchanged).toBe(head.length);
    } finally {
      repo.write(file, original);
    }
    const fixedFile = head.map((key) => key.split(":")[0]!).find((path) => path !== file)!;
    const text = repo.read(fixedFile);
    // Ignoring a whole file's checks "fixes" its findings without moving a line.
    repo.write(fixedFile, `# pyright: basic\n${text}`);
    try {
      const after = findingKeys(await pyrightCliFindings(repo.root));
      const gone = minus(
        head,
        after.map((key) => (key.startsWith(`${fixedFile}:`) ? shiftUp(key) : key)),
      );
      expect(gone.length).toBeGreaterThan(0);
      const answer = await since(bridge, { show: "resolved" });
      expect(findingKeys(withoutHints(answer.items))).toEqual(gone.sort());
      expect(answer.introduced).toBe(0);
    } finally {
      repo.write(fixedFile, text);
    }
  }, 600_000);
});

/** A key of a finding one line further down, as it was one line up (the file gained a first line). */
function shiftUp(key: string): string {
  return key.replace(/^([^:]+):(\d+):(\d+)-(\d+):(\d+)/, (_all, path, l1, c1, l2, c2) => `${path}:${Number(l1) - 1}:${c1}-${Number(l2) - 1}:${c2}`);
}
