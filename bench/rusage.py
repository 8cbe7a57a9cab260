#!/usr/bin/env python3
"""rusage.py CMD... -- run CMD (output discarded) and print one line:
"WALL CPU MAXRSS": seconds of wall time, seconds of CPU (user + system of
CMD and every descendant it waited for, as the kernel accounts them) with
microsecond resolution, and the largest resident size of any one of those
processes in KiB.  GNU time rounds to 10 ms, too coarse for a 0.1 s
compile.  The exit status is CMD's (128 + N when signal N ended it)."""
import os
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.stderr.write("usage: rusage.py CMD...\n")
    sys.exit(2)
t0 = time.monotonic()
try:
    p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
except OSError as e:
    sys.stderr.write("rusage.py: cannot run %s: %s\n" % (sys.argv[1], e.strerror))
    sys.exit(127)
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
print("%.4f %.4f %d" % (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
if os.WIFSIGNALED(status):
    sys.exit(128 + os.WTERMSIG(status))
sys.exit(os.WEXITSTATUS(status))
