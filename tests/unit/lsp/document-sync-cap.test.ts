import { describe, expect, test } from "vitest";
import { DocumentSync } from "../../../src/lsp/document-sync.js";
import { recorder } from "./notification-recorder.js";

function syncWithCap(maxOpen: number) {
  const wire = recorder();
  const sync = new DocumentSync(wire.connection, { currentSequence: () => 0, onClosed: (uri) => wire.closed.push(uri), maxOpen });
  return { sync, ...wire };
}

describe("DocumentSync's cap on open documents", () => {
  test("past the cap the least recently used document is closed, and reopened with a higher version", async () => {
    const { sync, sent, closed } = syncWithCap(2);
    await sync.sync("a", "x", "A");
    await sync.sync("b", "x", "B");
    await sync.sync("a", "x", "A"); // a is now the most recently used
    await sync.sync("c", "x", "C");
    expect(sync.openCount).toBe(2);
    expect(closed).toEqual(["b"]);
    const reopened = await sync.sync("b", "x", "B2");
    expect(reopened.version).toBe(2);
    // The room is made before each open: the server never holds more than the cap.
    expect(sent).toEqual(["didOpen a v1", "didOpen b v1", "didClose b", "didOpen c v1", "didClose a", "didOpen b v2"]);
  });

  test("a held document is never closed; past the cap while held, it is closed once released", async () => {
    const { sync, closed } = syncWithCap(1);
    const releaseA = sync.hold("a");
    await sync.sync("a", "x", "A");
    const releaseB = sync.hold("b");
    await sync.sync("b", "x", "B");
    expect(sync.openCount).toBe(2);
    expect(closed).toEqual([]);
    releaseA();
    releaseA(); // idempotent: b's hold is not released by it
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toEqual(["a"]);
    expect(sync.openCount).toBe(1);
    releaseB();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sync.openCount).toBe(1);
  });

  test("the document just opened is kept even when every other one is held", async () => {
    const { sync, closed } = syncWithCap(1);
    sync.hold("a");
    await sync.sync("a", "x", "A");
    const document = await sync.sync("b", "x", "B");
    expect(sync.get("b")).toBe(document);
    expect(closed).toEqual([]);
  });

  test("a second call on a document whose reopen is still making room waits until its didOpen is sent", async () => {
    // The soak's empty document_symbols (docs/contributors/reliability.md): the reopen waited for a didClose
    // to be written, and a second call on the same document, finding it already in the map,
    // sent its request before the didOpen: tsls answers a document it does not have with [].
    const { sync, sent } = syncWithCap(1);
    await sync.sync("a", "x", "A");
    await sync.sync("b", "x", "B"); // a is closed
    const first = sync.sync("a", "x", "A");
    const second = sync.sync("a", "x", "A").then((document) => {
      sent.push(`second call's request on ${document.uri}`);
      return document;
    });
    expect(await second).toBe(await first);
    expect(sent).toEqual(["didOpen a v1", "didClose a", "didOpen b v1", "didClose b", "didOpen a v2", "second call's request on a"]);
  });
});
