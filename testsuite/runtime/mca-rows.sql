-- mca-rows.sql -- a copy of a keelcc database whose rows say more than its
-- stored models: llvm-mca figures for two target CPUs on the innermost
-- loops (znver5 on every one, pwr9 on two in three), so that host
-- profiles of different CPUs pick different figures; the stored models
-- go, so the runtime reads the rows (the route of a database an older
-- keelcc wrote).  Read by agree.sh and bindgold.sh (sqlite3 DB <FILE).
DELETE FROM nest_packs;
INSERT INTO mca_results(loop_id, target, status, cycles_per_src_iter)
  SELECT id, 'znver5', 'ok', 1.25 + (id % 5) * 0.5 FROM loops
   WHERE id NOT IN (SELECT parent_id FROM loops WHERE parent_id IS NOT NULL);
INSERT INTO mca_results(loop_id, target, status, cycles_per_src_iter)
  SELECT id, 'pwr9', 'ok', 2.0 + (id % 4) * 0.75 FROM loops
   WHERE id % 3 != 0 AND id NOT IN (SELECT parent_id FROM loops WHERE parent_id IS NOT NULL);
