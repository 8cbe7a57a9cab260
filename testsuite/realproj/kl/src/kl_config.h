/* kl_config.h -- kl's private configuration, found by a quoted include from
 * the sources' own folder (never from $TMPDIR or another -iquote folder). */
#define KL_BLOCK 8
#define KL_NAME "kl"
