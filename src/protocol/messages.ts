// Messages between agents: the swarm channel and direct messages, as delivered to an agent.
// On the board a message is a MESSAGE entry with `to`; this is the delivered form with its order number.
import { z } from "zod";
import { messageTargetSchema } from "./board";

export const deliveredMessageSchema = z.object({
  /** The MESSAGE entry's id. */
  id: z.string().min(1),
  from: z.string().min(1),
  to: messageTargetSchema,
  text: z.string(),
  time: z.number().int().nonnegative(),
  /** Order of posting across the swarm (1, 2, ...): delivery follows it within each channel. */
  seq: z.number().int().positive(),
});
export type DeliveredMessage = z.infer<typeof deliveredMessageSchema>;

/** The two moments when an agent receives messages. */
export const deliveryPointSchema = z.enum(["iteration-start", "tool-call-returned"]);
export type DeliveryPoint = z.infer<typeof deliveryPointSchema>;

/** The author of a message a person sends from VS Code or the CLI (agents read it as `from: "user"`). */
export const userAuthor = "user";
