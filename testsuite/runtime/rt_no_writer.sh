#!/bin/sh
# rt_no_writer.sh LIBKEELRT.a LIBKEELRT.so -- a user program links
# libkeelrt, which must hold the database reader and the run-time log only:
# no function of keelcc's database writer (translation units, the llvm-mca
# and launch rows, direct mode, the schema migrations) and nothing that
# starts a process.  Fails, naming them, when either library defines such a
# symbol, or its code calls one of them (it would not link) or posix_spawn,
# fork, exec* or system.
set -u
status=0
# Defined symbols that belong to the writer library (keel_db) or to
# keel_spawn.
writer='^(db_begin_tu|db_commit_tu|db_rollback_tu|db_add_[a-z_]+|db_set_[a-z_]+|db_migrations|db_nmigrations|db_open|db_mca_cache_(get|put)|db_mca_add_result|db_launch_writer_[a-z]+|db_launch_add[a-z_]*|db_launch_set_[a-z_]+|db_direct_[a-z_]+|ku_spawn|ku_wait|ku_wait_any|ku_poll|ku_status_text)$'
# Functions that start a process, referenced by the library's code.
spawn='^(posix_spawn[a-z_]*|fork|vfork|execl|execlp|execle|execv|execvp|execvpe|system|popen)$'
for lib in "$@"; do
    if [ ! -f "$lib" ]; then
        echo "rt_no_writer: $lib: no such file"
        status=1
        continue
    fi
    # the full symbol table (the shared library's local symbols too: its
    # version script hides them from the dynamic table, not from the file)
    defs=$(nm --defined-only "$lib" 2>/dev/null | awk 'NF >= 3 { print $3 }' | grep -E "$writer" | sort -u)
    refs=$(nm --undefined-only "$lib" 2>/dev/null | awk '{ print $NF }' | sed 's/@.*//' |
           grep -E "$spawn|$writer" | sort -u)
    nsyms=$(nm --defined-only "$lib" 2>/dev/null | grep -c ' T keel_decide$')
    if [ "$nsyms" -ne 1 ]; then
        echo "rt_no_writer: $lib: keel_decide not defined once (nm read nothing?)"
        status=1
    fi
    for s in $defs; do
        echo "rt_no_writer: $lib defines $s (database writer or process spawning)"
        status=1
    done
    for s in $refs; do
        echo "rt_no_writer: $lib calls $s"
        status=1
    done
done
[ $status -eq 0 ] && echo "rt_no_writer: ok ($*)"
exit $status
