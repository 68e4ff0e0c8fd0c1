import type { Diagnostic } from "vscode-languageserver-protocol";
import type { CallScope } from "../contract/call-scope.js";
import type { Deadline } from "../contract/deadline.js";
import type { Logger } from "../contract/logger.js";
import type { RequestOptions } from "./request-options.js";

/**
 * What a server with a model of a whole project (TypeScript's program) does beyond the LSP, as
 * one lane its adapter may bring (`ServerAdapter.projectModel`): how one request answers a
 * document, how many files of a project are answered without each being opened, which kept
 * answers an edit reaches, and which toolchain really answers. The runner, the disk sync and the
 * sessions ask this interface and never which server has it; a server without one is answered
 * file by file through the settle rule.
 */
export interface ProjectModel {
  /**
   * Whether one pull answers a file's diagnostics completely, opened or not, so that a whole
   * project is answered without a file opened, and the bridge keeps each file's answer until an
   * edit reaches it (TypeScript 7).
   */
  readonly answersUnopened: boolean;
  /** An open document's diagnostics, answered completely by one request: no settle wait. */
  documentDiagnostics(uri: string, options: RequestOptions): Promise<Diagnostic[]>;
  /**
   * Waits until navigation for the open document `uri` is answered from its whole project, when
   * the server has its own signal of that (tsserver); null: its diagnostics have settled.
   */
  readonly awaitProjectLoaded: ((uri: string, options: RequestOptions) => Promise<void>) | null;
  /** Whole-project answers of many files without each being opened (the server's files are watched by the bridge). */
  projectPulls(host: ProjectHost): ProjectPulls;
  /** What an edit on disk, or a preview's, reaches of the answers the bridge keeps. */
  changeReach(kept: KeptTexts, options: RequestOptions): ChangeReach;
  /**
   * After `initialize`: the version of the toolchain that really answers, when the server runs
   * one it was given (typescript-language-server's tsserver); throws `ServerVersionMismatch`
   * unless it is `toolchain`'s. Null: the server's own version is all there is to check.
   */
  readonly confirmToolchain: ((toolchain: ToolchainReport, deadline: Deadline) => Promise<string>) | null;
}

/**
 * The toolchain that answers a session (the program that checks the project: TypeScript's
 * compiler), as its language describes it for `session_status`, `check`'s report and stderr.
 */
export interface ToolchainReport {
  /** The server entry's name in errors about it. */
  readonly name: string;
  /** What a report says before the version ("TypeScript" in "TypeScript 5.9.3"). */
  readonly title: string;
  readonly version: string;
  /** Where it comes from: the workspace's own installation, or the pinned package. */
  readonly source: "workspace" | "pinned";
  /** The toolchain's package folder. */
  readonly path: string;
}

/** One file's diagnostics from the server's program, and the project that answered where the server says. */
export interface ProjectAnswer {
  readonly diagnostics: readonly Diagnostic[];
  /** The config file of the project that answered, "" for none; absent where the server does not say. */
  readonly project?: string;
}

/** What a whole-project run lends an adapter's pulls: opening a file of the run as any call opens it. */
export interface ProjectHost {
  /** The workspace root: no project config is looked for above it. */
  readonly root: string;
  /** A fresh deadline for one file's work (`request_timeout_ms` from now). */
  fileDeadline(): Deadline;
  /** Where the pulls say, at debug, why they took a slower way. */
  readonly logger: Logger;
  /**
   * Opens `path` (absolute) from the disk, or the preview's text, as a call opens a file, and
   * holds it open on `scope`: the cap never closes it while the scope lasts.
   */
  open(path: string, options: RequestOptions, scope: CallScope): Promise<void>;
}

/**
 * The pulls of one whole-project run: files answered from their own project without each being
 * opened (`ProjectModel.projectPulls`).
 */
export interface ProjectPulls {
  /** Of `paths` (absolute), those that `pull` answers; the rest are answered file by file. */
  place(paths: readonly string[], options: RequestOptions): Promise<ReadonlySet<string>>;
  /** A placed file's diagnostics from its own project (`uri`: its file URI, made once by the caller). */
  pull(path: string, uri: string, options: RequestOptions): Promise<ProjectAnswer>;
  /** Ends the run: lets go of what it held; `close` (a `check`): also closes the documents it opened to load projects. */
  end(close: boolean): Promise<void>;
}

/** The texts of the files whose answers the bridge keeps, as the server's program last took them in. */
export interface KeptTexts {
  /** The text `path`'s kept answer was given with, when there is one. */
  keptText(path: string): string | undefined;
  /**
   * What the queries noted of a file when its last change was told, theirs alone to read; kept
   * with the answers (a preview sets both aside together).
   */
  readonly notes: Map<string, unknown>;
}

/**
 * Which kept answers edits of files' texts reach, asked of the server's program itself: before
 * the server hears of the edits, and once it holds them.
 */
export interface ChangeReach {
  /**
   * Before the server hears of the edits of `paths` (absolute): what tells, once it holds them,
   * which files they reach; null when they may reach every file (a file whose reach cannot be
   * told, a server that cannot say).
   */
  before(paths: readonly string[]): Promise<ReachAfter | null>;
}

/**
 * Once the server holds the edits: the files they reach (the edited ones among them), or null for
 * every file. `shown` gives what the server holds of an edited file when that is not the disk's
 * text (a preview's).
 */
export type ReachAfter = (shown?: (path: string) => string | undefined) => Promise<Set<string> | null>;
