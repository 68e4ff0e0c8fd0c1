import { describe, expect, test } from "vitest";
import { withoutStack } from "../../../src/lsp/error-translation.js";

describe("a server's error message as the caller sees it", () => {
  test("tsserver's stack frames are dropped, what it said is kept on one line", () => {
    const tsserver =
      "<semantic> TypeScript Server Error (5.9.3)\nNo Project.\nError: No Project.\n    at Object.ThrowNoProject (/x/typescript/lib/typescript.js:1:2)\n    at ProjectService.getDefaultProjectForFile (/x/typescript/lib/typescript.js:3:4)";
    expect(withoutStack(tsserver)).toBe("<semantic> TypeScript Server Error (5.9.3) No Project. Error: No Project.");
  });

  test("a one-line message is unchanged and a long one is cut at 500 characters", () => {
    expect(withoutStack("Request textDocument/hover failed.")).toBe("Request textDocument/hover failed.");
    const long = withoutStack("x".repeat(2000));
    expect(long).toBe(`${"x".repeat(500)}…`);
  });
});
