import { describe, expect, test } from "vitest";
import { diskChangeAction } from "../../../src/disk-sync/refresh-from-disk.js";
import type { DiskChange } from "../../../src/disk-sync/disk-view.js";
import { pyreflyAdapter } from "../../../src/languages/python/pyrefly.js";
import { pythonNativeAdapter } from "../../../src/languages/python/python-native.js";

const kinds: DiskChange["kind"][] = ["created", "changed", "deleted"];

describe("diskChangeAction: tell the server, or start it afresh", () => {
  test("pyrefly is restarted for any change a look after the first finds: created, changed or deleted", () => {
    for (const kind of kinds) expect(diskChangeAction(pyreflyAdapter(), true, [{ path: "/w/a.py", kind }]), kind).toBe("restart");
  });

  test("the first look is no change: what it reports is told, even to pyrefly", () => {
    expect(diskChangeAction(pyreflyAdapter(), false, [{ path: "/w/a.py", kind: "created" }])).toBe("tell");
  });

  test("no change, nothing to do; a server that takes changes in (ty's adapter) is told", () => {
    expect(diskChangeAction(pyreflyAdapter(), true, [])).toBe("none");
    expect(diskChangeAction(pythonNativeAdapter(), true, [{ path: "/w/a.py", kind: "changed" }])).toBe("tell");
  });
});
