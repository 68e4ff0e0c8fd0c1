import { pathToFileURL } from "node:url";
import { CallScope } from "../../contract/call-scope.js";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ProjectAnswer, ProjectHost, ProjectPulls } from "../../lsp/project-model.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import { nearestConfig } from "./nearest-config.js";
import { requestTsserverFileDiagnostics, supportsTsserverDiagnostics } from "./tsserver-diagnostics.js";
import { isConfiguredProject, requestTsserverProject } from "./tsserver-project.js";

/**
 * Openers in a row that brought no file but themselves into a project before the rest of the
 * run goes file by file (a layout the project path does not recognise, such as a solution-style
 * tsconfig, must not cost one sequential open per file).
 */
const MAX_FRUITLESS_OPENERS = 4;

/**
 * Whole-project answers from typescript-language-server's tsserver, without opening each file.
 * One file of the run is opened (its opener: tsserver loads the file's configured project, as it
 * would for an editor) and the project's file list read; every file of the run in that project
 * whose nearest tsconfig is the project's (so it would be the file's project if it were opened)
 * is answered from the project by tsserver's sync diagnostics requests on the closed file: the
 * same three requests, the same program, so the same set as file by file
 * (tests/differential/project-vs-file.test.ts). Files of other projects get openers of their
 * own; a file tsserver would give an inferred project is left to the file-by-file path.
 */
export class TsserverProjectPulls implements ProjectPulls {
  /** Each placed file's project (its tsconfig), named in its request. */
  private readonly projectOf = new Map<string, string>();
  private readonly openers = new Set<string>();
  private readonly scope = new CallScope();

  constructor(
    private readonly link: ServerLink,
    private readonly host: ProjectHost,
  ) {}

  /**
   * A file with no tsconfig or jsconfig above it gets an inferred project when opened, as do all
   * such files: they go file by file together. So do all files when the server offers no
   * tsserver passthrough.
   */
  async place(paths: readonly string[], options: RequestOptions): Promise<ReadonlySet<string>> {
    const placed = new Set<string>();
    if (!supportsTsserverDiagnostics(this.link)) return placed;
    const configs = new Map<string, string | null>();
    const configOf = (path: string) => nearestConfig(path, this.host.root, configs);
    let remaining = paths.filter((path) => configOf(path) !== null);
    let fruitless = 0;
    while (remaining.length > 0 && fruitless < MAX_FRUITLESS_OPENERS) {
      const opener = remaining[0]!;
      const deadline = this.host.fileDeadline();
      const fileOptions = { deadline, ...(options.signal === undefined ? {} : { signal: options.signal }) };
      // Held open for the run (and left open after it, unless the run closes): it keeps the project loaded.
      this.openers.add(opener);
      await this.host.open(opener, fileOptions, this.scope);
      const project = await requestTsserverProject(this.link, opener, fileOptions);
      const programFiles = new Set(project.fileNames);
      const inProject = (path: string): boolean => isConfiguredProject(project) && programFiles.has(path) && configOf(path) === project.configFileName;
      if (!inProject(opener)) {
        remaining = remaining.slice(1);
        fruitless++;
        continue;
      }
      const members = remaining.filter(inProject);
      fruitless = members.length > 1 ? 0 : fruitless + 1;
      for (const member of members) {
        placed.add(member);
        this.projectOf.set(member, project.configFileName);
      }
      remaining = remaining.filter((path) => !inProject(path));
    }
    return placed;
  }

  /**
   * Asked of the file's own project by name: a closed file is otherwise answered from the first
   * loaded project that holds it (a package importing it, asked before).
   */
  async pull(path: string, _uri: string, options: RequestOptions): Promise<ProjectAnswer> {
    return { diagnostics: await requestTsserverFileDiagnostics(this.link, path, options, this.projectOf.get(path)) };
  }

  async end(close: boolean): Promise<void> {
    this.scope.close();
    if (!close) return;
    for (const path of this.openers) {
      const uri = pathToFileURL(path).href;
      if (!this.link.isClosed && this.link.documents.get(uri)) await this.link.documents.close(uri).catch(() => {});
    }
  }
}
