import { ExecuteCommandRequest } from "vscode-languageserver-protocol";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import { TSSERVER_REQUEST } from "./tsserver-diagnostics.js";

/** The project tsserver answers a file from. */
interface TsserverProject {
  /** The tsconfig/jsconfig path of a configured project; for an inferred project, a name of tsserver's. */
  readonly configFileName: string;
  /** Every file of the project's program (libraries and the config file included), absolute. */
  readonly fileNames: readonly string[];
}

/**
 * The project of `file` (tsserver's `projectInfo` with its file list). The file must be open or
 * belong to a loaded project; tsserver loads the project of an opened file synchronously, and
 * brings a dirty project up to date before it answers.
 */
export async function requestTsserverProject(link: ServerLink, file: string, options: RequestOptions): Promise<TsserverProject> {
  const body = await tsserver<{ configFileName?: string; fileNames?: string[] }>(link, "projectInfo", { file, needFileNameList: true }, options);
  return { configFileName: body?.configFileName ?? "", fileNames: body?.fileNames ?? [] };
}

/**
 * Resolves once `file`'s project is loaded: tsserver's `projectInfo` (without the file list) is
 * routed to the semantic server and answered only then; typescript-language-server switches
 * navigation to that server on its project-loaded event, which arrives before the answer.
 */
export async function requestTsserverProjectLoaded(link: ServerLink, file: string, options: RequestOptions): Promise<void> {
  await tsserver(link, "projectInfo", { file, needFileNameList: false }, options);
}

/** The version of the tsserver typescript-language-server runs (tsserver's `status`), or null when it does not say. */
export async function requestTsserverVersion(link: ServerLink, options: RequestOptions): Promise<string | null> {
  const body = await tsserver<{ version?: string }>(link, "status", {}, options);
  return typeof body?.version === "string" ? body.version : null;
}

/** Whether tsserver names a configured project (a tsconfig.json or jsconfig.json), not an inferred one. */
export function isConfiguredProject(project: TsserverProject): boolean {
  return /[\\/](tsconfig|jsconfig)[^\\/]*\.json$/.test(project.configFileName);
}

/**
 * The files that import `file` (tsserver's `fileReferences`: import and export declarations,
 * `require`, `import()` and import types, triple-slash references), absolute and without
 * duplicates.
 */
export async function requestTsserverImporters(link: ServerLink, file: string, options: RequestOptions): Promise<string[]> {
  const body = await tsserver<{ refs?: { file: string }[] }>(link, "fileReferences", { file }, options);
  return [...new Set((body?.refs ?? []).map((ref) => ref.file))];
}

interface NavigationTree {
  readonly text: string;
  readonly kind: string;
  readonly kindModifiers?: string;
  readonly nameSpan?: { readonly start: { readonly line: number; readonly offset: number } } | null;
  readonly childItems?: readonly NavigationTree[];
}

/**
 * What other files can see of `file`, as text to compare before and after a change (in the
 * spirit of the compiler's own rule: a file whose declaration shape did not change does not
 * change what its importers are checked against): every declaration tsserver's `navtree` lists,
 * nested ones too, with its kind, modifiers and the type tsserver shows for it (`quickinfo`,
 * with its JSDoc tags such as `@deprecated`).
 *
 * Null when no such text can stand for the file: it is not a module (a script's declarations are
 * global), it declares a global augmentation or an ambient module (they change what files that
 * do not import it see), or a declaration has no name to ask about, a type tsserver shortens
 * ("..."), or overloads that one answer does not show. The caller then takes every file as reached.
 */
export async function requestTsserverFileShape(link: ServerLink, file: string, options: RequestOptions): Promise<string | null> {
  const tree = await tsserver<NavigationTree>(link, "navtree", { file }, options);
  if (tree?.kind !== "module") return null;
  const top = tree.childItems ?? [];
  if (top.some((item) => item.kind === "module" && (item.text === "global" || /^["']/.test(item.text)))) return null;
  const shape: unknown[] = [];
  const visit = async (items: readonly NavigationTree[], depth: number): Promise<boolean> => {
    for (const item of items) {
      if (!item.nameSpan) return false;
      const { line, offset } = item.nameSpan.start;
      const info = await tsserver<{ displayString?: string; tags?: unknown[] }>(link, "quickinfo", { file, line, offset }, options);
      const shown = info?.displayString ?? "";
      if (/\.\.\.|\(\+\d+ overloads?\)/.test(shown)) return false;
      shape.push([depth, item.kind, item.kindModifiers ?? "", item.text, shown, info?.tags ?? []]);
      if (!(await visit(item.childItems ?? [], depth + 1))) return false;
    }
    return true;
  };
  return (await visit(top, 0)) ? JSON.stringify(shape) : null;
}

async function tsserver<T>(link: ServerLink, command: string, args: object, options: RequestOptions): Promise<T | null> {
  const answer = (await link.request(ExecuteCommandRequest.type, { command: TSSERVER_REQUEST, arguments: [command, args] }, options)) as {
    body?: T;
  } | null;
  return answer?.body ?? null;
}
