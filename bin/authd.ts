#!/usr/bin/env node
/** The authd CLI entry: builds the commander program and runs it; nothing else. */
import { runCli } from "./program.js";

process.exitCode = await runCli(process.argv);
