/**
 * `authd completion bash|zsh|fish|powershell`: a completion script generated from the
 * commander tree at run time, so every command registered in program.ts is completed
 * without a hand-kept list: commands, subcommands, long options (the global ones under
 * every command) and the values of options with a fixed set of choices (`-o json`).
 */
import { Argument, type Command, type Option } from "commander";
import { EXIT } from "../exit-codes.js";

export const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;
export type Shell = (typeof SHELLS)[number];

export interface OptionSpec {
  long: string;
  short?: string;
  description: string;
  /** The option takes a value (`--count <n>`). */
  takesValue: boolean;
  /** The only values it accepts, when commander knows them (`-o human|json|…`). */
  choices?: string[];
}

export interface CommandNode {
  /** Space-separated path below the root, "" for the root. */
  path: string;
  description: string;
  subcommands: { name: string; description: string }[];
  /** Long options, including inherited global ones and --help. */
  options: string[];
  /** The command's own options (the root's are the global ones). */
  optionSpecs: OptionSpec[];
  /** Values of the first argument, when it has a fixed set (`completion <shell>`). */
  argumentChoices: string[];
  /** The command takes free arguments (a file, an id): files may be completed. */
  takesArguments: boolean;
}

function specOf(option: Option): OptionSpec | undefined {
  if (option.hidden || typeof option.long !== "string") return undefined;
  const short = typeof option.short === "string" ? option.short : undefined;
  return {
    long: option.long,
    ...(short ? { short } : {}),
    description: option.description,
    takesValue: option.required || option.optional,
    ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
  };
}

function optionSpecs(command: Command): OptionSpec[] {
  return command.options.map(specOf).filter((spec): spec is OptionSpec => spec !== undefined);
}

function longOptions(command: Command): string[] {
  return [...optionSpecs(command).map((spec) => spec.long), "--help"];
}

