/**
 * Statement batching for hot paths (bench/README.md, "Organizations": batched
 * statements): concurrent callers of one kind of statement share a round trip. While
 * fewer than `maxInFlight` batches are out, a call is sent at once (a lone request
 * waits for nothing); once that many are out, calls queue and leave together, up to
 * `maxBatchSize` at a time, the moment a batch comes back. Under load this turns fifty
 * round trips into two or three, and PostgreSQL parses, plans and commits once per batch.
 *
 * DataLoader batches per tick instead, which under a steady stream of HTTP requests
 * gives batches of one or two; the in-flight bound is what makes batches grow with load.
 */

export interface BatcherOptions<Input, Output> {
  /**
   * Runs one batch: one outcome per input, in order. An outcome that is an Error
   * rejects that caller only; a thrown error rejects every caller of the batch.
   */
  run: (inputs: readonly Input[]) => Promise<readonly (Output | Error)[]>;
  /** Batches out at once (default 2). */
  maxInFlight?: number;
  /** Inputs per batch (default 100). */
  maxBatchSize?: number;
}

interface Pending<Input, Output> {
  input: Input;
  resolve: (output: Output) => void;
  reject: (error: unknown) => void;
}

export class Batcher<Input, Output> {
  private readonly queue: Pending<Input, Output>[] = [];
  private inFlight = 0;
  private readonly run: BatcherOptions<Input, Output>["run"];
  private readonly maxInFlight: number;
  private readonly maxBatchSize: number;

  constructor(options: BatcherOptions<Input, Output>) {
    this.run = options.run;
    this.maxInFlight = options.maxInFlight ?? 2;
    this.maxBatchSize = options.maxBatchSize ?? 100;
  }

  load(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatchSize);
      this.inFlight += 1;
      this.send(batch).finally(() => {
        this.inFlight -= 1;
        this.dispatch();
      });
    }
  }

  private async send(batch: Pending<Input, Output>[]): Promise<void> {
    let outcomes: readonly (Output | Error)[];
    try {
      outcomes = await this.run(batch.map((pending) => pending.input));
      if (outcomes.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} answered ${outcomes.length} outcomes`);
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, index) => {
      const outcome = outcomes[index] as Output | Error;
      if (outcome instanceof Error) pending.reject(outcome);
      else pending.resolve(outcome);
    });
  }
}
