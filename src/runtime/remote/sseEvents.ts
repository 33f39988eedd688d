// Server-sent events as an engine streams them: lines of `data: <json>` separated by blank lines. Yields each
// event's data (several data lines joined by newlines), skipping comments, pings and the OpenAI `[DONE]` mark.

export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffered.split(/\r?\n/);
      buffered = done ? "" : (lines.pop() ?? "");
      for (const line of lines) {
        if (line === "") {
          if (data.length > 0 && data.join("\n") !== "[DONE]") yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (done) break;
    }
    if (data.length > 0 && data.join("\n") !== "[DONE]") yield data.join("\n");
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}
