import { InitializedNotification, LogMessageNotification, MessageType } from "vscode-languageserver-protocol";
import { afterEach, describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { BIOME_READY_LOG, biomeAdapter } from "../../../src/languages/biome/adapter.js";
import type { AdapterFactory } from "../../../src/lsp/server-adapter.js";
import { standardAdapter } from "../../../src/languages/standard.js";
import { connectInProcess, disposePeers } from "../../helpers/in-process-server.js";

// The Biome adapter: `initialize` returns only once the server has logged that its start-up work
// is done, so no document reaches it before.
const READY = BIOME_READY_LOG;
afterEach(disposePeers);

function connect(adapter: AdapterFactory) {
  let initialized!: () => void;
  const heardInitialized = new Promise<void>((resolve) => (initialized = resolve));
  const { client, server, toClient } = connectInProcess({}, (peer) => peer.onNotification(InitializedNotification.type, () => initialized()), adapter);
  const log = (message: string) => server.sendNotification(LogMessageNotification.type, { type: MessageType.Info, message });
  return { client, heardInitialized, log, toClient };
}

/** Whether `promise` has settled after every message in flight was handled. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("the Biome adapter's start-up message", () => {
  test("initialize waits past `initialized` and other log lines for the message, then returns", async () => {
    const { client, heardInitialized, log } = connect(biomeAdapter);
    const started = client.initialize(Deadline.in(5_000));
    await heardInitialized;
    await log("Attempting to load the configuration");
    expect(await settledYet(started)).toBe(false);
    await log(`${READY}: 4242`);
    await expect(started).resolves.toBeUndefined();
  });

  test("the standard adapter waits for none: initialize returns once `initialized` is sent", async () => {
    const { client } = connect(standardAdapter);
    await expect(client.initialize(Deadline.in(5_000))).resolves.toBeUndefined();
  });

  test("a server that never says it is ready fails the start at the deadline, naming the message", async () => {
    const { client } = connect(biomeAdapter);
    await expect(client.initialize(Deadline.in(200))).rejects.toMatchObject({ code: "Timeout", message: expect.stringContaining(READY) });
  });

  test("a server that goes away before it is ready fails the start at once, not at the deadline", async () => {
    const { client, heardInitialized, toClient } = connect(biomeAdapter);
    const started = client.initialize(Deadline.in(60_000));
    await heardInitialized;
    toClient.end();
    await expect(started).rejects.toMatchObject({ code: "ServerCrashed" });
  });
});
