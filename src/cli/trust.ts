import { configSourceFor } from "../config/config-source.js";
import { misplacedTrustFolder, trustCommand } from "../config/config-trust.js";
import { loadConfigFile } from "../config/load-config.js";
import { packageRoot } from "../config/package-root.js";
import { stateFolder } from "../config/state-folder.js";
import { recordTrust, trustDigest } from "../config/trust-store.js";
import { trustSubject } from "../config/trust-subject.js";
import { escapeText } from "../contract/escape-text.js";

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
  // The file as it is: its real path, however it was named.
  const subject = await trustSubject(config, document, packageRoot());
  const path = subject.path;
  const folder = stateFolder();
  const misplaced = misplacedTrustFolder(path, folder);
  if (misplaced !== null) {
    process.stderr.write(`lspmcp: cannot trust ${escapeText(path)}: ${escapeText(misplaced)}\n`);
    return TRUST_EXIT.usage;
  }
  const record = recordTrust(path, trustDigest(path, text, subject.programs), folder);
  const covered = subject.programs.map((program) => program.path);
  const lines = [
    `trusted ${path} as it is now (recorded in ${record}); any change to it needs \`${trustCommand(path)}\` again`,
    ...(covered.length === 0 ? [] : [`so does any change to the programs it names inside ${subject.checkout}: ${covered.join(", ")}`]),
    ...(subject.keys.length === 0
      ? ["it runs only the shipped profiles' own programs, which need no trust"]
      : ["it may now run:", ...subject.keys.map((key) => `  ${key.path} = ${key.value}`)]),
  ];
  // Paths and key names are the checkout's text: each line shown escaped.
  process.stdout.write(`${lines.map(escapeText).join("\n")}\n`);
  return TRUST_EXIT.trusted;
}
