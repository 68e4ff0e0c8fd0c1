import type { RootMarkers } from "../../config/project-roots.js";

/** The files that make a folder a TypeScript project, in the order tsserver prefers them. */
export const TYPESCRIPT_CONFIG_FILES = ["tsconfig.json", "jsconfig.json"] as const;

/** TypeScript's project roots: the server finds each file's project itself, so these are said, not told. */
export const TYPESCRIPT_ROOT_MARKERS: RootMarkers = { files: TYPESCRIPT_CONFIG_FILES, tables: [], outputFolders: [] };
