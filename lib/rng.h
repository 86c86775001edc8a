/*
 * rng.h - the one random number generator of ftlkit: xoshiro256**
 * (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
 * ACM TOMS 2021) seeded through splitmix64, so that nearby seeds give
 * unrelated streams and the state is never all zero. Small, fast, and
 * reproducible across machines: the model's random policies and fills
 * and tracegen's workloads all draw from it.
 */
#ifndef FTLKIT_RNG_H
#define FTLKIT_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* splitmix64: one step of the seed expander (also a good 64-bit mix). */
static inline uint64_t rng_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix(&seed);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return out;
}

/* Uniform in [0, n) for n < 2^32, one draw: Lemire's multiply-shift on
 * the upper 32 bits (bias below 2^-32; the model's hot loop). */
static inline uint32_t rng_below32(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [0, n), n > 0, without bias: Lemire's multiply-shift with
 * rejection ("Fast random integer generation in an interval", ACM TOMP
 * 2019); the rejection almost never happens. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t lo = (uint64_t)m;
	if (lo < n) {
		uint64_t floor = -n % n;
		while (lo < floor) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform in [0, 1), 53 random bits. */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
