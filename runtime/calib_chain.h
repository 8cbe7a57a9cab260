/*
 * calib_chain.h -- the addition chains keel calibrate times (private to
 * the calibration kernels: calib.c's one-thread clock, calib_omp.c's
 * clock and independent-work rate with many threads busy).
 *
 * CHAIN1 adds i to x and keeps x in a register the compiler cannot see
 * through (an empty asm that reads and writes it), so every addition
 * stays and each waits for the one before: a dependent chain of integer
 * adds, one cycle each on the cores keel knows.  CHAIN8 is eight of them.
 */
#ifndef KEEL_RUNTIME_CALIB_CHAIN_H
#define KEEL_RUNTIME_CALIB_CHAIN_H

#define CHAIN1(x, i) do { (x) += (i); __asm__ volatile("" : "+r"(x)); } while (0)
#define CHAIN8(x, i) do { CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); \
                          CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); } while (0)

#endif
