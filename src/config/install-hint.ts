import type { InstallSource } from "./install-schema.js";

/**
 * The one command that installs a profile's server, as the user would type it: `lspmcp servers
 * install NAME` for the tool cache's servers (it honours XDG_CACHE_HOME, so no path is spelled
 * out), `apt-get install ...` for Debian's, and for lspmcp's own dependencies a reinstall.
 */
export function installHint(name: string, install: InstallSource | undefined, command: string | undefined): string {
  if (install === undefined) return `install ${command ?? name} so that the profile's command resolves`;
  switch (install.from) {
    case "debian":
      return `apt-get install ${install.packages.join(" ")}`;
    case "package":
      return `reinstall lspmcp (its dependency ${install.package} is missing)`;
    default:
      return `lspmcp servers install ${name}`;
  }
}
