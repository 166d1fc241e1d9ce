/**
 * `authd password calibrate`: measures argon2id on this host and suggests parameters
 * (Kratos `hashers argon2 calibrate`). It only prints: authd's parameters are fixed in
 * server/crypto/password.ts (ARGON2_PARAMETERS, OWASP's minimum m=19456 KiB, t=2, p=1).
 */
import { performance } from "node:perf_hooks";
import { Algorithm, hash as argon2Hash } from "@node-rs/argon2";
import { type Command, InvalidArgumentError } from "commander";
import { ARGON2_PARAMETERS } from "../../server/crypto/password.js";
import { emit, formatTable, type GlobalOptions, note, outputFormat } from "../output.js";

const OWASP_MIN_MEMORY_KIB = 19456;
const MIN_TIME_COST = 2;
const MAX_TIME_COST = 20;
const SAMPLES = 3;
/** Stop trying further memory sizes once this much time has gone (a few seconds). */
const BUDGET_MS = 3000;

export interface Measured {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  ms: number;
}

function parsePositiveInt(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1) {
    throw new InvalidArgumentError("expected a whole number >= 1");
  }
  return number;
}

/** `64MiB`, `1GiB`, `65536KiB` or plain KiB, as KiB; at least OWASP's 19456 KiB. */
export function parseMemory(value: string): number {
  const match = /^(\d+)\s*(KiB|MiB|GiB)?$/i.exec(value.trim());
  const units: Record<string, number> = { kib: 1, mib: 1024, gib: 1024 * 1024 };
  const kib = match
    ? Number(match[1]) * (units[(match[2] ?? "kib").toLowerCase()] ?? 1)
    : Number.NaN;
  if (!Number.isSafeInteger(kib)) {
    throw new InvalidArgumentError("expected a size like 64MiB, 1GiB or 65536KiB");
  }
  if (kib < OWASP_MIN_MEMORY_KIB) {
    throw new InvalidArgumentError(
      `must be at least ${OWASP_MIN_MEMORY_KIB}KiB (19MiB, OWASP's minimum)`,
    );
  }
  if (kib > 4 * 1024 * 1024) throw new InvalidArgumentError("must be at most 4GiB");
  return kib;
}

async function timeOnce(memoryCost: number, timeCost: number): Promise<number> {
  const started = performance.now();
  await argon2Hash("authd-calibration-password", {
    algorithm: Algorithm.Argon2id,
    memoryCost,
    timeCost,
    parallelism: 1,
  });
  return performance.now() - started;
}

async function median(memoryCost: number, timeCost: number): Promise<Measured> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) times.push(await timeOnce(memoryCost, timeCost));
  times.sort((a, b) => a - b);
  const ms = Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10) / 10;
  return { memoryCost, timeCost, parallelism: 1, ms };
}

/** OWASP's minimum, then doublings, then the maximum itself. */
function memorySteps(maxKiB: number): number[] {
  const steps: number[] = [];
  for (let kib = OWASP_MIN_MEMORY_KIB; kib < maxKiB; kib *= 2) steps.push(kib);
  steps.push(maxKiB);
  return steps;
}

/** The smallest time cost (>= 2) at this memory whose median reaches the target. */
async function calibrateAt(memoryCost: number, targetMs: number): Promise<Measured> {
  const probe = await timeOnce(memoryCost, MIN_TIME_COST);
  const perPass = probe / MIN_TIME_COST;
  let timeCost = Math.min(
    MAX_TIME_COST,
    Math.max(MIN_TIME_COST, Math.ceil(targetMs / Math.max(perPass, 0.001))),
  );
  let measured = await median(memoryCost, timeCost);
  while (measured.ms < targetMs && timeCost < MAX_TIME_COST) {
    timeCost += 1;
    measured = await median(memoryCost, timeCost);
  }
  // A one-sample estimate can overshoot: step down while the lower cost still reaches it.
  while (timeCost > MIN_TIME_COST) {
    const lower = await median(memoryCost, timeCost - 1);
    if (lower.ms < targetMs) break;
    timeCost -= 1;
    measured = lower;
  }
  return measured;
}

export interface Calibration {
  targetMs: number;
  current: Measured;
  suggested: Measured;
  reachedTarget: boolean;
}

export async function calibrate(targetMs: number, maxMemoryKiB: number): Promise<Calibration> {
  const started = performance.now();
  const current = await median(ARGON2_PARAMETERS.memoryCost, ARGON2_PARAMETERS.timeCost);
  const candidates: Measured[] = [];
  for (const memoryCost of memorySteps(maxMemoryKiB)) {
    if (candidates.length > 0 && performance.now() - started > BUDGET_MS) break;
    candidates.push(await calibrateAt(memoryCost, targetMs));
  }
  const reaching = candidates.filter((candidate) => candidate.ms >= targetMs);
  // Cheapest: the least time spent at or above the target; more memory breaks ties.
  const pool = reaching.length > 0 ? reaching : candidates;
  const pick =
    reaching.length > 0
      ? (a: Measured, b: Measured) => a.ms <= b.ms
      : (a: Measured, b: Measured) => a.ms >= b.ms;
  const suggested = pool.reduce((best, candidate) => (pick(best, candidate) ? best : candidate));
  return { targetMs, current, suggested, reachedTarget: reaching.length > 0 };
}

function describe(row: Measured): string[] {
  return [
    `m=${row.memoryCost} KiB (${Math.round((row.memoryCost / 1024) * 10) / 10} MiB)`,
    `t=${row.timeCost}`,
    `p=${row.parallelism}`,
    `${row.ms} ms`,
  ];
}

export function registerPassword(program: Command): void {
  const password = program.command("password").description("password hashing (argon2id)");

  password
    .command("calibrate")
    .description("measure argon2id here and suggest parameters reaching --target-ms (prints only)")
    .option("--target-ms <ms>", "hash time to reach, in milliseconds", parsePositiveInt, 300)
    .option("--max-memory <size>", "largest memory cost to try, e.g. 64MiB", parseMemory, 65536)
    .action(async (flags: { targetMs: number; maxMemory: number }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      if (outputFormat(globals) === "human") {
        note(`Measuring argon2id (target ${flags.targetMs} ms)...`);
      }
      const result = await calibrate(flags.targetMs, flags.maxMemory);
      emit(
        { targetMs: result.targetMs, current: result.current, suggested: result.suggested },
        globals,
        { human: () => printCalibration(result, flags.maxMemory) },
      );
    });
}

function printCalibration(result: Calibration, maxMemory: number): void {
  process.stdout.write(
    `${formatTable(
      ["", "MEMORY", "TIME COST", "PARALLELISM", "MEDIAN"],
      [
        ["current", ...describe(result.current)],
        ["suggested", ...describe(result.suggested)],
      ],
    )}\n`,
  );
  if (!result.reachedTarget) {
    process.stdout.write(
      `No parameters up to ${maxMemory} KiB and t=${MAX_TIME_COST} reached ${result.targetMs} ms; the slowest measured is shown.\n`,
    );
  }
  process.stdout.write(
    "authd's parameters are fixed in server/crypto/password.ts (ARGON2_PARAMETERS); this command changes nothing.\n",
  );
}
