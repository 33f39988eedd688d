// Who is on the other end of a connection to the shared server, as the kernel tells it (SO_PEERCRED on Linux):
// the socket's 0700 folder and the token file keep other users out, and the peer's uid is the third lock, for a
// folder whose modes were loosened by hand or a token file that leaked. Node has no getsockopt, so a short python3
// child is handed a duplicate of the connection's fd as its fd 3 and asks the kernel; it reads nothing from the socket. Where that cannot
// be asked (not Linux, no python3, a failure), the answer is "unknown" with why, and the other two locks decide.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type net from "node:net";

export type PeerCredentials =
  | { readonly known: true; readonly pid: number; readonly uid: number; readonly gid: number }
  | { readonly known: false; readonly why: string };

// SO_PEERCRED's struct ucred is three ints: pid, uid, gid. detach() leaves fd 3 open for the kernel to close at exit
// (closing a dup would not shut the connection, but there is no reason to touch it).
const askKernel = [
  "import socket, struct",
  "s = socket.socket(fileno=3)",
  "print(*struct.unpack('3i', s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)))",
  "s.detach()",
].join("\n");

/** The system's python3 first: a user's pyenv or conda shim on PATH takes a second or more to start. */
function python3(): string {
  return existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

/** Asks the kernel who connected `socket` (a connection accepted on a Unix socket). Never rejects. */
export function readPeerCredentials(socket: net.Socket, timeoutMs = 10_000): Promise<PeerCredentials> {
  if (process.platform !== "linux") {
    return Promise.resolve({ known: false, why: `the peer's uid is not read on ${process.platform}` });
  }
  // The fd number, not the Socket: handed a Socket, spawn stops reading it for good (it is the child's now).
  const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== "number" || fd < 0) return Promise.resolve({ known: false, why: "the connection has no fd" });
  return new Promise((resolve) => {
    let out = "";
    let settled = false;
    const settle = (answer: PeerCredentials) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    // -I -S: no user site, no site module: nothing from the user's environment runs with the connection in hand.
    const child = spawn(python3(), ["-I", "-S", "-c", askKernel], { stdio: ["ignore", "pipe", "pipe", fd] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle({ known: false, why: `python3 did not answer within ${timeoutMs} ms` });
    }, timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", (err) => settle({ known: false, why: `python3 could not run (${err.message})` }));
    child.on("close", (code) => {
      const numbers = /^(\d+) (\d+) (\d+)\s*$/.exec(out);
      if (code === 0 && numbers) {
        const [pid, uid, gid] = numbers.slice(1).map(Number) as [number, number, number];
        settle({ known: true, pid, uid, gid });
      } else {
        settle({ known: false, why: `python3 exited ${code}: ${out.trim().split("\n").pop() ?? ""}` });
      }
    });
  });
}
