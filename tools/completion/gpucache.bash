# bash completion for gpucache. The commands and each command's options come from the
# tool itself (`gpucache --commands`, `gpucache COMMAND --help`), the same text as its
# help and man page, so that the completion cannot fall behind them; a model after -m from
# `gpucache models`, which lists the library's family table and presets.
_gpucache()
{
    local cur=${COMP_WORDS[COMP_CWORD]} tool=${COMP_WORDS[0]} cmd="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "-q --quiet -v --verbose -h --help --version" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$("$tool" --commands 2>/dev/null)" -- "$cur"))
        fi
        return 0
    fi
    if [[ $cmd == help ]]; then
        COMPREPLY=($(compgen -W "$("$tool" --commands 2>/dev/null)" -- "$cur"))
        return 0
    fi
    if [[ ${COMP_WORDS[COMP_CWORD - 1]} == -m || ${COMP_WORDS[COMP_CWORD - 1]} == --model ]]; then
        # the families and presets as `gpucache models` lists them (the library's table)
        COMPREPLY=($(compgen -W "$("$tool" models 2>/dev/null | awk '/^families:/ { s = 1; next } /^presets:/ { s = 2; next }
            /^  [^ ]/ { w = $1; if (s == 1) sub(/[:[].*/, "", w); print w }')" -- "$cur"))
        return 0
    fi
    if [[ $cur == -* ]]; then
        # the option column of the help: "  -m, --model MODEL   text"
        local opts
        opts=$("$tool" "$cmd" --help 2>/dev/null | awk '/^options:/ { on = 1; next } /^$/ { on = 0 }
            on && /^  -/ { f = substr($0, 3, 26); gsub(/,/, " ", f); n = split(f, w, " ");
                           for (k = 1; k <= n; k++) if (w[k] ~ /^-/) { sub(/[[=].*/, "", w[k]); print w[k] } }')
        COMPREPLY=($(compgen -W "$opts -q --quiet -v --verbose" -- "$cur"))
        return 0
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
}
complete -o default -o filenames -F _gpucache gpucache
