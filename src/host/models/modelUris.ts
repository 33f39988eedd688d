// The one way Swarmboard writes a model URI to the user, in every picker (node-llama-cpp's resolver reads it).
export const modelUriFormat = "hf:<user>/<repo>:<quant>";
export const modelUriPrompt = `A Hugging Face URI (${modelUriFormat}, e.g. hf:Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF:Q4_K_M) or an https URL of a .gguf file`;
