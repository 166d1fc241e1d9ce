import { describe, expect, it } from "vitest";
import { Batcher } from "../../server/db/batcher.js";

/** A batch runner whose batches the test answers by hand. */
function controlled() {
  const batches: {
    inputs: number[];
    answer: (outcomes: (number | Error)[]) => void;
    fail: (error: Error) => void;
  }[] = [];
  const run = (inputs: readonly number[]) =>
    new Promise<readonly (number | Error)[]>((resolve, reject) => {
      batches.push({ inputs: [...inputs], answer: resolve, fail: reject });
    });
  return { batches, run };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("Batcher", () => {
  it("sends a lone call at once, on its own", async () => {
    const { batches, run } = controlled();
    const batcher = new Batcher({ run });
    const answer = batcher.load(7);
    expect(batches.map((batch) => batch.inputs)).toEqual([[7]]);
    batches[0]?.answer([70]);
    await expect(answer).resolves.toBe(70);
  });

  it("queues calls while maxInFlight batches are out and sends them together when one returns", async () => {
    const { batches, run } = controlled();
    const batcher = new Batcher({ run, maxInFlight: 2 });
    const answers = [1, 2, 3, 4, 5].map((n) => batcher.load(n));
    expect(batches.map((batch) => batch.inputs)).toEqual([[1], [2]]);
    batches[1]?.answer([20]);
    await settle();
    expect(batches.map((batch) => batch.inputs)).toEqual([[1], [2], [3, 4, 5]]);
    batches[0]?.answer([10]);
    batches[2]?.answer([30, 40, 50]);
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it("sends at most maxBatchSize calls per batch", async () => {
    const { batches, run } = controlled();
    const batcher = new Batcher({ run, maxInFlight: 1, maxBatchSize: 2 });
    const answers = [1, 2, 3, 4, 5, 6].map((n) => batcher.load(n));
    batches[0]?.answer([1]);
    await settle();
    expect(batches.map((batch) => batch.inputs)).toEqual([[1], [2, 3]]);
    batches[1]?.answer([2, 3]);
    await settle();
    batches[2]?.answer([4, 5]);
    await settle();
    batches[3]?.answer([6]);
    expect(batches.map((batch) => batch.inputs)).toEqual([[1], [2, 3], [4, 5], [6]]);
    await expect(Promise.all(answers)).resolves.toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("rejects only the caller whose outcome is an Error", async () => {
    const { batches, run } = controlled();
    const batcher = new Batcher({ run, maxInFlight: 1 });
    const first = batcher.load(1);
    const [second, third] = [batcher.load(2), batcher.load(3)];
    batches[0]?.answer([1]);
    await settle();
    batches[1]?.answer([new Error("two is refused"), 3]);
    await expect(first).resolves.toBe(1);
    await expect(second).rejects.toThrow("two is refused");
    await expect(third).resolves.toBe(3);
  });

  it("rejects every caller of a batch that fails, and goes on with the next batch", async () => {
    const { batches, run } = controlled();
    const batcher = new Batcher({ run, maxInFlight: 1 });
    const first = batcher.load(1);
    const queued = [batcher.load(2), batcher.load(3)];
    batches[0]?.fail(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await settle();
    expect(batches[1]?.inputs).toEqual([2, 3]);
    batches[1]?.answer([2, 3]);
    await expect(Promise.all(queued)).resolves.toEqual([2, 3]);
  });

  it("rejects a batch answered with the wrong number of outcomes", async () => {
    const { batches, run } = controlled();
    const batcher = new Batcher({ run, maxInFlight: 1 });
    const first = batcher.load(1);
    batches[0]?.answer([1, 2]);
    await expect(first).rejects.toThrow("a batch of 1 answered 2 outcomes");
  });

  it("survives a runner that throws before returning a promise", async () => {
    let calls = 0;
    const batcher = new Batcher<number, number>({
      run: (inputs) => {
        calls += 1;
        if (calls === 1) throw new Error("synchronous failure");
        return Promise.resolve(inputs.map((n) => n * 2));
      },
    });
    await expect(batcher.load(1)).rejects.toThrow("synchronous failure");
    await expect(batcher.load(2)).resolves.toBe(4);
  });
});
