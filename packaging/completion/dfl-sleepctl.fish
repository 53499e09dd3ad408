# fish completion for dfl-sleepctl
#
# Completes the commands, their options and, for complete and open, the ids
# of the timers the agent mirrors, with the baby's name beside each (from
# "dfl-sleepctl list --json"; like any call, that starts the agent through
# the session bus if it is not running).

# The command: the first word after dfl-sleepctl, if there is one yet.
function __dfl_sleepctl_command
    set -l words (commandline -opc)
    test (count $words) -ge 2; and echo -- $words[2]
end

# True when the command is one of the arguments.
function __dfl_sleepctl_command_is
    contains -- (__dfl_sleepctl_command) $argv
end

# How many words other than options (and the TIME of --at) follow the
# command.
function __dfl_sleepctl_arguments
    set -l count 0
    set -l skip_next 0
    for word in (commandline -opc)[3..-1]
        if test $skip_next -eq 1
            set skip_next 0
            continue
        end
        switch $word
            case --at
                set skip_next 1
            case '-*'
            case '*'
                set count (math $count + 1)
        end
    end
    echo $count
end

# True right after --at, where a TIME comes.
function __dfl_sleepctl_wants_time
    set -l words (commandline -opc)
    __dfl_sleepctl_command_is complete; and test "$words[-1]" = --at
end

# complete and open take one TIMER_ID.
function __dfl_sleepctl_wants_timer
    __dfl_sleepctl_command_is complete open; and not __dfl_sleepctl_wants_time
    and test (__dfl_sleepctl_arguments) -eq 0; and not __fish_contains_opt running
end

# The mirrored timers as "ID<tab>baby's name". An id whose object cannot be
# told apart (a name with a brace in it) is still offered, without a name.
function __dfl_sleepctl_timers
    set -l json (timeout 3 dfl-sleepctl list --json 2>/dev/null | string collect)
    or return 0
    set -l named
    for object in (string match -ra '\{[^{}]*\}' -- $json)
        set -l id (string match -r '"timer_id":"([0-9a-fA-F-]+)"' -- $object)[2]
        set -l name (string match -r '"baby_name":"((?:[^"\\\\]|\\\\.)*)"' -- $object)[2]
        if test -n "$id"
            set -a named $id
            printf '%s\t%s\n' $id $name
        end
    end
    for id in (string match -ra '"timer_id":"([0-9a-fA-F-]+)"' -- $json | string match -rv '^"')
        contains -- $id $named; or printf '%s\n' $id
    end
end

complete -c dfl-sleepctl -f

# The commands, and --help before any of them.
complete -c dfl-sleepctl -n 'not __dfl_sleepctl_command' -a list -d 'The mirrored timers'
complete -c dfl-sleepctl -n 'not __dfl_sleepctl_command' -a complete -d 'Save a timer as a finished sleep'
complete -c dfl-sleepctl -n 'not __dfl_sleepctl_command' -a open -d 'Open the app at a timer'
complete -c dfl-sleepctl -n 'not __dfl_sleepctl_command' -a watch -d 'Print one JSON line per signal of the agent'
complete -c dfl-sleepctl -n 'not __dfl_sleepctl_command' -a status -d "The agent's version and counts"
complete -c dfl-sleepctl -n 'not __dfl_sleepctl_command' -a help -d 'The usage, or one command\'s'
complete -c dfl-sleepctl -n 'not __dfl_sleepctl_command' -s h -l help -d 'Print the usage'

# Each command's options.
complete -c dfl-sleepctl -n '__dfl_sleepctl_command_is list status' -l json -d 'Print JSON'
complete -c dfl-sleepctl -n '__dfl_sleepctl_command_is list complete open watch status' -l help -d "Print the command's usage"
complete -c dfl-sleepctl -n '__dfl_sleepctl_command_is complete; and not __fish_contains_opt at running' -l at -x \
    -d 'When the sleep ended: now, ISO-8601 or ms since 1970'
complete -c dfl-sleepctl -n '__dfl_sleepctl_command_is complete open; and test (__dfl_sleepctl_arguments) -eq 0; and not __fish_contains_opt at running' \
    -l running -d 'The one running Sleep, for a keyboard shortcut'
complete -c dfl-sleepctl -n __dfl_sleepctl_wants_time -a 'now (date -u +%Y-%m-%dT%H:%M:%SZ)'

# Timer ids, and help's one topic.
complete -c dfl-sleepctl -n __dfl_sleepctl_wants_timer -a '(__dfl_sleepctl_timers)'
complete -c dfl-sleepctl -n '__dfl_sleepctl_command_is help; and test (__dfl_sleepctl_arguments) -eq 0' \
    -a 'list complete open watch status help'
