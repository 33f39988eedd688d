// The host's log: the "Swarmboard" output channel, plus the last lines in memory so that the
// in-host tests (and a future "copy diagnostics" command) can read what was logged.
import * as vscode from "vscode";

export type LogLevel = "debug" | "info" | "warn" | "error";

const keptLines = 500;

export class HostLog implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly lines: string[] = [];
  private readonly emitter = new vscode.EventEmitter<string>();
  /** Fires with each line as it is logged. */
  readonly onLine = this.emitter.event;

  constructor(name = "Swarmboard") {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  log(level: LogLevel, message: string): void {
    switch (level) {
      case "debug":
        this.channel.debug(message);
        break;
      case "info":
        this.channel.info(message);
        break;
      case "warn":
        this.channel.warn(message);
        break;
      case "error":
        this.channel.error(message);
        break;
    }
    const line = `[${level}] ${message}`;
    this.lines.push(line);
    if (this.lines.length > keptLines) this.lines.splice(0, this.lines.length - keptLines);
    this.emitter.fire(line);
  }

  info(message: string): void {
    this.log("info", message);
  }

  warn(message: string): void {
    this.log("warn", message);
  }

  error(message: string): void {
    this.log("error", message);
  }

  /** The most recent lines, oldest first, each as `[level] message`. */
  recentLines(): readonly string[] {
    return [...this.lines];
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.emitter.dispose();
    this.channel.dispose();
  }
}
