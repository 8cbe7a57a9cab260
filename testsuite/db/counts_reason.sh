#!/bin/sh
# counts_reason.sh KEELCC -- keelcc stores in loop_counts.reason why a loop's
# counts are not summed exactly (analysis/counts.c), and NULL where they are:
# a while loop with an unknown trip count, a step-2 loop whose body depends
# on its variable, and an exact triangular inner loop.
KC=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cat > w.c <<'E'
double f(int n, double *x)
{
    double s = 0;
    int i = 0;
    while (x[i] > 0) {
        s += x[i];
        i++;
    }
    for (int j = 0; j < n; j += 2)
        for (int k = 0; k < j; k++)
            s += x[k];
    return s;
}
E
"$KC" --keel-db=k.db -O2 -c w.c -o w.o || { echo "FAIL: keelcc"; exit 1; }
got=$(sqlite3 k.db "SELECT l.line || ' ' || c.scope || ' ' || c.flops || ' ' || ifnull(c.reason, 'NULL')
                    FROM loop_counts c JOIN loops l ON l.id = c.loop_id ORDER BY l.line, c.scope")
want='5 iteration 1 NULL
5 total ?"trip@5" line 5: trip count unknown: counts use trip@5
9 iteration j NULL
9 total j*div(n + 1, 2) line 9: body depends on j, loop not bounded with step +-1: count is body x trip, j left in place
10 iteration 1 NULL
10 total j NULL'
[ "$got" = "$want" ] || { printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"; exit 1; }
echo "1 passed, 0 failed"
