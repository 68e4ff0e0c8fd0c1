/** The variable that turns restricted mode on, as `--restricted` does. */
export const RESTRICTED_VARIABLE = "LSPMCP_RESTRICTED";

/**
 * Whether lspmcp runs in restricted mode: none of a checkout's own code runs (its compiler, its
 * interpreter, configuration files that servers load as code, build scripts, `go list`), and
 * every file whose answer would need it is listed as not checked with the reason. On with
 * `--restricted` on any command (which sets the variable for the whole process and what it
 * starts of lspmcp's own), or `LSPMCP_RESTRICTED=1`.
 */
export function restrictedMode(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[RESTRICTED_VARIABLE];
  return value !== undefined && value !== "" && value !== "0";
}
