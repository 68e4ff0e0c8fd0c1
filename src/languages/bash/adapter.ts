import { ConfigurationRequest } from "vscode-languageserver-protocol";
import { whenAnswered } from "../ready-log.js";
import { standardAdapter } from "../standard.js";
import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";

/**
 * bash-language-server: its `initialized` handler asks the client for its configuration and only
 * then takes documents. A document opened before that answer is only remembered as "the current
 * one" and checked once the answer is in, so of several documents opened meanwhile all but the
 * last are never checked and never published. No document is sent before that answer.
 */
export function bashAdapter(link: ServerLink): ServerAdapter {
  return {
    ...standardAdapter(),
    name: "bash",
    whenReady: whenAnswered(link, ConfigurationRequest.method),
  };
}
