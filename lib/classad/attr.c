/* attr.c - typed attributes (attr.h): literal setters and the converting
 * getters every module reads ads with. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ad_int.h"
#include "attr.h"
#include "expr.h"

/* name of ad set to v, unless it is v already; own: a literal node of
 * the attribute's is ad's own, to be changed in place */
static bool
set_lit(ca_ad *ad, const ca_name *name, const char *spell, ca_value v, bool own)
{
	ca_attr *at = ca_ad_find(ad, name);
	ca_value old;

	if (at != NULL && ca_attr_lit_in(ad, at, &old) && ca_value_same(old, v))
		return false;
	v = ca_value_copy_into(ad->arena, v);
	if (own && at != NULL && at->lit_cached == 0 && at->expr_->node == CA_N_LIT &&
	    !(at->expr_->flags & CA_EXPR_SHARED)) {
		/* the ad's own node (something asked for it): the new value
		 * in its place, so that setting again and again makes none */
		at->expr_->u.lit = v;
		at->as_read = 0;
		ca_ad_changed(ad, name);
		return true;
	}
	if (!ca_attr_holds(v)) {
		ca_ad_set(ad, name, spell, ca_expr_lit(ad->arena, v));
		return true;
	}
	ca_ad_put_value(ad, name, spell, at, v);
	return true;
}

bool
ca_ad_set_lit(ca_ad *ad, const ca_name *name, const char *spell, ca_value v)
{
	return set_lit(ad, name, spell, v, true);
}

bool
ca_ad_hold(ca_ad *ad, const ca_name *name, ca_value v)
{
	return set_lit(ad, name, NULL, v, false);
}

void
ca_set_value(ca_ad *ad, const char *name, ca_value v)
{
	size_t len = strlen(name);
	/* mostly a program's literal names, set again and again: found by
	 * their text's address (ca_intern_find) before they are hashed */
	const ca_name *nm = ca_intern_find(name, len);

	(void)ca_ad_set_lit(ad, nm != NULL ? nm : ca_intern(name, len), NULL, v);
}

void
ca_set_int(ca_ad *ad, const char *name, int64_t i)
{
	ca_set_value(ad, name, ca_int(i));
}

void
ca_set_real(ca_ad *ad, const char *name, double r)
{
	ca_set_value(ad, name, ca_real(r));
}

void
ca_set_bool(ca_ad *ad, const char *name, bool b)
{
	ca_set_value(ad, name, ca_bool(b));
}

void
ca_set_strn(ca_ad *ad, const char *name, const char *s, size_t len)
{
	ca_set_value(ad, name, ca_str(s, (uint32_t)len));
}

void
ca_set_str(ca_ad *ad, const char *name, const char *s)
{
	if (s != NULL)
		ca_set_strn(ad, name, s, strlen(s));
}

bool
ca_unset(ca_ad *ad, const char *name)
{
	const ca_name *n = ca_intern_find(name, strlen(name));

	return n != NULL && ca_ad_delete(ad, n);
}

bool
ca_has(const ca_ad *ad, const char *name)
{
	return ca_ad_findn(ad, name, strlen(name)) != NULL;
}

/* A number's kind: 1 an integer (a bool as 0 or 1) in *i, 2 a real in *r,
 * 0 undefined, -1 anything else. */
static int
num_kind(ca_value v, int64_t *i, double *r)
{
	switch (v.kind) {
	case CA_UNDEFINED:
		return 0;
	case CA_INT:
		*i = v.u.i;
		return 1;
	case CA_BOOL:
		*i = v.u.b;
		return 1;
	case CA_REAL:
		*r = v.u.r;
		return 2;
	default:
		return -1;
	}
}

int
ca_value_int(ca_value v, int64_t *out)
{
	int64_t i = 0;
	double r = 0;
	int k = num_kind(v, &i, &r);

	if (k == 2) {
		if (!(r > -9.2e18 && r < 9.2e18))
			return -1;
		i = (int64_t)r;
		k = 1;
	}
	if (k == 1)
		*out = i;
	return k;
}

