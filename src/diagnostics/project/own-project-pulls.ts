import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { CallScope } from "../../contract/call-scope.js";
import type { CallContext } from "../../calls/call-context.js";
import { openTarget } from "../../calls/open-target.js";
import type { ResolvedTarget } from "../../calls/resolve-target.js";
import { requestPullDiagnostics } from "../../lsp/features/pull-diagnostics.js";
import { requestTypescriptProject } from "../../lsp/features/typescript-project-info.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import { nearestConfig } from "./nearest-config.js";

/** A file's answer and the project it came from (its config file, "" for none). */
export interface OwnProjectAnswer {
  readonly diagnostics: Diagnostic[];
  readonly project: string;
}

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
 * project stays loaded). Every other file is asked which project would answer it; when that is its
 * nearest config's, the closed pull is its own project's answer, and otherwise it is opened too,
 * so that the server chooses as for an editor. The documents opened are closed when the run ends.
 */
export class OwnProjectPulls {
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
    private readonly client: LspClient,
    private readonly root: string,
    /** The run's context: documents opened here are held until `end`. */
    private readonly context: Omit<CallContext, "scope" | "deadline" | "signal">,
  ) {}

  /** `target`'s diagnostics from its own project, and that project. */
  async pull(target: ResolvedTarget, options: Pick<CallContext, "deadline" | "signal">): Promise<OwnProjectAnswer> {
    const path = target.file.absolutePath;
    const uri = pathToFileURL(path).href;
    const expected = nearestConfig(path, this.root, this.configs) ?? "";
    let anchor = this.anchors.get(expected);
    while (anchor instanceof Promise) {
      await anchor;
      anchor = this.anchors.get(expected);
    }
    let project: string;
    if (anchor === undefined) {
      const opening = this.open(target, options).then(async () => {
        project = await requestTypescriptProject(this.client, uri, options);
        this.anchors.set(expected, sameFile(project, expected) ? "held" : "open");
      });
      this.anchors.set(expected, opening);
      // A failed anchor leaves the place to the next file of its config.
      await opening.catch((error: unknown) => {
        this.anchors.delete(expected);
        throw error;
      });
    } else if (this.client.documents.get(uri)) {
      project = await requestTypescriptProject(this.client, uri, options);
    } else {
      project = anchor === "held" ? await requestTypescriptProject(this.client, uri, options) : "";
      if (anchor === "open" || !sameFile(project, expected)) {
        await this.open(target, options);
        project = await requestTypescriptProject(this.client, uri, options);
      }
    }
    return { diagnostics: await requestPullDiagnostics(this.client, uri, options), project: project! };
  }

  /** Lets go of the anchors and closes every document the run opened that no other call holds now. */
  async end(): Promise<void> {
    this.scope.close();
    for (const uri of this.opened) {
      const { documents } = this.client;
      if (!this.client.isClosed && documents.get(uri) && !documents.isHeld(uri)) await documents.close(uri).catch(() => {});
    }
  }

  private async open(target: ResolvedTarget, options: Pick<CallContext, "deadline" | "signal">): Promise<void> {
    const uri = pathToFileURL(target.file.absolutePath).href;
    // Already open (another call's): held for the run all the same, so that the cap cannot close it.
    if (this.client.documents.get(uri)) return this.scope.defer(this.client.documents.hold(uri));
    this.opened.add(uri);
    await openTarget({ ...this.context, deadline: options.deadline, signal: options.signal, scope: this.scope }, target, { refreshed: true });
  }
}

function sameFile(a: string, b: string): boolean {
  return a === b || (a !== "" && b !== "" && resolve(a) === resolve(b));
}
