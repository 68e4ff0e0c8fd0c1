import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CallScope } from "../../contract/call-scope.js";
import { requestPullDiagnostics } from "../../lsp/features/pull-diagnostics.js";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ProjectAnswer, ProjectHost, ProjectPulls } from "../../lsp/project-model.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import { nearestConfig } from "./nearest-config.js";
import { ProtocolRequestType } from "vscode-languageserver-protocol";

/**
 * Pulls of closed files from TypeScript 7's native server, each answered under the file's own
 * project whatever was asked before it. The server answers a closed file from a loaded project
 * that holds it, preferring the one whose config is nearest the file; when that one is not loaded,
 * from any other that holds it — a package that imports the file, under that package's options.
 * An opened file is always given its own project (the nearest tsconfig that includes it, through
 * a solution's references), and loads it; the server keeps a project only while an open file
 * needs it.
 *
 * So, per nearest config, the first file asked is opened and held for the run (an anchor: its
 * project stays loaded). Every other file is asked which project would answer it, beside its
 * closed pull; when that is its nearest config's, the pull is its own project's answer, and
 * otherwise it is opened and pulled again, so that the server chooses as for an editor. A
 * `check` closes the documents it opened when the run ends; a serving bridge keeps them (`end`).
 */
/**
 * Per server, the anchor document of each nearest config whose project an earlier run found it
 * holds: while that document is still open, its project is still loaded, and a later run holds
 * it instead of opening another file (each file's own project is asked all the same).
 */
const anchorsOf = new WeakMap<ServerLink, Map<string, string>>();

export class OwnProjectPulls implements ProjectPulls {
  private readonly configs = new Map<string, string | null>();
  /**
   * Per nearest config: "held" once an open anchor holds that config's project loaded; "open" when
   * the anchor's own project was another (the config does not include it), so every file of the
   * config is opened; a promise while an anchor is being opened.
   */
  private readonly anchors = new Map<string, "held" | "open" | Promise<void>>();
  private readonly opened = new Set<string>();
  private readonly scope = new CallScope();

  constructor(
    private readonly link: ServerLink,
    /** Opens the run's documents, held until `end`. */
    private readonly host: ProjectHost,
  ) {}

  /** Every file: each is answered under its own project, whatever was asked before it. */
  async place(paths: readonly string[]): Promise<ReadonlySet<string>> {
    return new Set(paths);
  }

  /** The config whose project is `path`'s own when it is opened (the nearest one), null for none. */
  ownConfig(path: string): string | null {
    return nearestConfig(path, this.host.root, this.configs);
  }

  /**
   * Whether `path`'s nearest config's project holds itself loaded for the run: its anchor (`path`
   * when none is open yet) is open and the server answers that anchor from this very project.
   */
  async holdsOwnProject(path: string, options: RequestOptions): Promise<boolean> {
    const expected = this.ownConfig(path) ?? "";
    const anchor = await this.anchorOf(expected, path, pathToFileURL(path).href, options);
    return (typeof anchor === "object" ? this.anchors.get(expected) : anchor) === "held";
  }

  /** `path`'s diagnostics from its own project, and that project. */
  async pull(path: string, uri: string, options: RequestOptions): Promise<ProjectAnswer> {
    const expected = this.ownConfig(path) ?? "";
    const anchor = await this.anchorOf(expected, path, uri, options);
    let project: string;
    if (typeof anchor === "object") {
      project = anchor.opened;
    } else if (this.link.documents.get(uri)) {
      project = await requestTypescriptProject(this.link, uri, options);
    } else if (anchor === "held") {
      // Asked together (one round trip): the pull is the file's own project's answer when the
      // server says that project answers it, and is thrown away when it names another.
      const [asked, pulled] = await Promise.all([requestTypescriptProject(this.link, uri, options), requestPullDiagnostics(this.link, uri, options)]);
      if (sameFile(asked, expected)) return { diagnostics: pulled, project: asked };
      await this.open(path, options);
      project = await requestTypescriptProject(this.link, uri, options);
    } else {
      await this.open(path, options);
      project = await requestTypescriptProject(this.link, uri, options);
    }
    return { diagnostics: await requestPullDiagnostics(this.link, uri, options), project: project! };
  }

  /**
   * Lets go of the anchors; `close` (a `check`) also closes every document the run opened that no
   * other call holds now. A serving bridge keeps them open (the cap closes the least used): the
   * server keeps their projects loaded, and keeps each anchor's text as it was opened, so that the
   * shape of a later change of it can still be asked of the program its kept answers came from
   * (a closed file is read again from the disk, where the change already is).
   */
  async end(close: boolean): Promise<void> {
    this.scope.close();
    if (!close) return;
    for (const uri of this.opened) {
      const { documents } = this.link;
      if (!this.link.isClosed && documents.get(uri) && !documents.isHeld(uri)) await documents.close(uri).catch(() => {});
    }
  }

  /**
   * The anchor of `expected` once settled ("held" or "open"), or, when `path` became it now (opened
   * here), the project the server answers it from.
   */
  private async anchorOf(expected: string, path: string, uri: string, options: RequestOptions): Promise<"held" | "open" | { opened: string }> {
    let anchor = this.anchors.get(expected);
    while (anchor instanceof Promise) {
      await anchor;
      anchor = this.anchors.get(expected);
    }
    if (anchor !== undefined) return anchor;
    if (this.holdEarlierAnchor(expected)) return "held";
    let project = "";
    const opening = this.open(path, options).then(async () => {
      project = await requestTypescriptProject(this.link, uri, options);
      const held = sameFile(project, expected);
      this.anchors.set(expected, held ? "held" : "open");
      if (held) this.earlierAnchors().set(expected, uri);
    });
    this.anchors.set(expected, opening);
    // A failed anchor leaves the place to the next file of its config.
    await opening.catch((error: unknown) => {
      this.anchors.delete(expected);
      throw error;
    });
    return { opened: project };
  }

  private earlierAnchors(): Map<string, string> {
    let anchors = anchorsOf.get(this.link);
    if (!anchors) anchorsOf.set(this.link, (anchors = new Map()));
    return anchors;
  }

  /** Holds an earlier run's anchor of `config` for this run, when it is still open. */
  private holdEarlierAnchor(config: string): boolean {
    const uri = this.earlierAnchors().get(config);
    if (uri === undefined || !this.link.documents.get(uri)) return false;
    this.scope.defer(this.link.documents.hold(uri));
    this.anchors.set(config, "held");
    return true;
  }

  private async open(path: string, options: RequestOptions): Promise<void> {
    const uri = pathToFileURL(path).href;
    // Already open (another call's): held for the run all the same, so that the cap cannot close it.
    if (this.link.documents.get(uri)) return this.scope.defer(this.link.documents.hold(uri));
    this.opened.add(uri);
    await this.host.open(path, options, this.scope);
  }
}

function sameFile(a: string, b: string): boolean {
  return a === b || (a !== "" && b !== "" && resolve(a) === resolve(b));
}

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
