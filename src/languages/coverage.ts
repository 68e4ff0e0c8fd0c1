/** Why a server cannot check a file of the workspace (its path relative to the root), or null when it can. */
export type UncheckedFiles = (relativePath: string) => string | null;

/** How an adapter tells, before its server starts, the files that server cannot answer. */
export type AdapterCoverage = (workspaceRoot: string) => Promise<UncheckedFiles | null>;
