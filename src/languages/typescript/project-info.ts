import { ProtocolRequestType } from "vscode-languageserver-protocol";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";

interface ProjectInfoParams {
  readonly textDocument: { readonly uri: string };
}

interface ProjectInfoResult {
  /** The tsconfig of the project the server answers the file from; "" for an inferred project. */
  readonly configFilePath: string;
}

/** TypeScript 7's native server's own request: which project it would answer a file from now. */
const ProjectInfoRequest = new ProtocolRequestType<ProjectInfoParams, ProjectInfoResult | null, never, void, void>("custom/projectInfo");

/**
 * The config file of the project TypeScript 7 answers `uri` from at this moment ("" for an
 * inferred project). For a closed file that is the first loaded project holding it, which may be
 * another package's (one that imports it) rather than its own: the question costs no type check.
 */
export async function requestTypescriptProject(link: ServerLink, uri: string, options: RequestOptions): Promise<string> {
  const result = await link.request(ProjectInfoRequest, { textDocument: { uri } }, options);
  return result?.configFilePath ?? "";
}
