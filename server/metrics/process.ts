/**
 * The process's own metrics (CPU, memory, file descriptors, event-loop delay, garbage
 * collection), under the names of prom-client's default metrics so that dashboards made
 * for them read these. Not collectDefaultMetrics itself: it starts an event-loop monitor
 * and a GC observer that nothing can stop, so every app that closed would leave both
 * running, and its registry alive, for the rest of the process. These stop with the app.
 */
import { readdirSync, readFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/**
 * How often the event-loop monitor samples, in ms: every sample wakes the loop, and 20 ms
 * costs about half of prom-client's 10 ms default while still catching any stall that
 * matters to a request.
 */
const EVENT_LOOP_RESOLUTION_MS = 20;

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};

/** The soft limit on open files from /proc (Linux), or null elsewhere. */
function maxFileDescriptors(): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((text) => text.startsWith("Max open files"));
    const soft = Number(line?.split(/\s+/)[3]);
    return Number.isFinite(soft) ? soft : null;
  } catch {
    return null;
  }
}

/** Registers the process metrics in `registry`; answers the function that stops them. */
export function collectProcessMetrics(registry: Registry): () => void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number | null) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read();
        if (value !== null) this.set(value);
      },
    });

  // CPU time: the counters are advanced to process.cpuUsage() when scraped.
  let reported = { user: 0, system: 0 };
  new Counter({
    name: "process_cpu_user_seconds_total",
    help: "Total user CPU time spent in seconds.",
    registers,
    collect() {
      const usage = process.cpuUsage();
      const user = (usage.user - reported.user) / 1e6;
      const system = (usage.system - reported.system) / 1e6;
      reported = usage;
      this.inc(user);
      cpuSystem.inc(system);
      cpuTotal.inc(user + system);
    },
  });
  const cpuSystem = new Counter({
    name: "process_cpu_system_seconds_total",
    help: "Total system CPU time spent in seconds.",
    registers,
  });
  const cpuTotal = new Counter({
    name: "process_cpu_seconds_total",
    help: "Total user and system CPU time spent in seconds.",
    registers,
  });

  const startTime = Math.round(Date.now() / 1000 - process.uptime());
  gauge(
    "process_start_time_seconds",
    "Start time of the process since unix epoch in seconds.",
    () => startTime,
  );
  gauge("process_resident_memory_bytes", "Resident memory size in bytes.", () =>
    process.memoryUsage.rss(),
  );
  if (process.platform === "linux") {
    gauge("process_open_fds", "Number of open file descriptors.", () => {
      try {
        // One of them is the directory being read.
        return readdirSync("/proc/self/fd").length - 1;
      } catch {
        return null;
      }
    });
    let max: number | null | undefined;
    gauge("process_max_fds", "Maximum number of open file descriptors.", () => {
      max ??= maxFileDescriptors();
      return max;
    });
  }
  gauge(
    "nodejs_heap_size_total_bytes",
    "Process heap size from Node.js in bytes.",
    () => process.memoryUsage().heapTotal,
  );
  gauge(
    "nodejs_heap_size_used_bytes",
    "Process heap size used from Node.js in bytes.",
    () => process.memoryUsage().heapUsed,
  );
  gauge(
    "nodejs_external_memory_bytes",
    "Node.js external memory size in bytes.",
    () => process.memoryUsage().external,
  );
  gauge(
    "nodejs_active_resources_total",
    "Total number of active resources keeping the event loop alive.",
    () => process.getActiveResourcesInfo().length,
  );
  const [major, minor, patch] = process.versions.node.split(".");
  new Gauge({
    name: "nodejs_version_info",
    help: "Node.js version info.",
    labelNames: ["version", "major", "minor", "patch"] as const,
    registers,
  }).set({ version: process.version, major, minor, patch }, 1);

  // The event-loop delay since the previous scrape.
  const delay = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  delay.enable();
  const delays: Array<[string, string, () => number]> = [
    ["min", "The minimum recorded event loop delay.", () => delay.min],
    ["max", "The maximum recorded event loop delay.", () => delay.max],
    ["mean", "The mean of the recorded event loop delays.", () => delay.mean],
    ["stddev", "The standard deviation of the recorded event loop delays.", () => delay.stddev],
    ["p50", "The 50th percentile of the recorded event loop delays.", () => delay.percentile(50)],
    ["p90", "The 90th percentile of the recorded event loop delays.", () => delay.percentile(90)],
    ["p99", "The 99th percentile of the recorded event loop delays.", () => delay.percentile(99)],
  ];
  delays.forEach(([name, help, read], index) => {
    new Gauge({
      name: `nodejs_eventloop_lag_${name}_seconds`,
      help,
      registers,
      collect() {
        // No sample yet reads as NaN (mean) or a huge minimum: report nothing then.
        const nanoseconds = delay.count > 0 ? read() : Number.NaN;
        if (Number.isFinite(nanoseconds)) this.set(nanoseconds / 1e9);
        // The last of them starts the next interval.
        if (index === delays.length - 1) delay.reset();
      },
    });
  });

  const gcDurations = new Histogram({
    name: "nodejs_gc_duration_seconds",
    help: "Garbage collection duration by kind, one of major, minor, incremental or weakcb.",
    labelNames: ["kind"] as const,
    buckets: [0.001, 0.01, 0.1, 1, 2, 5],
    registers,
  });
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // A GC entry's detail names its kind (not in this Node version's types).
      const detail = (entry as { detail?: { kind?: number } }).detail;
      const kind = GC_KINDS[detail?.kind ?? -1] ?? "unknown";
      gcDurations.observe({ kind }, entry.duration / 1000);
    }
  });
  collections.observe({ entryTypes: ["gc"] });

  return () => {
    delay.disable();
    collections.disconnect();
  };
}
