// docs/contributors/servers-notes.md names every shipped profile's settle rule, with why it is sound: the table
// between its profile-rules markers is held to servers/*.toml (a profile's `adapter`, else
// "standard"), row for row.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ADAPTER_RULES } from "../../src/config/known-servers.js";
import { REPO } from "../helpers/paths.js";
import { shippedProfiles } from "../helpers/shipped-profiles.js";

/** The rows of the profile-rules table: profile, the adapter its rule cell starts with, and the why. */
function documentedRules(): { profile: string; adapter: string; why: string }[] {
  const page = readFileSync(join(REPO, "docs/contributors/servers-notes.md"), "utf8");
  const table = page.slice(page.indexOf("<!-- profile-rules:begin -->"), page.indexOf("<!-- profile-rules:end -->"));
  return table
    .split("\n")
    .filter((row) => row.startsWith("| `"))
    .map((row) => {
      const [profile = "", rule = "", why = ""] = row.slice(2, -2).split(" | ");
      return { profile: profile.replaceAll("`", ""), adapter: /^`([^`]+)`/.exec(rule)?.[1] ?? "", why };
    });
}

test("the servers' notes name each shipped profile's rule, as its profile sets it, with why it is sound", async () => {
  const profiles = await shippedProfiles();
  const expected = [...profiles]
    .map(([name, profile]) => ({ profile: name, adapter: profile.adapter ?? "standard" }))
    .sort((a, b) => a.profile.localeCompare(b.profile));
  const rows = documentedRules();
  expect(rows.map(({ profile, adapter }) => ({ profile, adapter })).sort((a, b) => a.profile.localeCompare(b.profile))).toEqual(expected);
  for (const row of rows) {
    expect(row.why.length, `the why of ${row.profile}`).toBeGreaterThan(40);
    expect(Object.keys(ADAPTER_RULES)).toContain(row.adapter);
  }
});
