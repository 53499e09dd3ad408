#!/usr/bin/zsh -f
# zsh_complete.zsh FPATH_DIR LINE
#
# Prints what zsh's completion system offers when Tab is pressed at the end
# of LINE: each word it would insert on a line of its own, and each line it
# would list with a description as "shown: LINE". The completion functions
# come from FPATH_DIR (first in fpath) and zsh's own, loaded by compinit, as
# in an interactive shell: zsh runs interactively on a pseudo-terminal
# (zsh/zpty), since compadd works only inside a completion widget. compadd
# is wrapped to report the words it is given that match, then adds them as
# usual. Nothing is ever run: Enter is unbound.
emulate -L zsh
zmodload zsh/zpty || { print -u2 "zsh_complete: zsh lacks the zsh/zpty module"; exit 2 }
(( $# == 2 )) || { print -u2 "usage: zsh_complete.zsh FPATH_DIR LINE"; exit 64 }

local init=${TMPDIR:-/tmp}/zsh_complete.$$.zsh
trap 'rm -f $init' EXIT
cat >$init <<EOF
PS1= PS2= RPS1=
fpath=(${(q)1} \$fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' list-grouped false
bindkey '^I' complete-word
bindkey '^M' undefined
bindkey '^J' undefined
EOF
cat >>$init <<'EOF'
compadd() {
  # Calls that only ask for matches (-O, -A) or filter (-D) are not offers.
  if [[ " $* " == *' -'[OAD]' '* ]]; then
    builtin compadd "$@"
    return
  fi
  local -a __dfl_found __dfl_shown
  builtin compadd -O __dfl_found "$@"
  local __dfl_index=${@[(ie)-d]} __dfl_word __dfl_line
  if (( __dfl_index < $# )); then
    __dfl_shown=("${(@P)${@[__dfl_index+1]}}")
  fi
  for __dfl_word in $__dfl_found; do
    print -r -- "<<word>>$__dfl_word"
    for __dfl_line in $__dfl_shown; do
      [[ $__dfl_line == "$__dfl_word "* ]] && print -r -- "<<shown>>$__dfl_line"
    done
  done
  builtin compadd "$@"
}
__dfl_done() { print -r -- '<<done>>'; exit }
comppostfuncs=(__dfl_done)
print -r -- '<<ready>>'
EOF

zpty capture zsh -f -i
zpty -w capture "source ${(q)init}"
local out
zpty -r capture out '*<<ready>>*' || exit 2
zpty -w -n capture "$2"$'\t'
zpty -r capture out '*<<done>>*' || exit 2
zpty -d capture
local line
for line in ${(f)out//$'\r'/}; do
  case $line in
    # The first may follow the echo of LINE on the same terminal line.
    (*'<<word>>'*) print -r -- ${line#*'<<word>>'} ;;
    (*'<<shown>>'*) print -r -- "shown: ${line#*'<<shown>>'}" ;;
  esac
done
