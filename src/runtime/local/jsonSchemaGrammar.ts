// Grammars from JSON schemas (for example `z.toJSONSchema(toolSchema)`), compiled once per schema and model:
// a constrained agent can only produce JSON that fits. The output is still validated by whoever parses it.
import type { GbnfJsonSchema, LlamaGrammar } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "../loadModel";
import { SwarmRuntimeError } from "../runtimeErrors";

const compiled = new WeakMap<SwarmModel, Map<string, Promise<LlamaGrammar>>>();

/** Keys JSON-schema generators add that describe the document rather than the value. */
function withoutDocumentKeys(schema: object): object {
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  return rest;
}

export function grammarForJsonSchema(model: SwarmModel, schema: object): Promise<LlamaGrammar> {
  let cache = compiled.get(model);
  if (cache === undefined) {
    cache = new Map();
    compiled.set(model, cache);
  }
  const key = JSON.stringify(schema);
  let grammar = cache.get(key);
  if (grammar === undefined) {
    const jsonSchema = withoutDocumentKeys(schema) as GbnfJsonSchema;
    grammar = model.llama.createGrammarForJsonSchema<GbnfJsonSchema>(jsonSchema).catch((cause: unknown) => {
      cache.delete(key);
      throw new SwarmRuntimeError(
        "invalid-request",
        `This JSON schema cannot be turned into a grammar: ${(cause as Error).message}. Simplify the schema.`,
      );
    });
    cache.set(key, grammar);
  }
  return grammar;
}

const compiledGbnf = new WeakMap<SwarmModel, Map<string, Promise<LlamaGrammar>>>();

/** A grammar from GBNF text (llama.cpp's grammar format), compiled once per text and model. */
export function grammarForGbnf(model: SwarmModel, gbnf: string): Promise<LlamaGrammar> {
  let cache = compiledGbnf.get(model);
  if (cache === undefined) {
    cache = new Map();
    compiledGbnf.set(model, cache);
  }
  let grammar = cache.get(gbnf);
  if (grammar === undefined) {
    grammar = model.llama.createGrammar({ grammar: gbnf }).catch((cause: unknown) => {
      cache.delete(gbnf);
      throw new SwarmRuntimeError(
        "invalid-request",
        `This GBNF grammar does not compile: ${(cause as Error).message}.`,
      );
    });
    cache.set(gbnf, grammar);
  }
  return grammar;
}
