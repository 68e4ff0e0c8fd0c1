import { dirname } from "node:path";
import { configSourceFor } from "../config/config-source.js";
import { misplacedTrustFolder, trustCommand } from "../config/config-trust.js";
import { loadConfigFile } from "../config/load-config.js";
import { packageRoot } from "../config/package-root.js";
import { programKeys } from "../config/program-keys.js";
import { stateFolder } from "../config/state-folder.js";
import { recordTrust, trustDigest } from "../config/trust-store.js";

/** Exit codes of `lspmcp trust` (CONTRACT §2). */
const TRUST_EXIT = { trusted: 0, usage: 2 } as const;

/**
 * `lspmcp trust [--config FILE]`: records that the user trusts the configuration found from `cwd`
 * (or FILE) as it is now, so that the programs it names may run; any change to the file needs
 * trust again. Loads the file first (a ConfigInvalid one is refused, as `main` reports it): what
 * is trusted is what was read and shown. Exit 2 when there is no file to trust.
 */
export async function trust(configArg: string | null, cwd: string): Promise<number> {
  const source = configSourceFor(configArg, cwd);
  if (source.kind === "default") {
    process.stderr.write(
      "lspmcp: no bridge.toml or .lspmcp.toml in this folder or its parents (up to the git top-level): " +
        "the embedded default runs only the shipped profiles and needs no trust (usage: lspmcp trust [--config FILE])\n",
    );
    return TRUST_EXIT.usage;
  }
  const { config, text, document } = await loadConfigFile(source.path);
  const path = config.configPath;
  const folder = stateFolder();
  const misplaced = misplacedTrustFolder(path, folder);
  if (misplaced !== null) {
    process.stderr.write(`lspmcp: cannot trust ${path}: ${misplaced}\n`);
    return TRUST_EXIT.usage;
  }
  const programs = await programKeys(document, dirname(path), packageRoot());
  const record = recordTrust(path, trustDigest(path, text), folder);
  const lines = [
    `trusted ${path} as it is now (recorded in ${record}); any change to it needs \`${trustCommand(path)}\` again`,
    ...(programs.length === 0
      ? ["it runs only the shipped profiles' own programs, which need no trust"]
      : ["it may now run:", ...programs.map((key) => `  ${key.path} = ${key.value}`)]),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  return TRUST_EXIT.trusted;
}
