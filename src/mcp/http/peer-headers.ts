/** The header in which an attaching lspmcp names its pid, for `lspmcp status` and peer liveness. */
export const PEER_PID_HEADER = "lspmcp-peer-pid";
