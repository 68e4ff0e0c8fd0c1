import { loadProfile, profileNames } from "../../src/config/profiles.js";
import type { RawProfile } from "../../src/config/schema.js";
import { REPO } from "./paths.js";

/** Every shipped profile of `servers/*.toml`, by name, loaded as lspmcp loads it (a problem fails the caller). */
export async function shippedProfiles(): Promise<Map<string, RawProfile>> {
  const profiles = new Map<string, RawProfile>();
  for (const name of await profileNames(REPO)) {
    const loaded = await loadProfile(REPO, name);
    if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
    profiles.set(name, loaded.profile);
  }
  return profiles;
}
