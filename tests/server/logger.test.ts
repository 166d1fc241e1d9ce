import { describe, expect, it } from "vitest";
import { configSchema } from "../../server/config.js";
import { createLogger, lazyChildLogger, redactUrl } from "../../server/logger.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  };
}

describe("request loggers", () => {
  it("makes the child on first use, with the request's bindings and the redaction", () => {
    const { lines, destination } = capture();
    const config = configSchema.parse({ log: { level: "debug", format: "json" } });
    const parent = createLogger(config, destination);
    let children = 0;
    const counting = Object.create(parent, {
      child: {
        value: (...args: Parameters<typeof parent.child>) => {
          children++;
          return parent.child(...args);
        },
      },
    }) as typeof parent;

    const idle = lazyChildLogger(counting, { reqId: "r-1" }, {});
    expect(idle.level).toBe("debug");
    expect(children).toBe(0);

    const used = lazyChildLogger(counting, { reqId: "r-2" }, {});
    used.info({ req: { headers: { cookie: "SECRET" } }, password: "hunter2" }, "hello");
    used.debug("second");
    expect(children).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: "r-2", msg: "hello", password: "[redacted]" });
    expect(JSON.stringify(lines)).not.toContain("SECRET");
    expect(JSON.stringify(lines)).not.toContain("hunter2");
    expect(lines[1]).toMatchObject({ reqId: "r-2", msg: "second" });

    const quiet = lazyChildLogger(counting, { reqId: "r-3" }, { level: "warn" });
    expect(quiet.level).toBe("warn");
    quiet.info("not written");
    expect(lines).toHaveLength(2);
  });

  it("drops token values from logged URLs", () => {
    expect(redactUrl("/reset-password/abc?callbackURL=%2F&token=t1")).toBe(
      "/reset-password/[redacted]?callbackURL=%2F&token=%5Bredacted%5D",
    );
  });
});
