/* apps/common/rng.h: the deterministic random numbers every generator uses
 * (splitmix64), so that a seed names the same input on every machine. */
#ifndef APPS_RNG_H
#define APPS_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t state;
} app_rng;

static inline void app_rng_seed(app_rng *r, uint64_t seed) { r->state = seed * 0x9E3779B97F4A7C15ull + 1; }

static inline uint64_t app_rng_next(app_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform double in [0, 1). */
static inline double app_rng_unit(app_rng *r)
{
    return (double)(app_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [0, n), n > 0. */
static inline uint64_t app_rng_below(app_rng *r, uint64_t n) { return app_rng_next(r) % n; }

#endif
