// The product's output calls the toolchain that answers a session its "compiler": the fields
// `compiler_source` and `compiler_path` of `session_status` (and `lspmcp status`), and `compiler`
// in each run of `check`'s JSON report. Users' pages and the clients that read these fields fix
// the names, so they are kept here, once, while the code says "toolchain".

/** `session_status`'s field for where the answering toolchain comes from (`workspace` or `pinned`). */
export const TOOLCHAIN_SOURCE_FIELD = "compiler_source";
/** `session_status`'s field for the answering toolchain's package folder, or `pinned`. */
export const TOOLCHAIN_PATH_FIELD = "compiler_path";
/** The field of a run of `check`'s JSON report that describes the toolchain that answered it. */
export const RUN_TOOLCHAIN_FIELD = "compiler";
