# bash completion for keel and keelcc.
#
# Installed as share/bash-completion/completions/keel and .../keelcc.  The
# words come from the programs' own help texts (`keel help`, `keel help
# COMMAND`, `keelcc --keel-help`), so they always match the installed
# version: commands after `keel`, a command's options after it, keel's
# --keel-* options for keelcc (and file names for everything else).

_keel_words()   # the --options a help text names
{
    "$@" 2>/dev/null | grep -o -- '--[a-z][a-z-]*=\{0,1\}' | sort -u
}

_keel()
{
    local cur=${COMP_WORDS[COMP_CWORD]} cmd="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
        else
            local cmds
            cmds=$("${COMP_WORDS[0]}" help 2>/dev/null |
                   sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
            COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_keel_words "${COMP_WORDS[0]}" help "$cmd") --help" -- "$cur"))
        return
    fi
    case ${COMP_WORDS[COMP_CWORD - 1]} in
    --device|--host)
        local names
        names=$("${COMP_WORDS[0]}" devices 2>/dev/null | awk 'NR > 1 && /^[^ ]/ { print $1 }')
        COMPREPLY=($(compgen -W "$names" -- "$cur"))
        return ;;
    -p) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -f -- "$cur"))
}

_keelcc()
{
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [[ $cur == --keel-* ]]; then
        local opts
        opts="$(_keel_words "${COMP_WORDS[0]}" --keel-help) --keel-instrument=off
              --keel-instrument=report --keel-instrument=offload --keel-analysis=off
              --keel-analysis=only --keel-mca=off --keel-direct=off
              --keel-objcache=off"
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        [[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _keel keel
complete -o default -F _keelcc keelcc
