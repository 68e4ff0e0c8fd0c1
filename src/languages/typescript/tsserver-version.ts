import type { Deadline } from "../../contract/deadline.js";
import { BridgeError } from "../../contract/errors.js";
import type { ToolchainReport } from "../../lsp/project-model.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import { requestTsserverVersion } from "./tsserver-project.js";

/**
 * Asks the tsserver that typescript-language-server runs for its version and throws
 * `ServerVersionMismatch` unless it is the compiler's; returns it.
 */
export async function confirmTsserverVersion(link: ServerLink, compiler: ToolchainReport, deadline: Deadline): Promise<string> {
  const reported = await requestTsserverVersion(link, { deadline });
  if (reported === compiler.version) return reported;
  throw new BridgeError(
    "ServerVersionMismatch",
    `the tsserver that answers reports version ${JSON.stringify(reported)}, but the ${compiler.source} TypeScript at ${compiler.path} is ${compiler.version}`,
    { server: compiler.name, pinned: compiler.version, reported, compiler_path: compiler.path },
  );
}
