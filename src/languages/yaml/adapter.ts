import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";
import { standardAdapter } from "../standard.js";

/**
 * The notification by which a client tells yaml-language-server that it fetches http(s) schemas
 * itself: from then on the server asks the client (`vscode/content`) instead of requesting the
 * URL, and lspmcp refuses (server-requests.ts). The server has no setting that turns those
 * requests off, and a file's modeline (`# yaml-language-server: $schema=URL`) chooses the URL.
 */
const YAML_CONTENT_REQUESTS = "yaml/registerContentRequest";

/**
 * yaml-language-server: the standard adapter, but before it takes any document it is told to
 * route every remote schema through the client, which fetches none: no file can make it request
 * a URL of its choosing (a service on the loopback included).
 */
export function yamlAdapter(link: ServerLink): ServerAdapter {
  return {
    ...standardAdapter(),
    name: "yaml",
    whenReady: async () => {
      link.notify(YAML_CONTENT_REQUESTS, null);
    },
  };
}
