// A call's deadline and the servers it waits on (CONTRACT §4.2 "Startup", docs/contributors/contract-notes.md):
// the time a watched server spends starting or loading does not count against the call. The clock
// is vitest's (setTimeout and Date): the tests are about the order of the deadline, the load's end
// and the answer, which a busy machine's timer delays must not change.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { Deadline, type LoadWatch } from "../../../src/contract/deadline.js";

/** A server that loads until `finish()` is called, and says `busy` while it does. */
function loadingServer(busy: string | null = "w/ts is still loading (Initializing JS/TS language features…)") {
  let finish = (): void => {};
  let loading = true;
  const ends = new Promise<void>((resolve) => (finish = resolve));
  const server: LoadWatch = { loading: () => (loading ? ends : null), busy: () => (loading ? busy : null) };
  return {
    server,
    finish: () => {
      loading = false;
      finish();
    },
  };
}

const never = new Promise<never>(() => {});

/** Lets `ms` pass on the fake clock, running the timers and promise callbacks due meanwhile. */
const pass = (ms: number): Promise<void> => vi.advanceTimersByTimeAsync(ms).then(() => undefined);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Deadline", () => {
  test("with no server watched, a race fails with Timeout at the deadline, naming what was awaited", async () => {
    const outcome = Deadline.in(20)
      .race(never, "textDocument/hover")
      .catch((caught: unknown) => caught);
    await pass(20);
    const error = await outcome;
    expect(error).toMatchObject({ code: "Timeout", details: { timeout_ms: 20, waiting_for: "textDocument/hover" } });
    expect((error as Error).message).toBe("textDocument/hover did not finish within 20 ms");
  });

  test("a server still loading when the deadline passes holds the race open; the call gets its whole time again from the load's end", async () => {
    const deadline = Deadline.in(30);
    const { server, finish } = loadingServer();
    deadline.watch(server);
    let answer: string | null = null;
    const raced = deadline
      .race(new Promise<string>((resolve) => setTimeout(() => resolve("answer"), 150)), "projectInfo")
      .then((value) => (answer = value))
      .catch((caught: unknown) => caught);
    // Past the 30 ms the call had: the load keeps it waiting.
    await pass(80);
    expect(answer).toBeNull();
    finish();
    // The whole 30 ms counts again from the load's end: an answer 70 ms after it is too late.
    await pass(70);
    expect(await raced).toMatchObject({ code: "Timeout" });
    expect(answer).toBeNull();
  });

  test("an answer within the time given after the load is the call's answer", async () => {
    const deadline = Deadline.in(30);
    const { server, finish } = loadingServer();
    deadline.watch(server);
    let resolveAnswer = (_: string): void => {};
    const raced = deadline.race(new Promise<string>((resolve) => (resolveAnswer = resolve)), "projectInfo");
    await pass(80);
    finish();
    // 29 of the 30 ms given again after the load.
    await pass(29);
    resolveAnswer("answer");
    await expect(raced).resolves.toBe("answer");
  });

  test("onExpire waits out the load too, and a Timeout after it says how much longer the call was given", async () => {
    const deadline = Deadline.in(20);
    const { server, finish } = loadingServer();
    deadline.watch(server);
    const started = Date.now();
    const expired = new Promise<number>((resolve) => deadline.onExpire(() => resolve(Date.now() - started)));
    setTimeout(finish, 60);
    // 60 ms of load, then the whole 20 ms again.
    await pass(100);
    expect(await expired).toBe(80);
    const error = deadline.timeoutError("diagnostics");
    expect(error.details.load_wait_ms).toBeGreaterThan(0);
    expect(error.message).toMatch(/^diagnostics did not finish within 20 ms \(and \d+ ms more, given while the server loaded\)$/);
  });

  test("a Timeout while a watched server is still busy says so, and that a later call will find it ready", () => {
    const deadline = Deadline.in(0);
    deadline.watch({ loading: () => null, busy: () => "w/ts is still loading (Initializing JS/TS language features…)" });
    const error = deadline.timeoutError("textDocument/documentSymbol");
    expect(error.message).toBe(
      "textDocument/documentSymbol did not finish within 0 ms: w/ts is still loading (Initializing JS/TS language features…); that goes on, and a later call will find the server ready",
    );
    expect(error.details.still_loading).toEqual(["w/ts is still loading (Initializing JS/TS language features…)"]);
  });

  test("a wait that ends with the load it waited out (a start) still leaves the call its whole time for what follows", async () => {
    const deadline = Deadline.in(30);
    let finishStart = (): void => {};
    const start = new Promise<string>((resolve) => (finishStart = () => resolve("client")));
    let starting = true;
    const ended = start.then(() => {
      starting = false;
    });
    deadline.watch({ loading: () => (starting ? ended : null), busy: () => null });
    const waitForStart = deadline.race(start, "starting");
    await pass(60);
    finishStart();
    expect(await waitForStart).toBe("client");
    await ended;
    await Promise.resolve();
    // The next request, after a start that outlasted the call's 30 ms, has 30 ms of its own.
    expect(deadline.remainingMs()).toBe(30);
  });

  test("a cancelled onExpire never fires, even when a load it waited for ends", async () => {
    const deadline = Deadline.in(5);
    const { server, finish } = loadingServer();
    deadline.watch(server);
    let fired = false;
    const cancel = deadline.onExpire(() => (fired = true));
    await pass(20);
    cancel();
    finish();
    await pass(30);
    expect(fired).toBe(false);
  });
});
