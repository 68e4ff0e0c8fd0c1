// Text from outside lspmcp is printed with every character a terminal acts on escaped.
import { expect, test } from "vitest";
import { escapeLines, escapeText } from "../../../src/contract/escape-text.js";

test("ESC, CR, BEL, backspace, newline, DEL, a lone CSI and bidirectional overrides are escaped; tab and text are not", () => {
  expect(escapeText("a\u001b[2K\rb\u0007c\bd\ne\u007ff\u009bg\u202eh\u2066i\tj é 日本")).toBe(
    "a\\x1b[2K\\x0db\\x07c\\x08d\\x0ae\\x7ff\\x9bg\\u{202e}h\\u{2066}i\tj é 日本",
  );
});

test("escapeLines keeps a message's lines and escapes what is on them", () => {
  expect(escapeLines("first\u001b[1A\nsecond\r")).toBe("first\\x1b[1A\nsecond\\x0d");
});
