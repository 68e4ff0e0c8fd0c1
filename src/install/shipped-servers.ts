import { loadProfile, profileNames } from "../config/profiles.js";
import type { InstallSource } from "../config/install-schema.js";

/** A shipped profile as `lspmcp servers` shows it and `servers install` installs it. */
export interface ShippedServer {
  readonly name: string;
  /** The pin: the profile's `version`. */
  readonly version: string;
  /** Language ids, in the profile's order. */
  readonly languages: readonly string[];
  /** As written in the profile: a `{cache}/...` path, a path in the package, or a bare name. */
  readonly command: string;
  readonly versionCommand: readonly string[] | null;
  readonly install: InstallSource;
}

/**
 * Every shipped profile below the package root that says where its server comes from, by name.
 * A profile that does not load, or has no `install` table, no command or no version, is left
 * out: the profile tests hold every shipped one to having all of them.
 */
export async function loadShippedServers(root: string): Promise<ShippedServer[]> {
  const names = await profileNames(root);
  const loaded = await Promise.all(names.map(async (name) => ({ name, result: await loadProfile(root, name) })));
  return loaded.flatMap(({ name, result }) => {
    if (!result.ok) return [];
    const { command, version, install, languages, version_command } = result.profile;
    if (command === undefined || version === undefined || install === undefined) return [];
    return [{ name, version, command, install, versionCommand: version_command ?? null, languages: (languages ?? []).map((language) => language.id) }];
  });
}
