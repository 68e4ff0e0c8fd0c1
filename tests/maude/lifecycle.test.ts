/**
 * The server's lifecycle: start errors, and every way out (stdin EOF, SIGTERM, shutdown/exit)
 * while a check is running ends that check's maude too. Processes are found in /proc by a marker
 * variable that the server and every maude it starts inherit; the 5 s to exit are net of the
 * machine's load (tests/helpers/proc.ts, GateClock).
 */
import { afterEach, describe, expect, test } from "vitest";
import { pidsNamed, waitForProcesses, waitUntilGone } from "../helpers/proc.js";
import { fixtureText, MARKER, requireMaude, ServerProcess } from "./helpers/server-process.js";

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("start", () => {
  test("a missing maude fails initialize with a clear error, and stdin EOF ends the server", async () => {
    requireMaude();
    server = new ServerProcess();
    const err = await server.initialize({ maudePath: "/nonexistent/maude" }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/cannot start: maudePath "\/nonexistent\/maude" is not an executable file/);
    server.child.stdin?.end();
    expect(await server.exitsInTime()).toBe(true);
  });

  test("maude not on PATH", async () => {
    requireMaude();
    server = new ServerProcess({ PATH: "/nonexistent" }, true);
    await expect(server.initialize()).rejects.toThrow(/maude executable "maude" was not found on PATH \(\/nonexistent\)/);
  });

  test("bad options name the key", async () => {
    requireMaude();
    server = new ServerProcess();
    await expect(server.initialize({ timeoutMs: -1, maxConcurentChecks: 2 })).rejects.toThrow(
      /unknown option "maxConcurentChecks".*timeoutMs must be an integer from 1 to 86400000, got -1/,
    );
  });
});

describe("no maude outlives its check or the server", () => {
  const running = async (): Promise<ServerProcess> => {
    requireMaude();
    const s = new ServerProcess();
    server = s;
    await s.initialize({ timeoutMs: 60_000 });
    await s.open("nonterminating.maude");
    await waitForProcesses(MARKER, s.marker, "maude", 1);
    return s;
  };

  test("stdin EOF", async () => {
    const s = await running();
    s.child.stdin?.end();
    expect(await s.exitsInTime()).toBe(true);
    await waitUntilGone(MARKER, s.marker);
  });

  test("SIGTERM", async () => {
    const s = await running();
    s.child.kill("SIGTERM");
    expect(await s.exitsInTime()).toBe(true);
    await waitUntilGone(MARKER, s.marker);
  });

  test("SIGKILL of the server: the kernel's parent-death signal ends maude", async () => {
    const s = await running();
    s.child.kill("SIGKILL");
    expect(await s.exitsInTime()).toBe(true);
    await waitUntilGone(MARKER, s.marker);
  });

  test("shutdown and exit", async () => {
    const s = await running();
    // Asserts the answer to shutdown, the exit with code 0 on exit, and the tree gone.
    await s.stop();
  });
});

describe("maxConcurrentChecks", () => {
  /** Highest number of live maude processes seen while both checks run to their timeouts. */
  async function peak(limit: number): Promise<number> {
    requireMaude();
    const s = new ServerProcess();
    server = s;
    await s.initialize({ timeoutMs: 1500, maxConcurrentChecks: limit });
    const a = await s.open("nonterminating.maude");
    const b = await s.open("nonterminating.maude", fixtureText("nonterminating.maude"), 1, a.replace("nonterminating.maude", "copy-of-nonterminating.maude"));
    let max = 0;
    let done = false;
    const both = Promise.all([s.waitForPublish(a, 1), s.waitForPublish(b, 1)]).finally(() => {
      done = true;
    });
    while (!done) {
      max = Math.max(max, pidsNamed(MARKER, s.marker, "maude").length);
      await new Promise((r) => setTimeout(r, 10)); // sampling interval while the checks run
    }
    const [pa, pb] = await both;
    expect(pa.diagnostics[0]?.code).toBe("maude/timeout");
    expect(pb.diagnostics[0]?.code).toBe("maude/timeout");
    return max;
  }

  test("1 (the default): one maude at a time, the second check queued", async () => {
    expect(await peak(1)).toBe(1);
  });

  test("2: two at once", async () => {
    expect(await peak(2)).toBe(2);
  });
});
