// Workspaces and specs for the real-server gates: typescript-language-server (which starts
// tsserver processes once a file is open), pyright-langserver, and Biome (a wrapper script, its
// daemon and its proxy: children that outlive the wrapper when it is killed outright).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIOME_PROXY, PYRIGHT, TSLS } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";

export interface RealServerCase {
  readonly name: string;
  readonly command: string;
  readonly args: string[];
  readonly rootUri: string;
  readonly open: { uri: string; languageId: string; text: string };
  /** Processes the tree has once the server is working (tsserver children for TypeScript). */
  readonly minLive: number;
}

export function typescriptCase(): RealServerCase {
  const root = tempDir("lspmcp-ts-");
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
  const text = "export const answer: number = 42;\n";
  writeFileSync(join(root, "a.ts"), text);
  return {
    name: "typescript-language-server",
    command: TSLS,
    args: ["--stdio"],
    rootUri: pathToFileURL(root).href,
    open: { uri: pathToFileURL(join(root, "a.ts")).href, languageId: "typescript", text },
    minLive: 3,
  };
}

export function pyrightCase(): RealServerCase {
  const root = tempDir("lspmcp-py-");
  const text = "def answer() -> int:\n    return 42\n";
  writeFileSync(join(root, "a.py"), text);
  return {
    name: "pyright-langserver",
    command: PYRIGHT,
    args: ["--stdio"],
    rootUri: pathToFileURL(root).href,
    open: { uri: pathToFileURL(join(root, "a.py")).href, languageId: "python", text },
    minLive: 1,
  };
}

export function biomeCase(): RealServerCase {
  const root = tempDir("lspmcp-biome-");
  const text = "export const answer = 42;\n";
  writeFileSync(join(root, "a.ts"), text);
  return {
    name: "biome",
    command: BIOME_PROXY,
    args: [],
    rootUri: pathToFileURL(root).href,
    open: { uri: pathToFileURL(join(root, "a.ts")).href, languageId: "typescript", text },
    // servers/biome/lsp-proxy, the daemon it starts, and the proxy.
    minLive: 3,
  };
}
