import { describe, expect, test } from "vitest";
import { classifyRequest, stampResult } from "../../../src/mcp/revision-2026.js";

const envelope = (version: unknown, capabilities: unknown = {}) => ({
  _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": capabilities },
});

describe("telling the revision of a request", () => {
  test("no envelope, or one naming a 2025 revision, is an old client's", () => {
    expect(classifyRequest(1, "tools/call", { name: "hover" }, "1.0.0")).toEqual({ kind: "legacy" });
    expect(classifyRequest(1, "tools/list", undefined, "1.0.0")).toEqual({ kind: "legacy" });
    expect(classifyRequest(1, "tools/call", envelope("2025-11-25"), "1.0.0")).toEqual({ kind: "legacy" });
  });

  test("a 2026 tools/call goes on; discover, tools/list and ping are answered here, stamped", () => {
    expect(classifyRequest(1, "tools/call", { name: "hover", ...envelope("2026-07-28") }, "1.0.0")).toEqual({ kind: "modern" });
    const list = classifyRequest(2, "tools/list", envelope("2026-07-28"), "1.0.0");
    expect(list).toMatchObject({ kind: "answer", reply: { id: 2, result: { cacheScope: "public", resultType: "complete" } } });
    // A probe without the envelope is answered too.
    expect(classifyRequest(3, "server/discover", undefined, "1.0.0")).toMatchObject({ reply: { result: { supportedVersions: ["2026-07-28"] } } });
  });

  test("-32022 for an unknown version, -32602 for a malformed envelope, -32601 for a 2026 initialize", () => {
    expect(classifyRequest(4, "tools/call", envelope("2030-01-01"), "1.0.0")).toMatchObject({
      reply: { error: { code: -32022, data: { supported: ["2026-07-28"], requested: "2030-01-01" } } },
    });
    expect(classifyRequest(5, "tools/call", envelope(20260728), "1.0.0")).toMatchObject({ reply: { error: { code: -32602 } } });
    expect(classifyRequest(6, "tools/call", envelope("2026-07-28", "none"), "1.0.0")).toMatchObject({ reply: { error: { code: -32602 } } });
    expect(classifyRequest(7, "initialize", envelope("2026-07-28"), "1.0.0")).toMatchObject({ reply: { error: { code: -32601 } } });
  });

  test("a stamped result keeps its own keys first and in order, and keeps its own _meta", () => {
    const stamped = stampResult({ content: [], structuredContent: { a: 1 }, _meta: { mine: true } }, "2.0.0");
    expect(Object.keys(stamped)).toEqual(["content", "structuredContent", "_meta", "resultType"]);
    expect(stamped._meta).toEqual({ mine: true, "io.modelcontextprotocol/serverInfo": { name: "lspmcp", version: "2.0.0" } });
  });
});
