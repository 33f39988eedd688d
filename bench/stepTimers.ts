// Timers around the addon calls of one llama.cpp context, for the step profile (stepProfile.ts). The addon object
// (`LlamaContext._ctx`) is wrapped in a Proxy whose methods are the real ones bound to the real object, so the
// native side sees what it always sees; each call's wall time lands in a bucket by name.

export interface StepSplit {
  /** steps measured (decode dispatches in the window) */
  readonly steps: number;
  /** mean wall ms of one step, dispatch to dispatch */
  readonly stepMs: number;
  /** mean ms inside `decodeBatch` (llama_decode: the graph, the logits copy out of the output tensor) */
  readonly decodeMs: number;
  /** mean ms from the end of `decodeBatch` until the step's last sampled token was back in JavaScript */
  readonly sampleSpanMs: number;
  /** mean of the summed wall ms of the step's sampling calls (several run at once on libuv's pool) */
  readonly sampleCallMs: number;
  /** sampling calls per step */
  readonly sampleCalls: number;
  /** mean CPU ms of this process (all threads) inside `decodeBatch` */
  readonly decodeCpuMs: number;
  /** mean CPU ms of this process from the end of `decodeBatch` to the step's last sample: the sampling work */
  readonly sampleCpuMs: number;
  /** the rest: JavaScript between the last sample of one step and the next dispatch (generators, barrier, batch) */
  readonly jsMs: number;
}

interface Step {
  dispatchAt: number;
  cpuAtDispatch: number;
  cpuAtDecodeEnd: number;
  cpuAtLastSample: number;
  decodeEnd: number;
  lastSampleEnd: number;
  sampleCallMs: number;
  sampleCalls: number;
}

/** This process's CPU time in ms, every thread. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The names of the addon's sampling entry points (stock `sampleToken`, the patch's batch sampler). */
const samplingCalls = new Set(["sampleToken", "sampleTokens"]);

export class StepTimers {
  private steps: Step[] = [];
  private recording = false;

  /** Wraps `context._ctx` (node-llama-cpp's addon context) in place. */
  attach(context: object): void {
    const holder = context as { _ctx: Record<string, unknown> };
    const target = holder._ctx;
    const timeDecode = (result: unknown) => this.timeDecode(result);
    const timeSample = (result: unknown) => this.timeSample(result);
    holder._ctx = new Proxy(target, {
      get(object, name) {
        const value = Reflect.get(object, name, object) as unknown;
        if (typeof value !== "function") return value;
        const bound = (value as (...args: unknown[]) => unknown).bind(object);
        if (name === "decodeBatch") return (...args: unknown[]) => timeDecode(bound(...args));
        if (typeof name === "string" && samplingCalls.has(name))
          return (...args: unknown[]) => timeSample(bound(...args));
        return bound;
      },
    });
  }

  /** Starts counting steps (after the prefill and first tokens, so only steady steps count). */
  start(): void {
    this.steps = [];
    this.recording = true;
  }

  stop(): StepSplit {
    this.recording = false;
    // A step's own length is from its dispatch to the next one; the last step has no next and is left out.
    const done = this.steps.slice(0, -1);
    const mean = (pick: (step: Step, i: number) => number): number =>
      done.length === 0 ? 0 : done.reduce((sum, step, i) => sum + pick(step, i), 0) / done.length;
    const next = (i: number): number => this.steps[i + 1].dispatchAt;
    const stepMs = mean((s, i) => next(i) - s.dispatchAt);
    const decodeMs = mean((s) => s.decodeEnd - s.dispatchAt);
    const sampleSpanMs = mean((s) => Math.max(0, s.lastSampleEnd - s.decodeEnd));
    return {
      decodeCpuMs: mean((s) => s.cpuAtDecodeEnd - s.cpuAtDispatch),
      sampleCpuMs: mean((s) => Math.max(0, s.cpuAtLastSample - s.cpuAtDecodeEnd)),
      steps: done.length,
      stepMs,
      decodeMs,
      sampleSpanMs,
      sampleCallMs: mean((s) => s.sampleCallMs),
      sampleCalls: mean((s) => s.sampleCalls),
      jsMs: stepMs - decodeMs - sampleSpanMs,
    };
  }

  private timeDecode(result: unknown): unknown {
    if (!this.recording) return result;
    const step: Step = {
      dispatchAt: performance.now(),
      cpuAtDispatch: cpuMs(),
      cpuAtDecodeEnd: 0,
      cpuAtLastSample: 0,
      decodeEnd: 0,
      lastSampleEnd: 0,
      sampleCallMs: 0,
      sampleCalls: 0,
    };
    this.steps.push(step);
    return Promise.resolve(result).then((value) => {
      step.decodeEnd = performance.now();
      step.lastSampleEnd = step.decodeEnd;
      step.cpuAtDecodeEnd = cpuMs();
      step.cpuAtLastSample = step.cpuAtDecodeEnd;
      return value;
    });
  }

  private timeSample(result: unknown): unknown {
    const step = this.steps.at(-1);
    if (!this.recording || step === undefined) return result;
    const startedAt = performance.now();
    step.sampleCalls++;
    return Promise.resolve(result).then((value) => {
      const now = performance.now();
      step.sampleCallMs += now - startedAt;
      if (now > step.lastSampleEnd) {
        step.lastSampleEnd = now;
        step.cpuAtLastSample = cpuMs();
      }
      return value;
    });
  }
}
