/* apps/matmul.h: host side of the matmul stream's kernel (matmul.cl): the
 * inputs, launches through the runtime, and the CPU check of sampled
 * entries. Errors: int functions return 0 on success, -1 with a message. */
#ifndef APPS_MATMUL_H
#define APPS_MATMUL_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"

#define APP_MATMUL_FILE "matmul.cl"
#define APP_MATMUL_KERNEL "matmul"

/* Entries of the inputs: small integers, so products are exact in float. */
float app_matmul_a(int n, int i, int j);
float app_matmul_b(int n, int i, int j);
/* The exact value of C[i][j] for a launch with `salt`. */
float app_matmul_expected(int n, int i, int j, float salt);

typedef struct app_matmul app_matmul;
/* Allocates and fills A, B and C (n x n, n in 8..4096) in ctx. */
int app_matmul_setup(ck_context *ctx, int n, app_matmul **out, char *err, size_t err_len);
/* Launches matmul with `groups` work-groups; each launch should use a
 * different salt so that a stale C is detected. */
int app_matmul_launch(app_matmul *m, unsigned groups, float salt, ck_launch **out, char *err, size_t err_len);
/* Reads `samples` entries of C (pseudo-random, from sample_seed, always
 * including the corners) and compares them with app_matmul_expected.
 * Returns 0 if all match, 1 on a mismatch (described in msg), -1 on error. */
int app_matmul_check(app_matmul *m, float salt, unsigned samples, uint64_t sample_seed, char *msg, size_t msg_len);
int app_matmul_size(const app_matmul *m);
void app_matmul_free(app_matmul *m);

#endif
