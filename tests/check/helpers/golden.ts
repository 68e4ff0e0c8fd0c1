import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FIXTURE, FIXTURE_ROOT } from "./cli.js";

/**
 * The one machine-specific string of a report, the workspace root's file URI in SARIF's
 * `originalUriBaseIds`, stands as this token in golden files so they travel between checkouts.
 */
export const ROOT_TOKEN = "{{FIXTURE_ROOT_URI}}";

export const GOLDEN_DIR = join(FIXTURE, "golden");

/** The fixture's root URI as the report writes it. */
export function fixtureRootUri(): string {
  return `${pathToFileURL(FIXTURE_ROOT).href}/`;
}

/** A golden file as the exact bytes the binary must print here. */
export function readGolden(name: string): string {
  return readFileSync(join(GOLDEN_DIR, name), "utf8").replaceAll(ROOT_TOKEN, fixtureRootUri());
}
