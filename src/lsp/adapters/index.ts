import type { AdapterName } from "../../config/types.js";
import { baconLsAdapter } from "./bacon-ls/adapter.js";
import { cargoCoverage } from "./bacon-ls/cargo-coverage.js";
import { bashAdapter } from "./bash.js";
import { biomeAdapter } from "./biome.js";
import { cclsAdapter } from "./ccls.js";
import { goplsAdapter } from "./gopls.js";
import { pythonNativeAdapter } from "./python-native.js";
import { pyreflyAdapter } from "./pyrefly.js";
import { rustAnalyzerAdapter } from "./rust-analyzer/adapter.js";
import type { AdapterFactory } from "./server-adapter.js";
import { standardAdapter } from "./standard.js";
import { yamlAdapter } from "./yaml.js";
import type { AdapterCoverage } from "./coverage.js";
import type { AdapterLaunch } from "./launch.js";
import {
  describeTsserverChoice,
  describeTypescriptChoice,
  tsserverEntryLaunch,
  tsserverToolchain,
  typescriptLaunch,
  typescriptToolchain,
} from "./typescript/launch.js";
import { typescriptAdapter } from "./typescript/native-adapter.js";
import { tsserverAdapter } from "./typescript/tsserver-adapter.js";
import { TSSERVER_REQUEST } from "./typescript/tsserver-diagnostics.js";

/**
 * Every adapter, by the name a profile's `adapter` key gives it: exactly the schema's names
 * (`ADAPTER_NAMES`; the compiler holds the two equal, a name missing or extra is a type error). A
 * server whose profile names none is "standard".
 */
export const ADAPTERS = {
  standard: standardAdapter,
  "bacon-ls": baconLsAdapter,
  bash: bashAdapter,
  biome: biomeAdapter,
  ccls: cclsAdapter,
  gopls: goplsAdapter,
  "python-native": pythonNativeAdapter,
  pyrefly: pyreflyAdapter,
  "rust-analyzer": rustAnalyzerAdapter,
  typescript: typescriptAdapter,
  tsserver: tsserverAdapter,
  yaml: yamlAdapter,
} as const satisfies Record<AdapterName, AdapterFactory>;

/**
 * The adapters that choose what a workspace runs: the program (`typescript`: the compiler the
 * workspace may bring), or the compiler a program of the entry's drives (`tsserver`); every other
 * server runs as its entry says.
 */
export const ADAPTER_LAUNCHES = {
  typescript: { launch: typescriptLaunch, describe: describeTypescriptChoice, toolchain: typescriptToolchain },
  tsserver: { launch: tsserverEntryLaunch, describe: describeTsserverChoice, toolchain: tsserverToolchain },
} as const satisfies Partial<Record<AdapterName, AdapterLaunch>>;

/**
 * The adapters whose servers cannot answer some files of a workspace, by its layout alone (see
 * `coverage.ts`); every other server answers every file it claims.
 */
export const ADAPTER_COVERAGE = {
  "bacon-ls": cargoCoverage,
} as const satisfies Partial<Record<AdapterName, AdapterCoverage>>;

/**
 * The adapter whose server the commands an `initialize` answer advertises show, or null: only
 * typescript-language-server advertises tsserver's passthrough, wherever its command comes from.
 */
export function adapterAdvertised(commands: readonly string[]): AdapterName | null {
  return commands.includes(TSSERVER_REQUEST) ? "tsserver" : null;
}
