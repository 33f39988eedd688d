// The growing text a generation's stop check and stream read (src/runtime/growingSpelling.ts) must be exactly
// the text of spelling every token again, after every token, for real tokenizers: SentencePiece (stories260K,
// whose first token loses its leading space) and Qwen's byte-level BPE (where a character's bytes can be split
// over tokens, and random ids make invalid UTF-8 that decodes to U+FFFD).
import assert from "node:assert/strict";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "../../src/runtime/loadModel";
import { GrowingSpelling } from "../../src/runtime/growingSpelling";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../fixtures/gguf/familyModels";
import { loadStoriesModel, storyTrunk, testRuntime } from "./runtimeTestModels";

const mixedText =
  "Le café coûte 3 €; 猫は 🐈‍⬛ と言った. Ünïcødé, spaces  and\ttabs,\nnew lines, and 中文字符 again: 🧪🧪 done. ";

/** A deterministic stream of token ids below `limit` (a tiny LCG: the same ids on every run). */
function pseudoRandomTokens(count: number, limit: number): Token[] {
  let state = 12345;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return (state % limit) as Token;
  });
}

function assertGrowsLikeFullSpelling(spell: (tokens: readonly Token[]) => string, tokens: readonly Token[]) {
  const growing = new GrowingSpelling(spell);
  for (let n = 1; n <= tokens.length; n++) {
    const expected = spell(tokens.slice(0, n));
    assert.equal(growing.text(tokens.slice(0, n)), expected, `after ${n} of ${tokens.length} tokens`);
  }
}

function spellersOf(model: SwarmModel) {
  return {
    plain: (tokens: readonly Token[]) => model.detokenize(tokens),
    special: (tokens: readonly Token[]) => model.model.detokenize(tokens, true),
  };
}

describe("growing spelling equals spelling every token again", () => {
  it("stories260K (SentencePiece): prose, mixed scripts, and ids in vocabulary order", async () => {
    const model = await loadStoriesModel();
    const { plain, special } = spellersOf(model);
    const prose = model.tokenize(`${storyTrunk} ${storyTrunk} ${mixedText}`) as Token[];
    assert.ok(prose.length > 100, "long enough to fold the kept text several times");
    assertGrowsLikeFullSpelling(plain, prose);
    assertGrowsLikeFullSpelling(special, prose);
    assertGrowsLikeFullSpelling(plain, pseudoRandomTokens(300, model.model.tokens.eos ?? 512));
  });

  describe("Qwen2.5 family model (byte-level BPE)", () => {
    let model: SwarmModel;
    before(async function () {
      this.timeout(600_000);
      const family = modelFamilies.find((f) => f.id === "qwen2.5")!;
      model = await testRuntime.loadModel({
        modelPath: familyModelFile(await ensureFamilyModels([family]), family),
        threads: 1,
      });
    });
    after(async () => {
      await model.dispose();
    });

    it("mixed scripts and emoji split over tokens", () => {
      const { plain, special } = spellersOf(model);
      const tokens = model.tokenize(mixedText.repeat(4)) as Token[];
      assert.ok(tokens.length > 100, "long enough to fold the kept text several times");
      assertGrowsLikeFullSpelling(plain, tokens);
      assertGrowsLikeFullSpelling(special, tokens);
    });

    it("starts over when earlier tokens are rewritten (a re-tokenized stream)", () => {
      const { plain } = spellersOf(model);
      const first = model.tokenize(mixedText.repeat(3)) as Token[];
      const growing = new GrowingSpelling(plain);
      for (let n = 1; n <= first.length; n++) growing.text(first.slice(0, n));
      const rewritten = [...first.slice(0, 10), ...(model.tokenize(" something else entirely. ".repeat(8)) as Token[])];
      assert.equal(growing.text(rewritten), plain(rewritten));
    });

    it("random ids, invalid UTF-8 included", () => {
      const { plain, special } = spellersOf(model);
      // Ids up to the first special token: byte tokens among them cut characters anywhere.
      const tokens = pseudoRandomTokens(400, 151_643);
      assertGrowsLikeFullSpelling(plain, tokens);
      assertGrowsLikeFullSpelling(special, tokens);
    });
  });
});
