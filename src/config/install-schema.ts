import { z } from "zod";

const executables = z
  .array(z.string().min(1))
  .min(1)
  .describe("Executables the server runs beside its command (looked up on PATH); a missing one leaves the profile out.");

/** The tool-cache sources name the registry and the artifact; the pin is the profile's `version`. */
const PackagedSchema = z
  .strictObject({
    from: z.literal("package"),
    package: z.string().min(1).describe("lspmcp's own npm dependency that brings the server (pinned in package.json)."),
    needs: executables.optional(),
  })
  .describe("Shipped inside lspmcp: nothing to install.");

const DebianSchema = z
  .strictObject({
    from: z.literal("debian"),
    packages: z.array(z.string().min(1)).min(1).describe("The Debian packages that bring it, named with apt-get install, never installed by lspmcp."),
    needs: executables.optional(),
  })
  .describe("A system package.");

const GoSchema = z
  .strictObject({
    from: z.literal("go"),
    module: z.string().min(1).describe("The module path for `go install MODULE@VERSION`, from the Go module proxy ($GOPROXY)."),
    needs: executables.optional(),
  })
  .describe("Built with the machine's Go into the tool cache.");

const PypiSchema = z
  .strictObject({
    from: z.literal("pypi"),
    package: z.string().min(1).describe("The PyPI project, installed into a virtualenv of its own ($PIP_INDEX_URL is honoured)."),
    needs: executables.optional(),
  })
  .describe("Installed from PyPI into the tool cache.");

const NpmSchema = z
  .strictObject({
    from: z.literal("npm"),
    package: z.string().min(1).describe("The npm package, installed with npm install --prefix into the tool cache."),
    needs: executables.optional(),
  })
  .describe("Installed from the npm registry into the tool cache, outside lspmcp's node_modules.");

const CargoSchema = z
  .strictObject({
    from: z.literal("cargo"),
    crate: z.string().min(1).describe("The crate for `cargo install --locked CRATE --version VERSION`, from crates.io."),
    with: z
      .array(
        z.strictObject({
          crate: z.string().min(1).describe("A crate whose executables the server runs or is checked against (bacon beside bacon-ls)."),
          version: z.string().min(1).describe("Its exact pin, installed with --locked as the server's own."),
        }),
      )
      .optional()
      .describe("Crates installed beside the server into the same folder, each at its own pin."),
    rust: z
      .string()
      .regex(/^\d+\.\d+$/, { message: 'a Rust version such as "1.95"' })
      .optional()
      .describe('The oldest Rust whose cargo builds the crates at their pins (their rust-version, or their edition\'s), e.g. "1.95".'),
    needs: executables.optional(),
  })
  .describe("Built with the machine's cargo into the tool cache.");

/**
 * A profile's `install` table: where its server comes from, so that `lspmcp servers` can say it
 * and `lspmcp servers install` can do it. One home for install logic: the pin stays `version`,
 * the folder in the tool cache is the first segment of the `{cache}/...` command.
 */
export const InstallSchema = z.discriminatedUnion("from", [PackagedSchema, DebianSchema, GoSchema, PypiSchema, NpmSchema, CargoSchema]);

/** A profile's `install` table as written. */
export type InstallSource = z.output<typeof InstallSchema>;

/** The sources that `lspmcp servers install` installs into the tool cache. */
export type CachedInstallSource = Extract<InstallSource, { from: "go" | "pypi" | "npm" | "cargo" }>;

/** Whether lspmcp installs this source itself (into the tool cache). */
export function isCachedSource(source: InstallSource): source is CachedInstallSource {
  return source.from === "go" || source.from === "pypi" || source.from === "npm" || source.from === "cargo";
}
