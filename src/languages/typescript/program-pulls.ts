import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Deadline } from "../../contract/deadline.js";
import { errorText } from "../../contract/errors.js";
import type { ProjectAnswer, ProjectHost, ProjectPulls } from "../../lsp/project-model.js";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import { type ApiDiagnostic, pullForm } from "./api-diagnostics.js";
import { apiSessionOf } from "./api-session.js";
import type { SocketPeer } from "../../lsp/socket-peer.js";
import { type OwnProjectPulls, requestTypescriptProject } from "./own-project-pulls.js";

/**
 * Set to "1", every file goes by its own pull (`OwnProjectPulls`), never through the API session:
 * for the tests that compare the two lanes. Not a user option.
 */
const PER_FILE_ENV = "LSPMCP_TYPESCRIPT_PER_FILE";

/** The API's `updateSnapshot` answer: the snapshot, and each project it holds. */
interface Snapshot {
  readonly snapshot: number;
  readonly projects: readonly {
    readonly id: string;
    readonly configFileName: string;
    readonly rootFiles: readonly string[];
    readonly compilerOptions?: Readonly<Record<string, unknown>>;
  }[];
}

/**
 * The all-files requests whose answers make up a file's pull, in the pull's order: syntactic,
 * semantic, suggestion, and declaration diagnostics when the project emits declarations.
 */
const DIAGNOSTIC_REQUESTS = ["getSyntacticDiagnostics", "getSemanticDiagnostics", "getSuggestionDiagnostics"] as const;
const DECLARATION_REQUEST = "getDeclarationDiagnostics";

/**
 * TypeScript 7's pulls of a run's closed files, by whole projects where it can: each project that
 * the run asks most of (at least `MIN_FILES`, and half its root files) is answered through the
 * server's API session in one message per kind of diagnostic, instead of a pull and a project
 * question per file. A file takes that answer only under its own project: its nearest config's
 * project, which holds it as a root file, confirmed by the server for the project's anchor (the
 * document `OwnProjectPulls` opens and holds loaded, as for the per-file lane). Every other file
 * (outside every config, in an inferred project, a referenced project's source, a file open in the
 * session, one with a style check the pull's preference may turn into a warning) and every file of
 * a run whose API question fails goes by its own pull, as before.
 */
export class ProgramPulls implements ProjectPulls {
  private readonly answers = new Map<string, ProjectAnswer>();

  constructor(
    private readonly link: ServerLink,
    private readonly host: ProjectHost,
    private readonly own: OwnProjectPulls,
  ) {}

  async place(paths: readonly string[], options: RequestOptions): Promise<ReadonlySet<string>> {
    const placed = await this.own.place(paths);
    if (process.env[PER_FILE_ENV] === "1") return placed;
    // Its own deadline: the whole programs' answers are one piece of work, not any file's.
    const asked = { deadline: this.host.fileDeadline(), signal: options.signal };
    try {
      await this.answerWholeProjects(paths, asked);
    } catch (error) {
      this.answers.clear();
      if (options.signal?.aborted) throw error;
      this.host.logger.debug("TypeScript API session not used; every file is pulled", { reason: errorText(error) });
    }
    return placed;
  }

  async pull(path: string, uri: string, options: RequestOptions): Promise<ProjectAnswer> {
    const answer = this.answers.get(path);
    this.answers.delete(path);
    // A document opened since is answered from its text, by its pull.
    if (answer && !this.link.documents.get(uri)) return answer;
    return this.own.pull(path, uri, options);
  }

  end(close: boolean): Promise<void> {
    this.answers.clear();
    return this.own.end(close);
  }

  private async answerWholeProjects(paths: readonly string[], options: RequestOptions): Promise<void> {
    const byConfig = new Map<string, string[]>();
    for (const path of paths) {
      if (this.link.documents.get(pathToFileURL(path).href)) continue;
      const config = this.own.ownConfig(path);
      if (config === null) continue;
      const files = byConfig.get(config);
      if (files) files.push(path);
      else byConfig.set(config, [path]);
    }
    const candidates = [...byConfig].filter(([, files]) => files.length >= MIN_FILES);
    if (candidates.length === 0) return;
    // Each project's anchor is opened first, as the per-file lane opens it: the project stays
    // loaded while it is open (a later change's reach is asked of it), and the server says the
    // anchor's project is the config's own.
    const held = await Promise.all(candidates.map(([, files]) => this.own.holdsOwnProject(files[0]!, options)));
    const projects = candidates.filter((_, index) => held[index]);
    if (projects.length === 0) return;
    // The API session is a connection of its own: what the LSP connection told the server before
    // (the changes on disk) is in the server's program only once a request sent after it there
    // is answered.
    await requestTypescriptProject(this.link, pathToFileURL(projects[0]![1][0]!).href, options);
    const session = await apiSessionOf(this.link, options);
    if (session === null) throw new Error("the server has no API session");
    const snapshot = await session.request<Snapshot>("updateSnapshot", { openProjects: projects.map(([config]) => config) }, options);
    try {
      await Promise.all(projects.map(([config, files]) => this.answerProject(session, snapshot, config, files, options)));
    } finally {
      // Unanswered, the snapshot is the server's to drop with the session.
      session.request("release", { snapshot: snapshot.snapshot }, { deadline: Deadline.in(options.deadline.remainingMs()) }).catch(() => {});
    }
  }

  /** The answers of `files` (whose nearest config is `config`) that the snapshot's project of `config` gives as its own. */
  private async answerProject(session: SocketPeer, snapshot: Snapshot, config: string, files: readonly string[], options: RequestOptions): Promise<void> {
    const project = snapshot.projects.find((candidate) => sameFile(candidate.configFileName, config));
    if (!project) return;
    const roots = new Set(project.rootFiles);
    const own = files.filter((file) => roots.has(file) && !this.link.documents.get(pathToFileURL(file).href));
    if (own.length < MIN_FILES || own.length * 2 < roots.size) return;
    const emitsDeclarations = project.compilerOptions?.declaration === true || project.compilerOptions?.composite === true;
    const requests = emitsDeclarations ? [...DIAGNOSTIC_REQUESTS, DECLARATION_REQUEST] : DIAGNOSTIC_REQUESTS;
    const lists = await Promise.all(
      requests.map((method) => session.request<ApiDiagnostic[] | null>(method, { snapshot: snapshot.snapshot, project: project.id }, options)),
    );
    const byFile = new Map<string, ApiDiagnostic[]>();
    for (const list of lists) {
      for (const diagnostic of list ?? []) {
        const found = byFile.get(diagnostic.fileName);
        if (found) found.push(diagnostic);
        else byFile.set(diagnostic.fileName, [diagnostic]);
      }
    }
    const negotiated = this.link.capabilities.positionEncoding;
    const encoding = negotiated === "utf-8" || negotiated === "utf-32" ? negotiated : "utf-16";
    let answered = 0;
    await Promise.all(
      own.map(async (file) => {
        // The text the server read: the disk's, the server having been told of every change on it.
        const diagnostics = pullForm(await readFile(file, "utf8"), byFile.get(file) ?? [], encoding);
        if (diagnostics === null) return;
        this.answers.set(file, { diagnostics, project: project.configFileName });
        answered++;
      }),
    );
    this.host.logger.debug("TypeScript API session answered a whole project", { project: project.configFileName, files: answered, of: files.length });
  }
}

/** The fewest files of one project a run asks before the project is answered whole. */
const MIN_FILES = 2;

function sameFile(a: string, b: string): boolean {
  return a === b || resolve(a) === resolve(b);
}
