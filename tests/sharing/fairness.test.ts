// Fair sharing (issue 19): one peer holding 200 calls against a slow server does not delay another
// peer's single call beyond the call being served plus its own turn. Asserted by order, not by
// wall-clock thresholds: the server's own queue when the call arrived, and the order of completion.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { requireBinary } from "../helpers/require-binary.js";
import { recordedMessages } from "../helpers/fake-config.js";
import { FAKE_SERVER } from "../helpers/paths.js";
import { leaseOf, SharedRun, treeOf, type SharedFixture } from "./helpers/shared.js";

const run = new SharedRun();
afterEach(() => run.cleanUp());

const FLOOD = 200;
const PER_PEER = 1;

/** A shared config over a fake server that serves hovers one at a time, 50 ms each. */
function slowFixture(record: string): SharedFixture {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-fair-"));
  const root = join(dir, "ws");
  mkdirSync(root);
  writeFileSync(join(root, "a.fk"), "fn alpha\nfn beta\n");
  const leaseDir = join(dir, "leases");
  const config = writeConfig(
    `[bridge]
request_timeout_ms = 60000

[shared]
lease_dir = ${JSON.stringify(leaseDir)}
linger_ms = 200
max_calls_per_peer = ${PER_PEER}

[[server]]
name = "slow"
command = ${JSON.stringify(FAKE_SERVER)}
args = ["--lsp", "--no-daemon", "--no-child", "--hover-delay", "50", "--record", ${JSON.stringify(record)}]
version = "1.0.0"
languages = [{ id = "fake", extensions = [".fk"] }]

[[workspace]]
name = "ws"
root = ${JSON.stringify(root)}
servers = ["slow"]
`,
    dir,
  );
  return { dir, config, leaseDir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The shared server's status report (GET /lspmcp/status with the lease's secret). */
function status(lease: Record<string, any>): Promise<Record<string, any>> {
  const url = new URL("/lspmcp/status", lease.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${lease.token}` } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      res.on("end", () => resolve(JSON.parse(body)));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("fair sharing between peers", () => {
  it(`a peer flooding ${FLOOD} calls delays another peer's call by at most the call in service`, async () => {
    requireBinary("flock");
    requireBinary("setsid");
    const record = join(mkdtempSync(join(tmpdir(), "lspmcp-fair-record-")), "record.jsonl");
    const fixture = run.use(slowFixture(record));
    const flooder = await run.attach();
    const other = await run.attach();
    const hover = { path: "a.fk", line: 1, column: 4 };
    await flooder.ok("hover", hover);
    const lease = leaseOf(fixture)!;
    run.seen.push(...treeOf(lease.pid));

    const completed: string[] = [];
    const flood = Array.from({ length: FLOOD }, (_, i) =>
      flooder.ok("hover", hover).then(() => {
        completed.push(`flood${i}`);
      }),
    );
    // The flood is queued in the flooder's own queue before the other peer asks. (Polled on the
    // server's own count: "queued there" is announced by no message. On a loaded machine calls
    // arrive slowly, so a queue of 10 is what is awaited, with a generous bound.)
    let queued = 0;
    for (const until = Date.now() + 100_000; queued < 10 && completed.length < FLOOD && Date.now() < until; ) {
      queued = (await status(lease)).calls.queued;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(queued).toBeGreaterThanOrEqual(10);
    // The other peer asks about line 2; every flood call is about line 1.
    await other.ok("hover", { ...hover, line: 2 });
    const floodPending = FLOOD - completed.length;
    await Promise.all(flood);

    // At the server, the other peer's call found only the flooder's one call in service ahead of it.
    const hovers = recordedMessages(record).filter((message) => message.method === "textDocument/hover") as { ahead: number; line: number }[];
    const others = hovers.filter((message) => message.line === 1); // LSP lines are 0-based
    expect(others).toHaveLength(1);
    expect(others[0]!.ahead).toBeLessThanOrEqual(PER_PEER);
    // And it overtook the flood: without fairness it would have waited for every queued call.
    expect(floodPending).toBeGreaterThan(0);
    expect(completed).toHaveLength(FLOOD);
    console.log(`[figure] fairness flood=${FLOOD} per_peer=${PER_PEER} ahead_at_server=${others[0]!.ahead} flood_pending_when_other_done=${floodPending}`);
  });
});
