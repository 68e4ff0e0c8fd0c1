// The cap on open documents (issue 19): a session keeps at most `max_open_documents` open in its
// server, closing the least recently used with didClose and reopening it from disk when asked
// again, and no answer changes because a document was closed and reopened.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { copyFixtureWorkspace, polyConfig } from "../helpers/workspace.js";
import { fakeWorkspace, recordedMessages } from "../helpers/fake-config.js";

let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

/** The most documents the server had open at once, replayed from what it received. */
function peakOpen(messages: { method?: string }[]): { opens: number; closes: number; peak: number } {
  let open = 0;
  let peak = 0;
  let opens = 0;
  let closes = 0;
  for (const { method } of messages) {
    if (method === "textDocument/didOpen") open++, opens++;
    if (method === "textDocument/didClose") open--, closes++;
    peak = Math.max(peak, open);
  }
  return { opens, closes, peak };
}

describe("max_open_documents", () => {
  test("with the cap at 5, touching 20 files keeps at most 5 open in the server, and the first file's diagnostics are unchanged after its eviction", async () => {
    const record = join(fakeWorkspace([]).root, "record.jsonl");
    const { root, config } = fakeWorkspace(
      [{ name: "fake", extension: ".fk", flags: ["--record", record] }],
      "request_timeout_ms = 10000\nmax_open_documents = 5",
    );
    const files = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, "0")}.fk`);
    files.forEach((file, i) => writeFileSync(join(root, file), `fn f${i}\n  a bad line\n${"  bad again\n".repeat(i % 3)}`));
    bridge = await startBridge(config);

    const first = await bridge.ok("diagnostics", { path: files[0] });
    expect(first.total).toBe(1);
    for (const file of files.slice(1)) await bridge.ok("document_symbols", { path: file });
    const status = (await bridge.ok("session_status")).sessions[0];
    expect(status).toMatchObject({ open_documents: 5, max_open_documents: 5 });

    const again = await bridge.ok("diagnostics", { path: files[0] });
    expect(again).toEqual(first);
    // Told by the server's own record: 20 opens, the first file's reopen, and never more than 5 open.
    const seen = peakOpen(recordedMessages(record));
    expect(seen).toEqual({ opens: 21, closes: 16, peak: 5 });
  });

  test("a real server's answers are the same before and after the document was closed and reopened", async () => {
    const root = copyFixtureWorkspace("poly");
    for (let i = 0; i < 4; i++)
      writeFileSync(join(root, `src/extra${i}.ts`), `import { Circle } from "./shapes";\nexport const c${i} = new Circle(${i}).area();\n`);
    const config = polyConfig(root).replace("request_timeout_ms = 60000", "request_timeout_ms = 60000\nmax_open_documents = 2");
    bridge = await startBridge(writeConfig(config));
    const shapes = "src/shapes.ts";
    const text = readFileSync(join(root, shapes), "utf8");
    const answers = async (b: Bridge) => [
      await b.ok("diagnostics", { path: shapes }),
      await b.ok("hover", { path: shapes, ...positionOf(text, "area", "shape.") }),
      await b.ok("document_symbols", { path: shapes }),
      await b.ok("diagnostics", { path: "src/extra0.ts" }),
    ];
    const before = await answers(bridge);
    for (let i = 1; i < 4; i++) await bridge.ok("diagnostics", { path: `src/extra${i}.ts` });
    const status = (await bridge.ok("session_status")).sessions.find((s: { server: string }) => s.server === "typescript");
    expect(status).toMatchObject({ open_documents: 2, max_open_documents: 2 });
    expect(await answers(bridge)).toEqual(before);
  });
});
