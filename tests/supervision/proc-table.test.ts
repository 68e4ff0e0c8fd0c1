import { describe, expect, test } from "vitest";
import {
  formatIdentity,
  identify,
  isAlive,
  isKernelThread,
  parseIdentity,
  parseStat,
  readAllStats,
  readEnvironValue,
  readStat,
  readUid,
} from "../../src/supervision/proc-table.js";

describe("proc-table", () => {
  test("parseStat finds the fields after a comm with spaces and parentheses", () => {
    const line = "4242 (we ird) (x)) S 17 4242 4242 0 -1 4194560 1 0 0 0 30 7 2 1 20 0 1 0 98765 1000 10";
    expect(parseStat(line)).toEqual({ pid: 4242, comm: "we ird) (x)", state: "S", ppid: 17, pgid: 4242, sid: 4242, startTime: 98765, cpuTicks: 40 });
  });

  test("parseStat rejects what is not a stat line", () => {
    expect(parseStat("")).toBeUndefined();
    expect(parseStat("12 (x) S 1 2")).toBeUndefined();
  });

  test("readStat of this process agrees with process.pid and ppid", () => {
    const stat = readStat(process.pid)!;
    expect(stat.pid).toBe(process.pid);
    expect(stat.ppid).toBe(process.ppid);
    expect(stat.startTime).toBeGreaterThan(0);
    expect(readUid(process.pid)).toBe(process.getuid!());
  });

  test("kernel threads are kthreadd and its children: no environment; this process is none", () => {
    expect(isKernelThread(readStat(process.pid)!)).toBe(false);
    const kernel = readAllStats().filter(isKernelThread);
    // Inside a PID namespace none are visible; on a plain machine kthreadd is pid 2.
    if (readStat(2)?.comm === "kthreadd") expect(kernel.length).toBeGreaterThan(1);
    for (const stat of kernel) expect(readEnvironValue(stat.pid, "PATH")).toBeUndefined();
    expect(isKernelThread({ pid: 4242, comm: "x", state: "S", ppid: 2, pgid: 0, sid: 0, startTime: 1 })).toBe(true);
    expect(isKernelThread({ pid: 4242, comm: "x", state: "S", ppid: 1, pgid: 0, sid: 0, startTime: 1 })).toBe(false);
  });

  test("readEnvironValue matches whole variable names only", () => {
    // The test runner's own environment at exec time has PATH; a suffix of a name must not match.
    expect(readEnvironValue(process.pid, "PATH")).toBeDefined();
    expect(readEnvironValue(process.pid, "ATH")).toBeUndefined();
    expect(readEnvironValue(999_999_999, "PATH")).toBeUndefined();
  });
});

describe("process-identity", () => {
  test("a live process is identified by pid and start time", () => {
    const self = identify(process.pid)!;
    expect(isAlive(self)).toBe(true);
    expect(isAlive({ pid: self.pid, startTime: self.startTime + 1 })).toBe(false);
    expect(parseIdentity(formatIdentity(self))).toEqual(self);
  });

  test("parseIdentity rejects malformed owners", () => {
    for (const text of ["", "12", "12:", ":12", "a:b", "12:34:56"]) expect(parseIdentity(text)).toBeUndefined();
  });
});
