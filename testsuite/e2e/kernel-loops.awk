# kernel-loops.awk -- the test oracle for "which loops does a kernel have".
#
# Prints the line number of every `for` statement inside the body of a
# function whose name starts with kernel_, reading the source text only
# (keel's inputs put each `for` on its own line).  Independent of libclang
# on purpose: it is what keel's walker is checked against.
/^[A-Za-z].*kernel_[A-Za-z0-9_]*[ \t]*\(/ && !/;[ \t]*$/ { infn = 1; depth = 0; started = 0 }
infn {
    if ($0 ~ /^[ \t]*for[ \t]*\(/)
        print NR
    line = $0
    opens = gsub(/\{/, "", line)
    closes = gsub(/\}/, "", line)
    depth += opens - closes
    if (opens > 0)
        started = 1
    if (started && depth == 0)
        infn = 0
}
