/**
 * The configuration after loading: profiles merged, defaults applied, every path absolute and
 * checked. This is what the rest of the bridge consumes; nothing outside `src/config/` sees TOML.
 */
export interface ResolvedConfig {
  /** Absolute path of the bridge.toml that was loaded. */
  readonly configPath: string;
  readonly bridge: BridgeSettings;
  readonly shared: SharedSettings;
  /** In configuration order. */
  readonly servers: readonly ResolvedServer[];
  /** In configuration order. */
  readonly workspaces: readonly ResolvedWorkspace[];
}

export interface BridgeSettings {
  readonly max_sessions: number;
  readonly max_result_bytes: number;
  readonly request_timeout_ms: number;
  readonly max_open_documents: number;
}

export interface SharedSettings {
  readonly enabled: boolean;
  /** Absolute, or null for the default location (chosen at run time from the environment). */
  readonly lease_dir: string | null;
  readonly linger_ms: number;
  readonly session_idle_ms: number;
  /** Tool calls of one peer that run at once; the rest wait in the peer's lane. */
  readonly max_calls_per_peer: number;
  /** Tool calls of all peers that run at once; slots go round-robin between peers. */
  readonly max_calls_in_flight: number;
}

export interface LanguageClaim {
  /** LSP language id sent in didOpen. */
  readonly id: string;
  /** Lower-case, with the leading dot: ".ts". */
  readonly extensions: readonly string[];
}

export interface ResolvedServer {
  readonly name: string;
  /** Absolute path of an existing executable file. */
  readonly command: string;
  readonly args: readonly string[];
  /** The pin. */
  readonly version: string;
  /** Full argv with argv[0] absolute, or null when the pin is checked against serverInfo.version. */
  readonly version_command: readonly string[] | null;
  readonly languages: readonly LanguageClaim[];
  /** Extra environment for the child, on top of the scrubbed PATH, HOME and LANG. */
  readonly env: Readonly<Record<string, string>>;
  readonly initialization_options: Readonly<Record<string, unknown>>;
  /** Answers workspace/configuration: a section "a.b" is looked up as settings.a.b. */
  readonly settings: Readonly<Record<string, unknown>>;
}

export interface ResolvedWorkspace {
  readonly name: string;
  /** Absolute, symlinks resolved, an existing directory. */
  readonly root: string;
  /** Names of servers, each one defined in `servers`. */
  readonly servers: readonly string[];
  /** Extension (".ts") → server name, for extensions claimed by more than one of `servers`. */
  readonly default_server: Readonly<Record<string, string>>;
  /** Glob-like patterns (relative to root) that `check` skips when it walks the tree. */
  readonly exclude: readonly string[];
}