int
ca_value_num(ca_value v, double *out)
{
	int64_t i = 0;
	double r = 0;
	int k = num_kind(v, &i, &r);

	if (k == 1)
		*out = (double)i;
	else if (k == 2) {
		if (isnan(r))
			return -1;
		*out = r;
		k = 1;
	}
	return k;
}

/* The value of name in ad (UNDEFINED when ad has none): a literal read in
 * place, anything else evaluated. */
static ca_value
get(ca_ctx *cx, const ca_ad *ad, const ca_name *name)
{
	ca_attr *at = name != NULL ? ca_ad_find(ad, name) : NULL;
	ca_value v;

	if (at == NULL)
		return ca_undef();
	if (ca_attr_lit(at, &v))
		return v;
	return ca_eval_attr_nm(cx, ad, NULL, name);
}

static const ca_name *
named(const char *name)
{
	return ca_intern_find(name, strlen(name));
}

static int
as_bool(ca_value v, bool *out)
{
	int t;

	if (v.kind == CA_UNDEFINED)
		return 0;
	if ((t = ca_value_truth(v)) < 0)
		return -1;
	*out = t;
	return 1;
}

static int
as_str(ca_value v, const char **out, size_t *len)
{
	if (v.kind == CA_UNDEFINED)
		return 0;
	if (v.kind != CA_STRING)
		return -1;
	*out = v.u.s;
	if (len != NULL)
		*len = v.x.len;
	return 1;
}

int
ca_get_int(ca_ctx *cx, const ca_ad *ad, const char *name, int64_t *out)
{
	return ca_value_int(get(cx, ad, named(name)), out);
}

int
ca_get_num(ca_ctx *cx, const ca_ad *ad, const char *name, double *out)
{
	return ca_value_num(get(cx, ad, named(name)), out);
}

int
ca_get_bool(ca_ctx *cx, const ca_ad *ad, const char *name, bool *out)
{
	return as_bool(get(cx, ad, named(name)), out);
}

int
ca_get_str(ca_ctx *cx, const ca_ad *ad, const char *name, const char **out, size_t *len)
{
	return as_str(get(cx, ad, named(name)), out, len);
}

int
ca_get_int_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, int64_t *out)
{
	return ca_value_int(get(cx, ad, name), out);
}

int
ca_get_num_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, double *out)
{
	return ca_value_num(get(cx, ad, name), out);
}

int
ca_get_bool_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, bool *out)
{
	return as_bool(get(cx, ad, name), out);
}

int
ca_get_str_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, const char **out, size_t *len)
{
	return as_str(get(cx, ad, name), out, len);
}

/* The decimal digits of v at buf (at most 20 bytes, no NUL); their count.
 * Job ids are formatted for every job of every step: snprintf's parsing
 * of its format showed in the profiles. */
static size_t
put_int(char *buf, int64_t v)
{
	char rev[20];
	size_t n = 0, k = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		rev[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		buf[k++] = '-';
	while (n > 0)
		buf[k++] = rev[--n];
	return k;
}

void
ca_jobid_format(char *buf, size_t len, int64_t cluster, int64_t proc)
{
	char text[CA_JOBID_LEN];
	size_t n = put_int(text, cluster);

	text[n++] = '.';
	n += put_int(text + n, proc);
	/* as snprintf would: what fits, and the terminating NUL */
	if (len == 0)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
}

int
ca_jobid(ca_ctx *cx, const ca_ad *job, char *buf, size_t len)
{
	int64_t c, p;

	if (len > 0)
		buf[0] = '\0';
	if (ca_get_int(cx, job, "ClusterId", &c) != 1 || ca_get_int(cx, job, "ProcId", &p) != 1)
		return 0;
	ca_jobid_format(buf, len, c, p);
	return 1;
}
