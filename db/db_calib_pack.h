/*
 * db_calib_pack.h -- a host's newest calibration (db_log.h's
 * host_calibration and host_bandwidth rows) as one row source, from the
 * run-time log or from a packed byte string that travels with a program.
 *
 * keelcc's link step packs the newest calibration of the host it runs on
 * (db_calib_pack), so that a program linked there decides with it without
 * opening its database; the runtime reads the same rows through
 * db_calib_src whichever way they came, and converts them once
 * (runtime/calib_store.c).  The packed form: "KEELCALB", u32 version, u32
 * length of the whole, u64 FNV-1a of bytes [24, length), str host, i64 the
 * calibration's id, the db_calib_row fields (i32 cores, then f64 freq_hz,
 * mem_bw, peak_flops, fork_ns, join_ns, sched_ns, target_fallback_ns,
 * page_bytes, tlb_entries, tlb_miss_ns, l1_bytes, l2_bytes, l3_bytes, str
 * latencies, str thread_curve), u32 footprints and
 * that many f64, u32 bandwidth rows and per row str pattern, f64
 * footprint, i32 threads, f64 bytes_per_s; little-endian, str as in
 * db_nest.h.  A form that is truncated, corrupt or of another version is
 * refused whole.
 */
#ifndef KEEL_DB_CALIB_PACK_H
#define KEEL_DB_CALIB_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "db_log.h"

#define DB_CALIB_MAGIC "KEELCALB"
#define DB_CALIB_VERSION 3   /* 2: the cache sizes; 3: the thread curve */

typedef struct db_calib_src db_calib_src;

/* Over an open run-time log (borrowed). */
int db_calib_src_log(db_log *l, db_calib_src **out);
/* Over packed bytes (borrowed; checked whole): 0, or -1 with a message. */
/* The length a packed calibration at bytes states (its header), for a
 * form that travels without one (keel_link_calib); 0 when bytes do not
 * start with DB_CALIB_MAGIC. */
size_t db_calib_packed_size(const void *bytes);
int db_calib_src_packed(const void *bytes, size_t n, db_calib_src **out, char *err,
                        size_t errlen);
void db_calib_src_close(db_calib_src *s);      /* NULL is fine */

/* As db_calib_newest, db_calib_footprints, db_calib_each_bandwidth; a
 * packed source holds one host's one calibration (another host: 1). */
int db_calib_src_newest(db_calib_src *s, const char *host, db_calib_row *c, int64_t *id);
int db_calib_src_footprints(db_calib_src *s, int64_t id, double *fp, int max);
void db_calib_src_each_bandwidth(db_calib_src *s, int64_t id, db_bw_fn fn, void *ctx);
/* SQLite's message of a log source's last failure ("" for a packed one). */
const char *db_calib_src_errmsg(db_calib_src *s);

/* The newest calibration of host in d, packed into a new malloc'd *out of
 * *n bytes: 0, 1 when d holds none for host, -1 with a message.  Writer
 * side (keelcc's link step). */
int db_calib_pack(db *d, const char *host, unsigned char **out, size_t *n, char *err,
                  size_t errlen);

#endif
