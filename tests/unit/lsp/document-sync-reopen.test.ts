import { describe, expect, test } from "vitest";
import { DocumentSync } from "../../../src/lsp/document-sync.js";
import { recorder } from "./notification-recorder.js";

describe("DocumentSync for a server settled by its pushes alone", () => {
  test("a changed text goes as a close and a reopen with the next version; what it pushed before is dropped", async () => {
    const { connection, sent } = recorder();
    const closed: string[] = [];
    const sync = new DocumentSync(connection, { currentSequence: () => 7, onClosed: (uri) => closed.push(uri), maxOpen: 10, changeByReopen: () => true });
    await sync.sync("a", "x", "A");
    await sync.sync("a", "x", "A");
    const changed = await sync.sync("a", "x", "A2");
    expect(sent).toEqual(["didOpen a v1", "didClose a", "didOpen a v2"]);
    expect(changed).toMatchObject({ version: 2, text: "A2", sentAfterSequence: 7 });
    expect(closed).toEqual(["a"]);
    expect(sync.openCount).toBe(1);
  });

  test("any other server gets a didChange", async () => {
    const { connection, sent } = recorder();
    const sync = new DocumentSync(connection, { currentSequence: () => 0, onClosed: () => {}, maxOpen: 10, changeByReopen: () => false });
    await sync.sync("a", "x", "A");
    await sync.sync("a", "x", "A2");
    expect(sent).toEqual(["didOpen a v1", "didChange a v2"]);
  });
});

describe("a reopen and a second sync of the same text at once", () => {
  test("the document is opened once: the second sync waits for the reopen", async () => {
    const { connection, sent } = recorder();
    const sync = new DocumentSync(connection, { currentSequence: () => 0, onClosed: () => {}, maxOpen: 10, changeByReopen: () => true });
    await sync.sync("a", "x", "A");
    const [first, second] = await Promise.all([sync.sync("a", "x", "A2"), sync.sync("a", "x", "A2")]);
    expect(sent).toEqual(["didOpen a v1", "didClose a", "didOpen a v2"]);
    expect(second).toBe(first);
  });
});