/** Every command of the tree, depth first, with its subcommands and long options. */
export function commandTree(root: Command): CommandNode[] {
  const globals = longOptions(root).filter((name) => name !== "--help");
  const nodes: CommandNode[] = [];
  const walk = (command: Command, path: string) => {
    const own = longOptions(command);
    const [first] = command.registeredArguments;
    nodes.push({
      path,
      description: command.description(),
      subcommands: command.commands.map((sub) => ({
        name: sub.name(),
        description: sub.description(),
      })),
      options: [...new Set(path === "" ? own : [...own, ...globals])],
      optionSpecs: optionSpecs(command),
      argumentChoices: first?.argChoices ? [...first.argChoices] : [],
      takesArguments: command.registeredArguments.some((argument) => !argument.argChoices),
    });
    for (const sub of command.commands) walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(root, "");
  return nodes;
}

/** Single-quoted for bash, zsh and fish. (zsh ties `path` to PATH, so the scripts say cmdpath.) */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `cmdpath|option` keys of every option with choices; `*` for the global ones. */
function choiceCases(nodes: CommandNode[]): { path: string; names: string[]; choices: string[] }[] {
  return nodes.flatMap((node) =>
    node.optionSpecs
      .filter((spec) => spec.choices && spec.choices.length > 0)
      .map((spec) => ({
        path: node.path === "" ? "*" : node.path,
        names: spec.short ? [spec.short, spec.long] : [spec.long],
        choices: spec.choices ?? [],
      })),
  );
}

/** A case pattern matching `cmdpath|option` ("*" as a path matches every command). */
function bashChoicePattern(path: string, names: string[]): string {
  const prefix = path === "*" ? "*" : quote(path);
  return names.map((name) => `${prefix}${quote(`|${name}`)}`).join("|");
}

/** Every command path but the root's, quoted, as the scripts match the words typed. */
function knownPaths(nodes: CommandNode[]): string {
  return nodes
    .filter((node) => node.path)
    .map((node) => quote(node.path))
    .join(" ");
}

/**
 * The two case blocks bash and zsh share: the value after an option with choices
 * first (those branches return), then the words of the command reached; an unknown
 * path gets `empty` lists.
 */
function dispatch(choices: string, cases: string, empty: string): string {
  return `  case "$cmdpath|$prev" in
${choices}
  esac
  case "$cmdpath" in
${cases}
    *)
      subcommands=${empty}
      options=${empty}
      ;;
  esac`;
}

export function bashCompletion(root: Command): string {
  const name = root.name();
  const nodes = commandTree(root);
  const cases = nodes
    .map(
      (node) =>
        `    ${quote(node.path)})\n      subcommands=${quote([...node.subcommands.map((sub) => sub.name), ...node.argumentChoices].join(" "))}\n      options=${quote(node.options.join(" "))}\n      ;;`,
    )
    .join("\n");
  const choices = choiceCases(nodes)
    .map(
      (entry) =>
        `    ${bashChoicePattern(entry.path, entry.names)})\n      COMPREPLY=($(compgen -W ${quote(entry.choices.join(" "))} -- "$cur"))\n      return\n      ;;`,
    )
    .join("\n");
  return `# bash completion for ${name} (generated by \`${name} completion bash\`)
# Install: ${name} completion bash > /etc/bash_completion.d/${name}
#      or: source <(${name} completion bash)
_${name}_completions() {
  local cur prev cmdpath word candidate i known
  local subcommands options
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  (( COMP_CWORD > 1 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmdpath=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in -*) continue ;; esac
    candidate="\${cmdpath:+$cmdpath }$word"
    for known in ${knownPaths(nodes)}; do
      if [[ "$known" == "$candidate" ]]; then
        cmdpath="$candidate"
        break
      fi
    done
  done
${dispatch(choices, cases, '""')}
  if [[ "$cur" == -* || -z "$subcommands" ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
  fi
}
complete -o default -F _${name}_completions ${name}
`;
}

export function zshCompletion(root: Command): string {
  const name = root.name();
  const nodes = commandTree(root);
  const escapeColons = (text: string) => text.replace(/:/g, "\\:");
  const cases = nodes
    .map((node) => {
      const subs = [
        ...node.subcommands.map((sub) =>
          quote(`${escapeColons(sub.name)}:${escapeColons(sub.description)}`),
        ),
        ...node.argumentChoices.map((choice) => quote(escapeColons(choice))),
      ].join(" ");
      return `    ${quote(node.path)})\n      subcommands=(${subs})\n      options=(${node.options.map(quote).join(" ")})\n      ;;`;
    })
    .join("\n");
  const choices = choiceCases(nodes)
    .map(
      (entry) =>
        `    ${bashChoicePattern(entry.path, entry.names)})\n      compadd -- ${entry.choices.map(quote).join(" ")}\n      return\n      ;;`,
    )
    .join("\n");
  return `#compdef ${name}
# zsh completion for ${name} (generated by \`${name} completion zsh\`)
# Install: ${name} completion zsh > "\${fpath[1]}/_${name}"
_${name}() {
  local cmdpath word candidate known i prev
  local -a subcommands options known_paths
  known_paths=(${knownPaths(nodes)})
  cmdpath=""
  prev=""
  (( CURRENT > 2 )) && prev="\${words[CURRENT-1]}"
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    [[ "$word" == -* ]] && continue
    candidate="\${cmdpath:+$cmdpath }$word"
    if (( \${known_paths[(Ie)$candidate]} )); then
      cmdpath="$candidate"
    fi
  done
${dispatch(choices, cases, "()")}
  if [[ "$PREFIX" == -* || \${#subcommands} -eq 0 ]]; then
    compadd -- "\${options[@]}"
    (( \${#subcommands} == 0 )) && _files
  else
    _describe -t commands 'command' subcommands
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautoload ]]; then
  _${name} "$@"
else
  compdef _${name} ${name}
fi
`;
}

/** Single-quoted for fish: inside, only \\ and ' are special. */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (character) => `\\${character}`)}'`;
}

/** One `complete` line per option: -s/-l, -r (value) or -x (value from a fixed list). */
function fishOption(name: string, condition: string | undefined, spec: OptionSpec): string {
  const parts = [`complete -c ${name}`];
  if (condition !== undefined) parts.push(`-n ${fishQuote(condition)}`);
  if (spec.short) parts.push(`-s ${spec.short.replace(/^-/, "")}`);
  parts.push(`-l ${spec.long.replace(/^--/, "")}`);
  if (spec.choices && spec.choices.length > 0) {
    parts.push(`-x -a ${fishQuote(spec.choices.join(" "))}`);
  } else if (spec.takesValue) {
    parts.push("-r");
  }
  if (spec.description) parts.push(`-d ${fishQuote(spec.description)}`);
  return parts.join(" ");
}

