// Where the model's layers and the KV cache live, read from the loaded runtime, and the free memory there: the
// budget shows the first, the pool is sized from the second. llama.cpp keeps an offloaded layer's KV cells on the
// GPU with it (offload_kqv, node-llama-cpp's default), so the cache lives where the layers do.
import type { Llama, LlamaModel } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { KvPlacement } from "../protocol/runtime";

export interface KvMemory {
  readonly where: "RAM" | "VRAM";
  readonly freeBytes: number;
}

export async function readPlacement(llama: Llama, model: LlamaModel): Promise<KvPlacement> {
  const backend = llama.gpu === false ? "cpu" : llama.gpu;
  const devices = backend === "cpu" ? [] : await llama.getGpuDeviceNames().catch(() => []);
  const modelLayers = Math.max(1, model.fileInsights.totalLayers);
  const gpuLayers = Math.min(model.gpuLayers, modelLayers);
  const kvOn = gpuLayers === 0 ? "ram" : gpuLayers >= modelLayers ? "vram" : "split";
  if (backend === "cpu") return { backend, devices, gpuLayers, modelLayers, kvOn };
  const vram = await llama.getVramState();
  return { backend, devices, gpuLayers, modelLayers, kvOn, vramUsedBytes: vram.used, vramTotalBytes: vram.total };
}

/** Free memory where new KV cells would be allocated (with split layers, the tighter of the two). */
export async function freeKvMemory(llama: Llama, placement: KvPlacement): Promise<KvMemory> {
  const ram: KvMemory = { where: "RAM", freeBytes: (await llama.getRamState()).free };
  if (placement.kvOn === "ram") return ram;
  const vram: KvMemory = { where: "VRAM", freeBytes: (await llama.getVramState()).free };
  return placement.kvOn === "vram" || vram.freeBytes < ram.freeBytes ? vram : ram;
}
