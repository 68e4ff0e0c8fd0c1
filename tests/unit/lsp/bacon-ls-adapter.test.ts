import { DidSaveTextDocumentNotification, LogMessageNotification, MessageType, PublishDiagnosticsNotification } from "vscode-languageserver-protocol";
import { afterEach, describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { BACON_LS_READY_LOG, baconLsAdapter } from "../../../src/languages/bacon-ls/adapter.js";
import type { ServerEvent } from "../../../src/lsp/server-events.js";
import { connectInProcess, disposePeers } from "../../helpers/in-process-server.js";
import { pollUntil } from "../../helpers/poll.js";

// The bacon-ls adapter (src/languages/bacon-ls/): its runs told from their progress and its
// end's message, each file's last set kept, and one didSave for the waits that ask in one turn.
afterEach(disposePeers);

const A = "file:///w/src/lib.rs";
const B = "file:///w/src/brew.rs";
const diagnostic = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: "error[E0308]" };

async function started() {
  const saves: string[] = [];
  const { client, server } = connectInProcess(
    {},
    (peer) => peer.onNotification(DidSaveTextDocumentNotification.type, ({ textDocument }) => saves.push(textDocument.uri)),
    baconLsAdapter,
  );
  const events: ServerEvent[] = [];
  client.events.subscribe((event) => {
    if (event.type.startsWith("build-run")) events.push(event);
  });
  const initialized = client.initialize(Deadline.in(5_000));
  await server.sendNotification(LogMessageNotification.type, { type: MessageType.Info, message: `bacon-ls v0.31.0 ${BACON_LS_READY_LOG}` });
  await initialized;
  const progress = (token: number, value: Record<string, unknown>) => server.sendProgress({ method: "$/progress" } as never, token, value);
  return { client, server, saves, events, progress };
}

/** Waits (a deadline poll) until `done` holds. */
const heard = async (done: () => boolean) => expect(await pollUntil(done, 5_000, 5)).toBe(true);

describe("the bacon-ls adapter", () => {
  test("the waits that ask in one turn share one didSave, told to every wait once it is sent", async () => {
    const { client, saves, events } = await started();
    const options = { deadline: Deadline.in(5_000) };
    await Promise.all([client.adapter.perform("build-run", options, A), client.adapter.perform("build-run", options, B)]);
    await heard(() => saves.length > 0);
    expect(saves).toEqual([B]);
    expect(events).toEqual([{ type: "build-run-requested" }]);
    expect(client.adapter.startingEvents(A)[0]).toEqual({ type: "build-run-history", running: [], pending: 1 });
  });

  test("a run's end says done only with bacon-ls's 'done, …'; a cancelled one is stopped; each begin takes a request off", async () => {
    const { client, events, progress } = await started();
    await client.adapter.perform("build-run", { deadline: Deadline.in(5_000) }, A);
    await heard(() => events.length === 1);
    await progress(2, { kind: "begin", title: "checking", message: "cargo check" });
    await progress(2, { kind: "end", message: "cancelled by user" });
    await progress(3, { kind: "begin", title: "checking" });
    await heard(() => events.length === 4);
    expect(client.adapter.startingEvents(A)[0]).toEqual({ type: "build-run-history", running: [3], pending: 0 });
    await progress(3, { kind: "end", message: "done, errors: 1, warnings: 0" });
    await heard(() => events.length === 5);
    expect(events.slice(1)).toEqual([
      { type: "build-run", token: 2, kind: "begin" },
      { type: "build-run", token: 2, kind: "stopped" },
      { type: "build-run", token: 3, kind: "begin" },
      { type: "build-run", token: 3, kind: "done" },
    ]);
  });

  test("a run that ends with no message failed: it is told failed with the line bacon-ls logs next, cargo's reason", async () => {
    const { client, server, events, progress } = await started();
    await client.adapter.perform("build-run", { deadline: Deadline.in(5_000) }, A);
    await heard(() => events.length === 1);
    await progress(4, { kind: "begin", title: "checking" });
    await progress(4, { kind: "end" });
    const why = "cargo exited with exit status: 101: unclosed table, expected `]`";
    await server.sendNotification(LogMessageNotification.type, { type: MessageType.Error, message: why });
    await server.sendNotification(LogMessageNotification.type, { type: MessageType.Error, message: why });
    await heard(() => events.length === 3);
    expect(events.slice(1)).toEqual([
      { type: "build-run", token: 4, kind: "begin" },
      { type: "build-run", token: 4, kind: "failed", reason: `cargo check failed: ${why}` },
    ]);
  });

  test("each file's last published set is kept whatever its version; a file never published has none", async () => {
    const { client, server } = await started();
    const published: ServerEvent[] = [];
    client.events.subscribe((event) => event.type === "build-run-publish" && published.push(event));
    await server.sendNotification(PublishDiagnosticsNotification.type, { uri: A, version: 7, diagnostics: [diagnostic] });
    await heard(() => published.length === 1);
    expect(client.adapter.startingEvents(A)[1]).toEqual({ type: "build-run-publish", uri: A, diagnostics: [diagnostic] });
    expect(client.adapter.startingEvents(B)[1]).toEqual({ type: "build-run-publish", uri: B, diagnostics: [] });
  });

  test("no document before its cargo backend exists: initialize waits for the log line", async () => {
    const { client } = connectInProcess({}, () => {}, baconLsAdapter);
    await expect(client.initialize(Deadline.in(200))).rejects.toMatchObject({ code: "Timeout", message: expect.stringContaining(BACON_LS_READY_LOG) });
  });
});