export function fishCompletion(root: Command): string {
  const name = root.name();
  const nodes = commandTree(root);
  const at = (path: string) => `__${name}_at ${fishQuote(path)}`;
  const lines: string[] = [];
  for (const node of nodes) {
    const condition = at(node.path);
    // Files only where the command takes a free argument (a seed file, an id).
    if (!node.takesArguments) lines.push(`complete -c ${name} -n ${fishQuote(condition)} -f`);
    for (const sub of node.subcommands) {
      lines.push(
        `complete -c ${name} -n ${fishQuote(condition)} -a ${fishQuote(sub.name)} -d ${fishQuote(sub.description || sub.name)}`,
      );
    }
    if (node.argumentChoices.length > 0) {
      lines.push(
        `complete -c ${name} -n ${fishQuote(condition)} -a ${fishQuote(node.argumentChoices.join(" "))}`,
      );
    }
    // The root's options are the global ones: offered under every command.
    for (const spec of node.optionSpecs) {
      lines.push(fishOption(name, node.path === "" ? undefined : condition, spec));
    }
  }
  const paths = nodes
    .filter((node) => node.path)
    .map((node) => fishQuote(node.path))
    .join(" ");
  return `# fish completion for ${name} (generated by \`${name} completion fish\`)
# Install: ${name} completion fish > ~/.config/fish/completions/${name}.fish

# The command path typed so far ("migrate status"), options and their values skipped.
function __${name}_cmdpath
    set -l known ${paths}
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath ''
    for word in $tokens
        string match -q -- '-*' $word; and continue
        set -l candidate $word
        test -n "$cmdpath"; and set candidate "$cmdpath $word"
        contains -- $candidate $known; and set cmdpath $candidate
    end
    echo $cmdpath
end

function __${name}_at
    set -l current (__${name}_cmdpath)
    test "$current" = "$argv[1]"
end

complete -c ${name} -e
${lines.join("\n")}
`;
}

/** Single-quoted for PowerShell: a quote is doubled. */
function psQuote(text: string): string {
  return `'${text.replace(/['\u2018\u2019\u201a\u201b]/g, (character) => `${character}${character}`)}'`;
}

function psArray(items: string[]): string {
  return `@(${items.map(psQuote).join(", ")})`;
}

export function powershellCompletion(root: Command): string {
  const name = root.name();
  const nodes = commandTree(root);
  const tree = nodes
    .map((node) => {
      const subcommands = [
        ...node.subcommands.map((sub) => ({ name: sub.name, description: sub.description })),
        ...node.argumentChoices.map((choice) => ({ name: choice, description: "" })),
      ]
        .map(
          (sub) =>
            `@{ Name = ${psQuote(sub.name)}; Description = ${psQuote(sub.description || sub.name)} }`,
        )
        .join(", ");
      return `        ${psQuote(node.path)} = @{\n            Subcommands = @(${subcommands})\n            Options = ${psArray(node.options)}\n        }`;
    })
    .join("\n");
  // Hash literal keys are case-insensitive and must be unique: the first entry wins.
  const seen = new Set<string>();
  const choices = choiceCases(nodes)
    .flatMap((entry) => entry.names.map((option) => ({ key: `${entry.path}|${option}`, entry })))
    .filter(({ key }) => !seen.has(key.toLowerCase()) && seen.add(key.toLowerCase()))
    .map(({ key, entry }) => `        ${psQuote(key)} = ${psArray(entry.choices)}`)
    .join("\n");
  return `# PowerShell completion for ${name} (generated by \`${name} completion powershell\`)
# Install: ${name} completion powershell | Out-String | Invoke-Expression
#      (add that line to $PROFILE to keep it)
Register-ArgumentCompleter -Native -CommandName ${psQuote(name)} -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $tree = @{
${tree}
    }
    $choices = @{
${choices}
    }
    # The command path typed before the cursor ("migrate status"), options skipped.
    $cmdpath = ''
    $previous = ''
    foreach ($element in ($commandAst.CommandElements | Select-Object -Skip 1)) {
        if ($element.Extent.EndOffset -ge $cursorPosition) { break }
        $word = $element.ToString()
        $previous = $word
        if ($word.StartsWith('-')) { continue }
        $candidate = if ($cmdpath) { "$cmdpath $word" } else { $word }
        if ($tree.ContainsKey($candidate)) { $cmdpath = $candidate }
    }
    $values = $choices["$cmdpath|$previous"]
    if (-not $values) { $values = $choices["*|$previous"] }
    if ($values) {
        $values | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
            [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
        }
        return
    }
    $node = $tree[$cmdpath]
    if ($wordToComplete.StartsWith('-') -or $node.Subcommands.Count -eq 0) {
        $node.Options | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
            [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterName', $_)
        }
    } else {
        $node.Subcommands | Where-Object { $_.Name -like "$wordToComplete*" } | ForEach-Object {
            [System.Management.Automation.CompletionResult]::new($_.Name, $_.Name, 'ParameterValue', $_.Description)
        }
    }
}
`;
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

const GENERATORS: Record<Shell, (root: Command) => string> = {
  bash: bashCompletion,
  zsh: zshCompletion,
  fish: fishCompletion,
  powershell: powershellCompletion,
};

export function registerCompletion(program: Command): void {
  program
    .command("completion")
    .description("print a shell completion script (bash, zsh, fish or powershell)")
    .addArgument(new Argument("<shell>", "bash, zsh, fish or powershell").choices([...SHELLS]))
    .action((shell: Shell, _flags: unknown, command: Command) => {
      process.stdout.write(GENERATORS[shell](rootOf(command)));
      process.exitCode = EXIT.ok;
    });
}
