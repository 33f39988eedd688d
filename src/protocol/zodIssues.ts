// One way to say why a value failed its schema, used wherever a zod error becomes a message for a person or
// an agent: `path: message; path: message`, the whole value named by `whole` when an issue has no path.
import type { z } from "zod";

export function formatZodIssues(error: z.ZodError, whole = "(value)"): string {
  return error.issues.map((i) => `${i.path.map(String).join(".") || whole}: ${i.message}`).join("; ");
}
