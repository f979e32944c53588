/* attr.h - typed attributes: setting an attribute to a plain value, and
 * reading one as a number, truth value or string, for modules with state. */

/*
 * The getters convert the way HTCondor's daemons read their knobs and job
 * attributes (EvaluateAttrNumber and friends).
 */
#ifndef CA_ATTR_H
#define CA_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ad.h"
#include "eval.h"
#include "value.h"

/* Set name in ad to a literal (inserted, or replaced in place). */
void ca_set_value(ca_ad *ad, const char *name, ca_value v);
void ca_set_int(ca_ad *ad, const char *name, int64_t i);
void ca_set_real(ca_ad *ad, const char *name, double r);
void ca_set_bool(ca_ad *ad, const char *name, bool b);
/* A string (copied); nothing when s is NULL. */
void ca_set_str(ca_ad *ad, const char *name, const char *s);
void ca_set_strn(ca_ad *ad, const char *name, const char *s, size_t len);
/* Set name in ad to the literal v (copied); false when it already was v.
 * The value is held in the entry, with no node until one is asked for (a
 * list, a record, or a value the entry cannot say, as a node); a literal
 * node of the ad's own takes the new value in its place (a tree shared
 * with other ads is replaced, never changed). So an ad set again and
 * again does not grow. */
bool ca_ad_set_lit(ca_ad *ad, const ca_name *name, const char *spell, ca_value v);
/* The same without changing any node: the expression name had is left as
 * it is, only no longer the ad's. What a program sets again and again on
 * a copy it borrowed (ca_ad_pack_borrowed). */
bool ca_ad_hold(ca_ad *ad, const ca_name *name, ca_value v);
/* Remove name from ad; whether it was there. */
bool ca_unset(ca_ad *ad, const char *name);
bool ca_has(const ca_ad *ad, const char *name);

/* The getters evaluate name in ad (MY = ad, no TARGET) with cx and return 1
 * with *out set, 0 when ad has no such attribute or it is UNDEFINED (out
 * untouched, so it may hold a default), -1 when its value is of another
 * kind (out untouched). A string lives in ad or in cx->scratch.
 *   ca_get_int:  an integer; a real truncated toward zero (when it fits);
 *                a bool as 0 or 1
 *   ca_get_num:  an integer, real or bool as a double (NaN is -1)
 *   ca_get_bool: a bool, or a number (nonzero is true)
 *   ca_get_str:  a string (*len may be NULL) */
int ca_get_int(ca_ctx *cx, const ca_ad *ad, const char *name, int64_t *out);
int ca_get_num(ca_ctx *cx, const ca_ad *ad, const char *name, double *out);
int ca_get_bool(ca_ctx *cx, const ca_ad *ad, const char *name, bool *out);
int ca_get_str(ca_ctx *cx, const ca_ad *ad, const char *name, const char **out, size_t *len);
/* The same by a name interned already (ca_intern): what a loop that reads
 * the same attributes of many ads uses, so that it looks the text up once. */
int ca_get_int_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, int64_t *out);
int ca_get_num_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, double *out);
int ca_get_bool_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, bool *out);
int ca_get_str_nm(ca_ctx *cx, const ca_ad *ad, const ca_name *name, const char **out,
    size_t *len);

/* A value as an integer, with ca_get_int's rules: 1, 0 (UNDEFINED) or -1. */
int ca_value_int(ca_value v, int64_t *out);
/* A value as a double, with ca_get_num's rules. */
int ca_value_num(ca_value v, double *out);

/* "CLUSTER.PROC", the way HTCondor names a job; into buf (24 bytes do). */
#define CA_JOBID_LEN 48
void ca_jobid_format(char *buf, size_t len, int64_t cluster, int64_t proc);
/* A job's id from its ClusterId and ProcId: 1, or 0 when either is missing
 * or not an integer (buf then empty). */
int ca_jobid(ca_ctx *cx, const ca_ad *job, char *buf, size_t len);

#endif
