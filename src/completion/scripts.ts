import type { Language } from '../i18n/language.js';
/** The scripts `agentpay completion <shell>` prints: each passes the words before the cursor to
 * `agentpay __complete` and hands the answer to the shell. Why not a library's: docs/completion.md. */
export const completionShells = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof completionShells)[number];

// bash splits `--format=csv` at '=': the words are joined again before they are sent, and each
// answer is cut to what bash takes as the word and quoted as it needs ("kassa 2"). No
// bash-completion helpers: not every system has them.
const bash = `# bash completion for agentpay: source <(agentpay completion bash)
# A word as typed, without its quotes: 'kassa 2', "kassa 2", kassa\\ 2. Never eval'd: Tab must run nothing the line holds.
_agentpay_unquote() {
  case $1 in
    \\'*) REPLY=\${1#\\'}; REPLY=\${REPLY%\\'} ;;
    \\"*) REPLY=\${1#\\"}; REPLY=\${REPLY%\\"} ;;
    *) REPLY=\${1//\\\\/} ;;
  esac
}
_agentpay_complete() {
  local word line
  local -a words=()
  local i
  for ((i = 1; i <= COMP_CWORD; i++)); do
    _agentpay_unquote "\${COMP_WORDS[i]}"
    word=$REPLY
    if [[ $word == = && \${#words[@]} -gt 0 && \${words[-1]} == --* ]] || [[ $word != -* && \${#words[@]} -gt 0 && \${words[-1]} == --*= ]]; then
      words[-1]+=$word
    else
      words+=("$word")
    fi
  done
  _agentpay_unquote "\${COMP_WORDS[COMP_CWORD]}"
  local current=\${words[-1]-} typed=$REPLY
  local before=\${current%"$typed"}
  COMPREPLY=()
  local answer
  answer=$(agentpay __complete "\${words[@]}" 2>/dev/null) || return 0
  if [[ $answer == :files ]]; then
    compopt -o default 2>/dev/null
    return 0
  fi
  while IFS= read -r line; do
    [[ -z $line ]] && continue
    line=\${line%%$'\\t'*}
    printf -v line '%q' "\${line#"$before"}"
    COMPREPLY+=("$line")
  done <<<"$answer"
}
complete -F _agentpay_complete agentpay
`;

// zsh: the words as typed, unquoted; values with their descriptions through _describe. Works
// sourced after compinit, or as a file _agentpay in $fpath.
const zsh = `#compdef agentpay
# zsh completion for agentpay: source <(agentpay completion zsh), after compinit
_agentpay() {
  local -a answer candidates
  local line value strip
  answer=("\${(@f)$(agentpay __complete "\${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
  # --format=c: the values are completed after the '=' (each answer repeats --format=).
  if [[ $PREFIX == --*=* ]]; then
    strip=\${PREFIX%%=*}=
    compset -P '*='
  fi
  if [[ \${answer[1]} == :files ]]; then
    _files
    return
  fi
  for line in $answer; do
    [[ -z $line ]] && continue
    value=\${\${line%%$'\\t'*}#$strip}
    if [[ -n \${line#*$'\\t'} ]]; then
      candidates+=("\${value//:/\\\\:}:\${line#*$'\\t'}")
    else
      candidates+=("\${value//:/\\\\:}")
    fi
  done
  _describe -t values agentpay candidates
}
if [[ \${funcstack[1]} == _agentpay ]]; then
  _agentpay "$@"
else
  compdef _agentpay agentpay
fi
`;

// fish: the tokens before the cursor and the one being typed; fish reads value<TAB>description itself.
const fish = `# fish completion for agentpay: agentpay completion fish | source
function __agentpay_complete
    set -l answer (agentpay __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)
    if test "$answer[1]" = :files
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\\n' $answer
end
complete -c agentpay -e
complete -c agentpay -f -a '(__agentpay_complete)'
`;

export const completionScripts: Record<CompletionShell, string> = { bash, zsh, fish };

/** How to load each script, for `completion --help` and docs/completion.md. */
export const completionInstallLines: Readonly<Record<Language, readonly string[]>> = {
  en: [
    'bash: add to ~/.bashrc:                    source <(agentpay completion bash)',
    'zsh:  add to ~/.zshrc, after compinit:     source <(agentpay completion zsh)',
    'fish: agentpay completion fish > ~/.config/fish/completions/agentpay.fish',
  ],
  ru: [
    'bash: добавьте в ~/.bashrc:                    source <(agentpay completion bash)',
    'zsh:  добавьте в ~/.zshrc, после compinit:     source <(agentpay completion zsh)',
    'fish: agentpay completion fish > ~/.config/fish/completions/agentpay.fish',
  ],
};
