import { z } from "zod";

/** A marker: a file name ("Cargo.toml"), or a file name and a TOML table it holds ("pyproject.toml [tool.ruff]"). */
const MARKER_PATTERN = /^[^/\\\s[\]]+( \[[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\])?$/;

const markers = (description: string) =>
  z
    .array(z.string().regex(MARKER_PATTERN, { message: 'a marker is a file name, or a file name and a table: "pyproject.toml [tool.ruff]"' }))
    .min(1)
    .describe(description);

/**
 * A profile's `[default]` table: what the embedded default (no bridge.toml) needs to know of the
 * server beyond the files its `languages` claim. Every key is optional; a profile without the
 * table is detected by its languages alone, after the preferred profiles and before the
 * alternatives, and ordered among its equals by name.
 */
export const EmbeddedDefaultSchema = z
  .strictObject({
    markers: markers(
      "Files whose presence, anywhere in the repository, shows the profile's language before a file of it exists (tsconfig.json, Cargo.toml).",
    ).optional(),
    configured_by: markers(
      "Files, or tables of a shared file, that configure this very server (ruff.toml, pyproject.toml [tool.ruff]): like markers, and where one occurs the default says so as the reason it chose the server.",
    ).optional(),
    preference: z
      .int()
      .optional()
      .describe(
        "Profiles take the extensions they claim in this order, highest first (0 when absent), equals by name; a profile joins only for something no earlier one serves. Negative for an alternative to another profile of the same language.",
      ),
    yields_to: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        "Profiles that answer in this one's place where the project configures them (their configured_by occurs) and they are installed: the first such, in this order. A profile named here is planned only where it is configured.",
      ),
    role: z
      .string()
      .min(1)
      .optional()
      .describe('What the profile is, in the reason the default gives for choosing it when none of yields_to does: "ROLE by default (...)".'),
    never: z.literal(true).optional().describe("The default never plans the profile; only a bridge.toml can serve it."),
  })
  .refine((table) => (table.yields_to === undefined) === (table.role === undefined), {
    message: "`yields_to` and `role` go together: the role is how the default says why this profile answers when none of them does",
    path: ["role"],
  })
  .describe("How the embedded default detects and orders the profile.");
