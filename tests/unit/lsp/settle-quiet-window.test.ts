import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DEFAULT_SETTLE_QUIET_MS } from "../../../src/contract/quiet-window.js";
import { decideSettle, startSettle, stepSettle } from "../../../src/lsp/settle-rule.js";
import type { SettleEvent } from "../../../src/lsp/settle-state.js";

// Recorded with scripts/record-settle-timeline.mjs --until-quiet on a loaded machine (load
// average about 17 on 2 cores): typescript-language-server 5.3.0 (tsserver 5.9.3) under the
// standard adapter, ajv's 106 files opened at once. Each event carries `at`, milliseconds since
// the start. The server publishes each file once per diagnostic kind, without a version: ten
// files' first publish is not their last.
type Timed = SettleEvent & { readonly at: number };
const { events } = JSON.parse(readFileSync(join(import.meta.dirname, "../../fixtures/settle-timelines/tls-standard-ajv.json"), "utf8")) as {
  events: Timed[];
};
const open = events.filter((event) => event.type !== "close");
const publishes = open.filter((event): event is Timed & { type: "publish" } => event.type === "publish");
const uris = [...new Set(publishes.map((event) => event.uri))];
const last = (uri: string) => publishes.filter((event) => event.uri === uri).at(-1)!.diagnostics;

/**
 * The live side of the quiet window, replayed: the window of `quietMs` passes (a `quiet` event for
 * the mark then current) wherever the server said nothing for that long, and once after the end.
 */
function withQuiet(quietMs: number): SettleEvent[] {
  const out: SettleEvent[] = [];
  let mark = 0;
  let previous = open[0]!.at;
  for (const { at, ...event } of open) {
    if (at - previous >= quietMs) out.push({ type: "quiet", mark });
    if (event.type === "publish" || event.type === "progress") {
      mark++;
      previous = at;
    }
    out.push(event as SettleEvent);
  }
  out.push({ type: "quiet", mark });
  return out;
}

/** Each file's answer under the standard rule with this window. */
function answers(quietMs: number): Map<string, unknown> {
  const replayed = withQuiet(quietMs);
  return new Map(
    uris.map((uri) => {
      // The rule settles at the first point it can: fold event by event and stop there.
      let state = startSettle({ uri, version: 1, pullStatic: false, quietMs });
      for (const event of replayed) {
        state = stepSettle(state, event);
        const decision = decideSettle(state);
        if (decision.kind === "settled") return [uri, decision.push];
      }
      return [uri, null];
    }),
  );
}

describe("recorded: typescript-language-server on ajv, publishing in phases without a version", () => {
  test("every file is published, and some first publish is not the last", () => {
    expect(uris).toHaveLength(106);
    const partial = uris.filter((uri) => publishes.find((event) => event.uri === uri)!.diagnostics.length !== last(uri).length);
    expect(partial.length).toBeGreaterThan(5);
  });

  test("with the default window, every file settles on its last publish", () => {
    const settled = answers(DEFAULT_SETTLE_QUIET_MS);
    for (const uri of uris) expect(settled.get(uri), uri).toEqual(last(uri));
  });

  test("a window shorter than the server's longest silence in a pass (2.1 s here) settles some file on a first phase", () => {
    const settled = answers(500);
    expect(uris.some((uri) => JSON.stringify(settled.get(uri)) !== JSON.stringify(last(uri)))).toBe(true);
  });
});
