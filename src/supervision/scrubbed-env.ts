/** The only variables a language server inherits from the bridge (CONTRACT §3). */
const INHERITED = ["PATH", "HOME", "LANG"] as const;

/**
 * The environment for a language server: PATH, HOME and LANG from the bridge's own environment
 * (where set), then `extra` (the server entry's `env`), which wins on a clash. Nothing else leaks:
 * not the bridge's secrets, not NODE_OPTIONS, not the MCP client's variables.
 */
export function scrubbedEnv(extra: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
