/* bi_math.c - builtins of numbers: floor(), ceiling(), round(), pow(),
 * quantize() and random(). */
#include <math.h>
#include <stdint.h>

#include "builtins_int.h"
#include "eval.h"

/* floor(x), ceiling(x) and round(x) (op): integers unchanged, anything else
 * through real() (UNDEFINED is an ERROR), then rounded to an integer;
 * round() to nearest with halves to even (HTCondor uses rint: 2.5 is 2). */
ca_value
ca_bi_round(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	static double (*const how[])(double) = { floor, ceil, rint };
	static const char *const why[][3] = {
		{ "floor: argument is undefined", "floor: argument is not a number",
		    "floor: not a finite number in the integer range" },
		{ "ceiling: argument is undefined", "ceiling: argument is not a number",
		    "ceiling: not a finite number in the integer range" },
		{ "round: argument is undefined", "round: argument is not a number",
		    "round: not a finite number in the integer range" },
	};
	ca_value v = argv[0];
	double r;
	int64_t i;

	if (v.kind == CA_INT || v.kind == CA_ERROR)
		return v;
	switch (ca_bi_conv_real(v, &r)) {
	case N_UNDEF:
		return ca_error(why[op][0]);
	case N_BAD:
		return ca_error(why[op][1]);
	default:
		break;
	}
	if (!ca_bi_real_to_int(how[op](r), &i))
		return ca_error(why[op][2]);
	return ca_int(i);
}

/* pow(b, e): integers with e >= 0 give the exact integer (ERROR on
 * overflow; HTCondor rounds a double); otherwise the real power. */
ca_value
ca_bi_pow(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value b = argv[0], e = argv[1];
	double x, y;

	if (b.kind == CA_INT && e.kind == CA_INT && e.u.i >= 0) {
		int64_t r = 1, base = b.u.i;
		uint64_t n = (uint64_t)e.u.i;
		while (n) {
			if ((n & 1) && __builtin_mul_overflow(r, base, &r))
				return ca_error("pow: integer overflow");
			n >>= 1;
			if (n && __builtin_mul_overflow(base, base, &base))
				return ca_error("pow: integer overflow");
		}
		return ca_int(r);
	}
	if (b.kind == CA_ERROR)
		return b;
	if (e.kind == CA_ERROR)
		return e;
	int kb = ca_bi_conv_real(b, &x), ke = ca_bi_conv_real(e, &y);
	if (kb == N_UNDEF || ke == N_UNDEF)
		return ca_error("pow: argument is undefined");
	if (kb != N_OK || ke != N_OK)
		return ca_error("pow: argument is not a number");
	return ca_real(pow(x, y));
}

/* quantize(a, b): the smallest multiple of b not below a (int if a and b
 * are; b == 0 gives a). b a list: the first element >= a, as it is, else
 * a quantized by the last element. */
ca_value
ca_bi_quantize(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value a = argv[0], b = argv[1], base;
	double ra, rb;

	if (a.kind == CA_ERROR)
		return a;
	switch (ca_bi_conv_real(a, &ra)) {
	case N_UNDEF:
		return ca_error("quantize: value is undefined");
	case N_BAD:
		return ca_error("quantize: value is not a number");
	default:
		break;
	}
	if (b.kind == CA_LIST) {
		base = ca_real(0.0);	/* an empty list: do not quantize */
		rb = 0.0;
		for (uint32_t i = 0; i < b.x.len; i++) {
			base = b.u.items[i];
			if (ca_bi_conv_real(base, &rb) != N_OK)
				return ca_error("quantize: list element is not a number");
			if (rb >= ra)
				return base;
		}
	} else {
		if (b.kind == CA_ERROR)
			return b;
		if (ca_bi_conv_real(b, &rb) != N_OK)
			return ca_error("quantize: quantum is not a number");
		base = b;
	}
	if (base.kind == CA_INT) {
		int64_t q = base.u.i;
		if (q == 0)
			return a;
		if (a.kind == CA_INT) {
			/* ((a + q - 1) / q) * q, wrapping as integer arithmetic
			 * does (INT64_MIN / -1 is INT64_MAX, as for '/') */
			int64_t n = (int64_t)((uint64_t)a.u.i + (uint64_t)q - 1);
			int64_t d = n == INT64_MIN && q == -1 ? INT64_MAX : n / q;
			return ca_int((int64_t)((uint64_t)d * (uint64_t)q));
		}
		return ca_real(ceil(ra / (double)q) * (double)q);
	}
	if (rb >= -1e-8 && rb <= 1e-8)
		return a;
	return ca_real(ceil(ra / rb) * rb);
}

/* splitmix64 over cx->rng: seeded by the context, so runs can repeat. */
static uint64_t
rng_next(ca_ctx *cx)
{
	uint64_t z = (cx->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* random(): real in [0,1); random(n) int in [0,n); random(r) real in [0,r).
 * A bound that is not positive fails the evaluation, as in HTCondor. */
ca_value
ca_bi_random(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	if (argc == 0)
		return ca_real((double)(rng_next(cx) >> 11) * 0x1p-53);
	ca_value v = argv[0];
	if (v.kind == CA_INT) {
		if (v.u.i <= 0)
			return ca_eval_fail(cx, "random: bound is not positive");
		uint64_t n = (uint64_t)v.u.i, lim = UINT64_MAX - UINT64_MAX % n, x;
		do
			x = rng_next(cx);
		while (x >= lim);
		return ca_int((int64_t)(x % n));
	}
	if (v.kind == CA_REAL) {
		if (v.u.r <= 0)
			return ca_eval_fail(cx, "random: bound is not positive");
		if (!isfinite(v.u.r))
			return ca_error("random: bound is not a finite number");
		return ca_real(v.u.r * (double)(rng_next(cx) >> 11) * 0x1p-53);
	}
	if (v.kind == CA_ERROR)
		return v;
	return ca_error("random: bound is not a number");
}
