import { afterAll, expect } from "vitest";
import type { Bridge } from "../../helpers/bridge.js";
import { pollUntil } from "../../helpers/poll.js";
import type { TempRepo } from "../../helpers/temp-repo.js";
import { sharedServers } from "../../sharing/helpers/shared.js";

/** A `diagnostics` item as the preview tests read it. */
export interface PreviewItem {
  path: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
  severity: string;
  code: string | null;
  source: string | null;
  message: string;
  channels?: unknown;
}

/** A `diagnostics` answer, with `changes` or `since` or neither. */
export interface PreviewAnswer {
  items: PreviewItem[];
  total: number;
  files: number;
  introduced?: number;
  resolved?: number;
  unchanged?: number;
  not_previewed?: { server: string; source: string | null }[];
  not_checked?: string[];
}

/**
 * What a test file starts: its bridges are closed and its repositories removed after all its
 * tests, and then no shared server of its configs may be left running.
 */
export function startedInFile(): { started: Bridge[]; repos: TempRepo[]; configs: string[] } {
  const tracked = { started: [] as Bridge[], repos: [] as TempRepo[], configs: [] as string[] };
  afterAll(async () => {
    await Promise.all(tracked.started.map((bridge) => bridge.close().catch(() => {})));
    for (const repo of tracked.repos) repo.remove();
    expect(await pollUntil(() => tracked.configs.every((config) => sharedServers({ config }).length === 0), 60_000, 50)).toBe(true);
  }, 120_000);
  return tracked;
}
