/*
 * schema.c -- the database schema as an ordered list of migrations.
 *
 * db_migrations[v] takes a keel database from schema version v to v + 1;
 * entry 0 creates everything on an empty file.  db_open runs the entries
 * from the file's PRAGMA user_version up to DB_SCHEMA_VERSION inside one
 * BEGIN IMMEDIATE transaction.  Every entry ends by setting user_version
 * to its own target, so versions are never computed or formatted at run
 * time.  To change the schema: append an entry (never edit an old one),
 * bump DB_SCHEMA_VERSION in db.h, and describe the change in SCHEMA.md.
 *
 * Rules the SQL keeps:
 *   - every row hangs off translation_units through ON DELETE CASCADE
 *     chains, so deleting a TU row (db_begin_tu does, by path) removes all
 *     it produced; every foreign-key column used by a cascade is indexed;
 *   - symbolic expressions live once per TU in `expressions` and are
 *     referenced by id;
 *   - the view loop_summary is the stable face for plain sqlite3 users:
 *     later versions may add columns at the end, never rename or drop.
 */
#include "db.h"

const char *const db_migrations[] = {
    /* 0 -> 1: the initial schema */
    "CREATE TABLE keel_meta(\n"
    "  key   TEXT PRIMARY KEY,\n"
    "  value TEXT\n"
    ");\n"
    "CREATE TABLE translation_units(\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  path        TEXT NOT NULL UNIQUE,\n"
    "  hash        TEXT,\n"
    "  args        TEXT,\n"
    "  compiler    TEXT,\n"
    "  directory   TEXT,\n"
    "  status      TEXT NOT NULL DEFAULT 'ok',\n"
    "  message     TEXT,\n"
    "  compiled_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))\n"
    ");\n"
    "CREATE TABLE expressions(\n"
    "  id     INTEGER PRIMARY KEY,\n"
    "  tu_id  INTEGER NOT NULL REFERENCES translation_units(id) ON DELETE CASCADE,\n"
    "  text   TEXT NOT NULL,\n"
    "  affine INTEGER NOT NULL,\n"
    "  UNIQUE(tu_id, text)\n"
    ");\n"
    "CREATE TABLE functions(\n"
    "  id    INTEGER PRIMARY KEY,\n"
    "  tu_id INTEGER NOT NULL REFERENCES translation_units(id) ON DELETE CASCADE,\n"
    "  name  TEXT NOT NULL,\n"
    "  file  TEXT,\n"
    "  line  INTEGER,\n"
    "  col   INTEGER\n"
    ");\n"
    "CREATE INDEX functions_tu ON functions(tu_id);\n"
    "CREATE TABLE loops(\n"
    "  id              INTEGER PRIMARY KEY,\n"
    "  tu_id           INTEGER NOT NULL REFERENCES translation_units(id) ON DELETE CASCADE,\n"
    "  function_id     INTEGER NOT NULL REFERENCES functions(id) ON DELETE CASCADE,\n"
    "  parent_id       INTEGER REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  file            TEXT,\n"
    "  line            INTEGER,\n"
    "  col             INTEGER,\n"
    "  end_line        INTEGER,\n"
    "  depth           INTEGER NOT NULL,\n"
    "  kind            TEXT,\n"
    "  canonical       INTEGER NOT NULL,\n"
    "  iv              TEXT,\n"
    "  lower_id        INTEGER REFERENCES expressions(id),\n"
    "  upper_id        INTEGER REFERENCES expressions(id),\n"
    "  step            INTEGER NOT NULL,\n"
    "  trip_id         INTEGER REFERENCES expressions(id),\n"
    "  pragmas         TEXT,\n"
    "  n_if            INTEGER NOT NULL,\n"
    "  n_break         INTEGER NOT NULL,\n"
    "  n_continue      INTEGER NOT NULL,\n"
    "  n_goto          INTEGER NOT NULL,\n"
    "  n_return        INTEGER NOT NULL,\n"
    "  idioms          TEXT,\n"
    "  algorithm_class TEXT,\n"
    "  parallel        TEXT,\n"
    "  coalescing      TEXT,\n"
    "  cycles_per_iter REAL\n"
    ");\n"
    "CREATE INDEX loops_tu ON loops(tu_id);\n"
    "CREATE INDEX loops_function ON loops(function_id);\n"
    "CREATE INDEX loops_parent ON loops(parent_id);\n"
    "CREATE INDEX loops_file_line ON loops(file, line);\n"
    "CREATE INDEX loops_lower ON loops(lower_id);\n"
    "CREATE INDEX loops_upper ON loops(upper_id);\n"
    "CREATE INDEX loops_trip ON loops(trip_id);\n"
    "CREATE TABLE statements(\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  loop_id     INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  line        INTEGER,\n"
    "  col         INTEGER,\n"
    "  text        TEXT,\n"
    "  conditional INTEGER NOT NULL,\n"
    "  fadd  INTEGER NOT NULL, fmul INTEGER NOT NULL, fdiv INTEGER NOT NULL,\n"
    "  ffma  INTEGER NOT NULL, fmath INTEGER NOT NULL,\n"
    "  iadd  INTEGER NOT NULL, imul INTEGER NOT NULL, idiv INTEGER NOT NULL,\n"
    "  cmp   INTEGER NOT NULL,\n"
    "  calls TEXT\n"
    ");\n"
    "CREATE INDEX statements_loop ON statements(loop_id);\n"
    "CREATE TABLE accesses(\n"
    "  id        INTEGER PRIMARY KEY,\n"
    "  stmt_id   INTEGER NOT NULL REFERENCES statements(id) ON DELETE CASCADE,\n"
    "  array     TEXT NOT NULL,\n"
    "  elem_size INTEGER NOT NULL,\n"
    "  is_write  INTEGER NOT NULL,\n"
    "  ndims     INTEGER NOT NULL,\n"
    "  nextents  INTEGER NOT NULL,\n"
    "  affine    INTEGER NOT NULL,\n"
    "  line      INTEGER,\n"
    "  col       INTEGER\n"
    ");\n"
    "CREATE INDEX accesses_stmt ON accesses(stmt_id);\n"
    "CREATE TABLE access_subscripts(\n"
    "  access_id INTEGER NOT NULL REFERENCES accesses(id) ON DELETE CASCADE,\n"
    "  dim       INTEGER NOT NULL,\n"
    "  expr_id   INTEGER REFERENCES expressions(id),\n"
    "  PRIMARY KEY(access_id, dim)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX access_subscripts_expr ON access_subscripts(expr_id);\n"
    "CREATE TABLE access_extents(\n"
    "  access_id INTEGER NOT NULL REFERENCES accesses(id) ON DELETE CASCADE,\n"
    "  dim       INTEGER NOT NULL,\n"
    "  expr_id   INTEGER REFERENCES expressions(id),\n"
    "  PRIMARY KEY(access_id, dim)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX access_extents_expr ON access_extents(expr_id);\n"
    "CREATE TABLE scalars(\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  stmt_id  INTEGER NOT NULL REFERENCES statements(id) ON DELETE CASCADE,\n"
    "  name     TEXT NOT NULL,\n"
    "  is_write INTEGER NOT NULL,\n"
    "  line     INTEGER,\n"
    "  col      INTEGER\n"
    ");\n"
    "CREATE INDEX scalars_stmt ON scalars(stmt_id);\n"
    "CREATE VIEW loop_summary AS\n"
    "SELECT l.id AS loop_id, l.file AS file, l.line AS line, l.col AS col,\n"
    "       f.name AS function, l.depth AS depth, p.line AS parent_line,\n"
    "       l.iv AS iv, t.text AS trip, l.pragmas AS pragmas,\n"
    "       l.idioms AS idioms, l.algorithm_class AS algorithm_class,\n"
    "       l.parallel AS parallel, l.coalescing AS coalescing,\n"
    "       l.cycles_per_iter AS cycles_per_iter\n"
    "  FROM loops l\n"
    "  JOIN functions f ON f.id = l.function_id\n"
    "  LEFT JOIN loops p ON p.id = l.parent_id\n"
    "  LEFT JOIN expressions t ON t.id = l.trip_id;\n"
    "PRAGMA user_version = 1;\n",
    /* 1 -> 2: IPDA -- inter-thread strides per access, dependence verdict per loop */
    "CREATE TABLE access_strides(\n"
    "  access_id      INTEGER NOT NULL REFERENCES accesses(id) ON DELETE CASCADE,\n"
    "  thread_loop_id INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  stride         TEXT,\n"
    "  class          TEXT NOT NULL,\n"
    "  inner_stride   TEXT,\n"
    "  inner_class    TEXT NOT NULL,\n"
    "  false_sharing  INTEGER NOT NULL,\n"
    "  PRIMARY KEY(access_id, thread_loop_id)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX access_strides_loop ON access_strides(thread_loop_id);\n"
    "CREATE TABLE loop_dependences(\n"
    "  loop_id INTEGER PRIMARY KEY REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  verdict TEXT NOT NULL,\n"
    "  reason  TEXT\n"
    ");\n"
    "PRAGMA user_version = 2;\n",
    /* 2 -> 3: the runtime's decisions and this host's calibration (issue 6) */
    "CREATE TABLE decisions(\n"
    "  id         INTEGER PRIMARY KEY,\n"
    "  loop_id    INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  bindings   TEXT,\n"
    "  threads    INTEGER,\n"
    "  device     TEXT,\n"
    "  cpu_s      REAL,\n"
    "  gpu_s      REAL,\n"
    "  xfer_s     REAL,\n"
    "  verdict    TEXT NOT NULL,\n"
    "  reason     TEXT,\n"
    "  decided_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))\n"
    ");\n"
    "CREATE INDEX decisions_loop ON decisions(loop_id);\n"
    "CREATE TABLE host_calibration(\n"
    "  id            INTEGER PRIMARY KEY,\n"
    "  host          TEXT NOT NULL,\n"
    "  cores         INTEGER,\n"
    "  freq_hz       REAL,\n"
    "  mem_bw        REAL,\n"
    "  peak_flops    REAL,\n"
    "  fork_ns       REAL,\n"
    "  join_ns       REAL,\n"
    "  sched_ns      REAL,\n"
    "  measured_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))\n"
    ");\n"
    "PRAGMA user_version = 3;\n",
    /* 3 -> 4: idioms, algorithm classes, op counts and footprints (issue 3) */
    "CREATE TABLE idiom_instances(\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  loop_id  INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  idiom    TEXT NOT NULL,\n"
    "  line     INTEGER,\n"
    "  col      INTEGER,\n"
    "  code     TEXT,\n"
    "  evidence TEXT,\n"
    "  detail   TEXT\n"
    ");\n"
    "CREATE INDEX idiom_instances_loop ON idiom_instances(loop_id);\n"
    "CREATE TABLE loop_classes(\n"
    "  loop_id      INTEGER PRIMARY KEY REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  class        TEXT NOT NULL,\n"
    "  w TEXT, m TEXT, d TEXT, c TEXT, u TEXT, f_complexity TEXT\n"
    ");\n"
    "CREATE TABLE loop_counts(\n"
    "  loop_id   INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  scope     TEXT NOT NULL,\n"
    "  fadd TEXT, fmul TEXT, fdiv TEXT, ffma TEXT, fmath TEXT, flops TEXT,\n"
    "  iops TEXT, loads TEXT, stores TEXT,\n"
    "  bytes_read TEXT, bytes_written TEXT, intensity TEXT,\n"
    "  PRIMARY KEY(loop_id, scope)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE loop_footprints(\n"
    "  loop_id       INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  array         TEXT NOT NULL,\n"
    "  bytes_read    TEXT,\n"
    "  bytes_written TEXT,\n"
    "  PRIMARY KEY(loop_id, array)\n"
    ") WITHOUT ROWID;\n"
    "PRAGMA user_version = 4;\n",

    /* 4 -> 5: llvm-mca cycles per (loop, target CPU) and the llvm-mca cache */
    "CREATE TABLE mca_results(\n"
    "  id                     INTEGER PRIMARY KEY,\n"
    "  loop_id                INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  target                 TEXT NOT NULL,\n"
    "  triple                 TEXT,\n"
    "  status                 TEXT NOT NULL,\n"
    "  reason                 TEXT,\n"
    "  asm_label              TEXT,\n"
    "  asm_copies             INTEGER,\n"
    "  asm_innermost          INTEGER,\n"
    "  vector                 INTEGER,\n"
    "  cycles_per_asm_iter    REAL,\n"
    "  block_rthroughput      REAL,\n"
    "  ipc                    REAL,\n"
    "  uops_per_iter          REAL,\n"
    "  top_resource           TEXT,\n"
    "  top_resource_cycles    REAL,\n"
    "  vf                     INTEGER,\n"
    "  ic                     INTEGER,\n"
    "  unroll                 INTEGER,\n"
    "  src_iters_per_asm_iter INTEGER,\n"
    "  cycles_per_src_iter    REAL,\n"
    "  whole_iter_millicycles TEXT,\n"
    "  UNIQUE(loop_id, target)\n"
    ");\n"
    "CREATE TABLE mca_cache(\n"
    "  tu_id               INTEGER NOT NULL REFERENCES translation_units(id) ON DELETE CASCADE,\n"
    "  key                 TEXT NOT NULL,\n"
    "  target              TEXT NOT NULL,\n"
    "  mca_version         TEXT NOT NULL,\n"
    "  status              TEXT NOT NULL,\n"
    "  reason              TEXT,\n"
    "  cycles_per_iter     REAL,\n"
    "  block_rthroughput   REAL,\n"
    "  ipc                 REAL,\n"
    "  uops_per_iter       REAL,\n"
    "  top_resource        TEXT,\n"
    "  top_resource_cycles REAL,\n"
    "  PRIMARY KEY(tu_id, key)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX mca_cache_key ON mca_cache(key);\n"
    "PRAGMA user_version = 5;\n",

    /* 5 -> 6: the GPU mapping clang's OpenMP offload gives each loop (issue 10) */
    "ALTER TABLE loops ADD COLUMN gpu_map TEXT;\n"
    "ALTER TABLE loops ADD COLUMN gpu_collapse INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE loops ADD COLUMN gpu_teams TEXT;\n"
    "ALTER TABLE loops ADD COLUMN gpu_threads TEXT;\n"
    "ALTER TABLE loops ADD COLUMN region_line INTEGER NOT NULL DEFAULT 0;\n"
    "PRAGMA user_version = 6;\n",

    /* 6 -> 7: bandwidth per access pattern and footprint measured by
     * `keel calibrate` (PMaC machine profile, issue 12 item 3) */
    "CREATE TABLE host_bandwidth(\n"
    "  calibration_id INTEGER NOT NULL REFERENCES host_calibration(id) ON DELETE CASCADE,\n"
    "  pattern        TEXT NOT NULL CHECK (pattern IN ('unit', 'strided', 'column', 'gather')),\n"
    "  footprint      REAL NOT NULL,\n"
    "  threads        INTEGER NOT NULL,\n"
    "  bytes_per_s    REAL NOT NULL,\n"
    "  PRIMARY KEY(calibration_id, pattern, footprint, threads)\n"
    ") WITHOUT ROWID;\n"
    "PRAGMA user_version = 7;\n",

    /* 7 -> 8: one model (issue 11): what libkeelrt's models need, stored by
     * keelcc per launch root, per access and enclosing loop, per statement.
     * Rows of TUs written before this version are absent: the runtime asks
     * for a recompile (SCHEMA.md "Launch facts"). */
    "CREATE TABLE launches(\n"
    "  loop_id    INTEGER PRIMARY KEY REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  region     INTEGER NOT NULL,\n"
    "  omp_target INTEGER NOT NULL\n"
    ");\n"
    "CREATE TABLE launch_loops(\n"
    "  launch_id INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  loop_id   INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  parallel  INTEGER NOT NULL,\n"
    "  thread    INTEGER NOT NULL,\n"
    "  kernel    INTEGER NOT NULL,\n"
    "  PRIMARY KEY(launch_id, loop_id)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX launch_loops_loop ON launch_loops(loop_id);\n"
    "CREATE TABLE access_loop_strides(\n"
    "  access_id INTEGER NOT NULL REFERENCES accesses(id) ON DELETE CASCADE,\n"
    "  loop_id   INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  dim       INTEGER NOT NULL,\n"
    "  stride    TEXT,\n"
    "  PRIMARY KEY(access_id, loop_id, dim)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX access_loop_strides_loop ON access_loop_strides(loop_id);\n"
    "ALTER TABLE statements ADD COLUMN est_cycles REAL;\n"
    "ALTER TABLE statements ADD COLUMN est_gpu_insts REAL;\n"
    "ALTER TABLE statements ADD COLUMN flops REAL;\n"
    "PRAGMA user_version = 8;\n",

    /* 8 -> 9: one set of rows per build variant of a source (issue 9 item 7,
     * issue 16 fault 21).  translation_units loses UNIQUE(path): a row is
     * (path, variant), variant = hash of the flags keelcc parsed the source
     * with, so one source compiled with -DT=float and -DT=double keeps both;
     * object = the file the compile wrote.  SQLite cannot drop a UNIQUE
     * constraint, so the table is rebuilt (the 12-step procedure of
     * https://sqlite.org/lang_altertable.html); migrate() runs the
     * migrations with foreign_keys off, so the DROP does not cascade into
     * the child tables, whose REFERENCES name the table, not the copy. */
    "CREATE TABLE translation_units_v7(\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  path        TEXT NOT NULL,\n"
    "  hash        TEXT,\n"
    "  args        TEXT,\n"
    "  compiler    TEXT,\n"
    "  directory   TEXT,\n"
    "  status      TEXT NOT NULL DEFAULT 'ok',\n"
    "  message     TEXT,\n"
    "  compiled_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),\n"
    "  variant     TEXT,\n"
    "  object      TEXT\n"
    ");\n"
    "INSERT INTO translation_units_v7(id, path, hash, args, compiler, directory, status,"
    " message, compiled_at)\n"
    "  SELECT id, path, hash, args, compiler, directory, status, message, compiled_at"
    " FROM translation_units;\n"
    "DROP TABLE translation_units;\n"
    "ALTER TABLE translation_units_v7 RENAME TO translation_units;\n"
    "CREATE UNIQUE INDEX translation_units_variant ON translation_units(path, variant);\n"
    "PRAGMA user_version = 9;\n",

    /* 9 -> 10: keelcc's direct mode (issue 11 item 7, plugin/keelcc.c,
     * db/db_direct.h): per stored build, the key of the command that
     * produced it (keelcc, compiler, flags, source, database, modes), the
     * files its parse read with their hashes, the instrumented text and
     * keel's warnings.  The row hangs off its translation unit: when a
     * later compile replaces the build's rows, the entry goes with them. */
    "CREATE TABLE direct_cache(\n"
    "  tu_id    INTEGER PRIMARY KEY REFERENCES translation_units(id) ON DELETE CASCADE,\n"
    "  key      TEXT NOT NULL,\n"
    "  inputs   TEXT NOT NULL,\n"
    "  text     BLOB,\n"
    "  warnings TEXT\n"
    ");\n"
    "CREATE INDEX direct_cache_key ON direct_cache(key);\n"
    "PRAGMA user_version = 10;\n",
    /* 10 -> 11: why a loop's counts are a bound (analysis/counts.c): NULL
     * when summed exactly, else why not, e.g. "line 3: body of degree 7 in
     * i (above 6): count is body x trip, i left in place". */
    "ALTER TABLE loop_counts ADD COLUMN reason TEXT;\n"
    "PRAGMA user_version = 11;\n",
    /* 11 -> 12: direct mode across commands (plugin/keelcc.c): the
     * header search lists (-I, -iquote, -isystem, -idirafter, -iprefix
     * options and the working folder, hashed) under which each stored
     * build is known to read the same files, one 32-hex-digit hash per
     * line; the key no longer covers them. */
    "ALTER TABLE direct_cache ADD COLUMN search TEXT;\n"
    "PRAGMA user_version = 12;\n",
    /* 12 -> 13: the run-time overlap condition of a launch (analysis/
     * launch.h, launch_overlap): per access of a base whose distinctness
     * the nest's verdict relies on, the base's name, the access's element
     * offset from it and whether the call can pass the base's address.
     * libkeelrt offloads such a nest only when the ranges are disjoint. */
    "CREATE TABLE launch_overlap(\n"
    "  launch_id INTEGER NOT NULL REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  access_id INTEGER NOT NULL REFERENCES accesses(id) ON DELETE CASCADE,\n"
    "  base      TEXT NOT NULL,\n"
    "  offset    TEXT,\n"
    "  checkable INTEGER NOT NULL,\n"
    "  PRIMARY KEY(launch_id, access_id)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX launch_overlap_access ON launch_overlap(access_id);\n"
    "PRAGMA user_version = 13;\n",
    /* 13 -> 14: the host fallback of an OpenMP `target` region that
     * `keel calibrate` measures (runtime/calib_omp.c): ns per region beyond
     * the same loop under `parallel for`; NULL in rows measured before. */
    "ALTER TABLE host_calibration ADD COLUMN target_fallback_ns REAL;\n"
    "PRAGMA user_version = 14;\n",
    /* 14 -> 15: the last-level TLB `keel calibrate` measures
     * (runtime/calib_tlb.c): the page the programs' arrays get, the
     * entries, ns per miss; and the dependent-chain latencies of the
     * recurrence bound (runtime/calib.c), `fadd=2 fmul=3 ...`; NULL in
     * rows measured before. */
    "ALTER TABLE host_calibration ADD COLUMN page_bytes REAL;\n"
    "ALTER TABLE host_calibration ADD COLUMN tlb_entries REAL;\n"
    "ALTER TABLE host_calibration ADD COLUMN tlb_miss_ns REAL;\n"
    "ALTER TABLE host_calibration ADD COLUMN latencies TEXT;\n"
    "PRAGMA user_version = 15;\n",
    /* 15 -> 16: this host's caches as `keel calibrate` reads them (the
     * operating system's report of the CPU's cache descriptors,
     * runtime/calib_cache.c): the L1 data cache and the L2 per core, the
     * L3 of the whole host, bytes; NULL in rows measured before. */
    "ALTER TABLE host_calibration ADD COLUMN l1_bytes REAL;\n"
    "ALTER TABLE host_calibration ADD COLUMN l2_bytes REAL;\n"
    "ALTER TABLE host_calibration ADD COLUMN l3_bytes REAL;\n"
    "PRAGMA user_version = 16;\n",
    /* 16 -> 17: what many threads get, as `keel calibrate` measures it
     * (runtime/calib_omp.c): with T = 1, 2, 4 ... all threads busy at once,
     * the median thread's dependent-chain clock (Hz) and independent
     * additions per second, and the STREAM triad on T threads (bytes/s),
     * as "T:clock:work:triad ..."; NULL in rows measured before. */
    "ALTER TABLE host_calibration ADD COLUMN thread_curve TEXT;\n"
    "PRAGMA user_version = 17;\n",
    /* 17 -> 18: the loop model of each launch nest as keelcc built it, in
     * the packed form a linked program carries (analysis/nest_pack.h,
     * opaque to db/), so that libkeelrt and the link step read one blob
     * instead of rebuilding the nest from its rows.  Rows of TUs written
     * before this version have none (readers fall back to the rows) until
     * the source is recompiled. */
    "CREATE TABLE nest_packs(\n"
    "  loop_id INTEGER PRIMARY KEY REFERENCES loops(id) ON DELETE CASCADE,\n"
    "  packed  BLOB NOT NULL\n"
    ");\n"
    "PRAGMA user_version = 18;\n",
};

const int db_nmigrations = sizeof db_migrations / sizeof db_migrations[0];

_Static_assert(sizeof db_migrations / sizeof db_migrations[0] == DB_SCHEMA_VERSION,
               "one migration per schema version");
