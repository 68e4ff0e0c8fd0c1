import { describe, expect, test } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import type { SessionExit } from "../../../src/sessions/session-exit.js";
import { startFailure, withFinalStderr, type FailedStart } from "../../../src/sessions/start-failure.js";

const tail = ["error: cannot read tsconfig.json"];
const start = (lastExit: SessionExit | null = null): FailedStart => ({ key: "web/tsgo", lastExit, lastError: null, stderrTail: tail, maxRssMb: 512 });

describe("why a session's start failed", () => {
  test("a tree that passed its memory cap during the start is SessionDead with the memory seen", () => {
    const failure = startFailure(new Error("connection got disposed"), start({ code: null, signal: "SIGKILL", reason: "memory", rss_mb: 600.5 }));
    expect(failure.code).toBe("SessionDead");
    expect(failure.details).toMatchObject({ session: "web/tsgo", reason: "memory", rss_mb: 600.5, max_rss_mb: 512, stderr_tail: tail });
  });

  test("a server that exited during the start is ServerStartFailed with its exit and last words, whatever the error said", () => {
    const failure = startFailure(new BridgeError("Timeout", "initialize took too long", {}), start({ code: 2, signal: null, reason: null, rss_mb: null }));
    expect([failure.code, failure.message]).toEqual(["ServerStartFailed", "web/tsgo exited during start (code 2, signal null)"]);
    expect(failure.details).toEqual({ session: "web/tsgo", exit_code: 2, exit_signal: null, stderr_tail: tail });
  });

  test("a version command that failed stays ServerStartFailed, told with the session and its stderr", () => {
    const cause = new Error("ENOENT");
    const failure = startFailure(new BridgeError("ServerStartFailed", "version_command of tsgo failed: ENOENT", { server: "tsgo" }, { cause }), start());
    expect([failure.code, failure.message, failure.cause]).toEqual(["ServerStartFailed", "version_command of tsgo failed: ENOENT", cause]);
    expect(failure.details).toEqual({ server: "tsgo", session: "web/tsgo", stderr_tail: tail });
  });

  test("a connection lost during the start is ServerStartFailed; a start past its deadline stays Timeout", () => {
    const crashed = startFailure(new BridgeError("ServerCrashed", "the language server went away during initialize", { method: "initialize" }), start());
    expect([crashed.code, crashed.message]).toEqual(["ServerStartFailed", "web/tsgo: the language server went away during initialize"]);
    expect(crashed.details).toEqual({ method: "initialize", session: "web/tsgo", stderr_tail: tail });
    const late = startFailure(new BridgeError("Timeout", "initialize took longer than 100 ms", { method: "initialize" }), start());
    expect([late.code, late.message]).toEqual(["Timeout", "web/tsgo: initialize took longer than 100 ms"]);
  });

  test("a version mismatch passes as it is", () => {
    const mismatch = new BridgeError("ServerVersionMismatch", 'tsgo reports version "7.0.1", pinned 7.1.x', { server: "tsgo" });
    expect(startFailure(mismatch, start())).toBe(mismatch);
  });

  test("anything else thrown is ServerStartFailed with the cause kept", () => {
    const pipe = new Error("write EPIPE");
    const failure = startFailure(pipe, start());
    expect([failure.code, failure.message, failure.cause]).toEqual(["ServerStartFailed", "web/tsgo failed to start: write EPIPE", pipe]);
    expect(failure.details).toEqual({ session: "web/tsgo", stderr_tail: tail });
  });

  test("the final stderr replaces the tail a failure carries, and a failure without one is left as it is", () => {
    const judged = startFailure(new Error("write EPIPE"), start());
    const final = withFinalStderr(judged, [...tail, "panic: exit"]);
    expect([final.code, final.message, final.cause, final.details.stderr_tail]).toEqual([judged.code, judged.message, judged.cause, [...tail, "panic: exit"]]);
    const mismatch = new BridgeError("ServerVersionMismatch", "pinned", { server: "tsgo" });
    expect(withFinalStderr(mismatch, ["late"])).toBe(mismatch);
  });
});
