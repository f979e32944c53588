/* builtins.c - the table of builtin functions and their lookup by name; the
 * functions themselves are in bi_*.c, one file per family. */
#include <stddef.h>

#include "builtins.h"
#include "builtins_int.h"
#include "dict.h"

#define ANY	(-1)
#define S(name, min, max, fn, op)	{ name, min, max, fn, NULL, op }	/* strict */
#define L(name, min, max, fn, op)	{ name, min, max, NULL, fn, op }	/* lazy */

/* Sorted by name, ignoring ASCII case ('_' sorts before letters). */
static const ca_builtin table[] = {
	S("absTime", 0, 2, ca_bi_abstime, 0),
	S("allCompare", 3, 3, ca_bi_compare, 1),
	S("anyCompare", 3, 3, ca_bi_compare, 0),
	S("argsToList", 1, 2, ca_bi_args_to_list, 0),
	S("avg", 1, 1, ca_bi_summary, AVG),
	S("bool", 1, 1, ca_bi_bool, 0),
	S("ceil", 1, 1, ca_bi_round, R_CEILING),
	S("ceiling", 1, 1, ca_bi_round, R_CEILING),
	L("countMatches", 2, 2, ca_bi_each_context, 1),
	S("currentTime", 0, 0, ca_bi_current_time, 0),
	S("dayTime", 0, 0, ca_bi_day_time, 0),
	S("debug", 1, 1, ca_bi_debug, 0),
	S("envV1ToV2", 1, 1, ca_bi_env_v1_to_v2, 0),
	S("eval", 1, 1, ca_bi_eval, 0),
	L("evalInEachContext", 2, 2, ca_bi_each_context, 0),
	S("floor", 1, 1, ca_bi_round, R_FLOOR),
	S("formatTime", 0, 2, ca_bi_format_time, 0),
	S("getDayOfMonth", 1, 1, ca_bi_time_field, F_DAYOFMONTH),
	S("getDayOfWeek", 1, 1, ca_bi_time_field, F_DAYOFWEEK),
	S("getDayOfYear", 1, 1, ca_bi_time_field, F_DAYOFYEAR),
	S("getDays", 1, 1, ca_bi_time_field, F_DAYS),
	S("getHours", 1, 1, ca_bi_time_field, F_HOURS),
	S("getMinutes", 1, 1, ca_bi_time_field, F_MINUTES),
	S("getMonth", 1, 1, ca_bi_time_field, F_MONTH),
	S("getSeconds", 1, 1, ca_bi_time_field, F_SECONDS),
	S("getYear", 1, 1, ca_bi_time_field, F_YEAR),
	S("identicalMember", 2, 2, ca_bi_member, 1),
	L("ifThenElse", 3, 3, ca_bi_if, 0),
	S("int", 1, 1, ca_bi_number, CA_INT),
	S("interval", 1, 1, ca_bi_interval, 0),
	S("isAbsTime", 1, 1, ca_bi_is, CA_ABSTIME),
	S("isBoolean", 1, 1, ca_bi_is, CA_BOOL),
	S("isClassAd", 1, 1, ca_bi_is, CA_AD),
	S("isError", 1, 1, ca_bi_is, CA_ERROR),
	S("isInteger", 1, 1, ca_bi_is, CA_INT),
	S("isList", 1, 1, ca_bi_is, CA_LIST),
	S("isReal", 1, 1, ca_bi_is, CA_REAL),
	S("isRelTime", 1, 1, ca_bi_is, CA_RELTIME),
	S("isString", 1, 1, ca_bi_is, CA_STRING),
	S("isUndefined", 1, 1, ca_bi_is, CA_UNDEFINED),
	S("join", 0, ANY, ca_bi_join, 0),
	S("listToArgs", 1, 2, ca_bi_list_to_args, 0),
	S("max", 1, 1, ca_bi_summary, MAX),
	S("member", 2, 2, ca_bi_member, 0),
	S("mergeEnvironment", 0, ANY, ca_bi_merge_env, 0),
	S("min", 1, 1, ca_bi_summary, MIN),
	S("pow", 2, 2, ca_bi_pow, 0),
	S("quantize", 2, 2, ca_bi_quantize, 0),
	S("random", 0, 1, ca_bi_random, 0),
	S("real", 1, 1, ca_bi_number, CA_REAL),
	S("regexp", 2, 3, ca_bi_regexp, 0),
	S("regexpMember", 2, 3, ca_bi_regexp_member, 0),
	S("regexps", 3, 4, ca_bi_substitute, SUB_REGEXPS),
	S("relTime", 1, 1, ca_bi_reltime, 0),
	S("replace", 3, 4, ca_bi_substitute, SUB_REPLACE),
	S("replaceAll", 3, 4, ca_bi_substitute, SUB_REPLACE_ALL),
	S("round", 1, 1, ca_bi_round, R_ROUND),
	S("size", 1, 1, ca_bi_size, 0),
	S("split", 1, 2, ca_bi_split, 0),
	S("splitSlotName", 1, 1, ca_bi_split_at, 1),
	S("splitTime", 1, 1, ca_bi_split_time, 0),
	S("splitUserName", 1, 1, ca_bi_split_at, 0),
	S("strcat", 0, ANY, ca_bi_strcat, 0),
	S("strcmp", 2, 2, ca_bi_strcmp, 0),
	S("stricmp", 2, 2, ca_bi_strcmp, 1),
	S("string", 1, 1, ca_bi_string, 0),
	S("stringList_regexpMember", 2, 4, ca_bi_sl_regexp_member, 0),
	S("stringListAvg", 1, 2, ca_bi_sl_summary, AVG),
	S("stringListIMember", 2, 3, ca_bi_sl_member, 1),
	S("stringListISubsetMatch", 2, 3, ca_bi_sl_subset, 1),
	S("stringListMax", 1, 2, ca_bi_sl_summary, MAX),
	S("stringListMember", 2, 3, ca_bi_sl_member, 0),
	S("stringListMin", 1, 2, ca_bi_sl_summary, MIN),
	S("stringListsIntersect", 2, 3, ca_bi_sl_intersect, 0),
	S("stringListSize", 1, 2, ca_bi_sl_size, 0),
	S("stringListSubsetMatch", 2, 3, ca_bi_sl_subset, 0),
	S("stringListSum", 1, 2, ca_bi_sl_summary, SUM),
	S("substr", 2, 3, ca_bi_substr, 0),
	S("sum", 1, 1, ca_bi_summary, SUM),
	S("time", 0, 0, ca_bi_time, 0),
	S("timeZoneOffset", 0, 0, ca_bi_tz_offset, 0),
	S("toLower", 1, 1, ca_bi_case, 0),
	S("toUpper", 1, 1, ca_bi_case, 1),
	L("unparse", 1, 1, ca_bi_unparse, 0),
	L("unresolved", 1, 2, ca_bi_unresolved, 0),
	S("version_in_range", 3, 3, ca_bi_version_in_range, 0),
	S("versioncmp", 2, 2, ca_bi_version, V_CMP),
	S("versionEQ", 2, 2, ca_bi_version, V_EQ),
	S("versionGE", 2, 2, ca_bi_version, V_GE),
	S("versionGT", 2, 2, ca_bi_version, V_GT),
	S("versionLE", 2, 2, ca_bi_version, V_LE),
	S("versionLT", 2, 2, ca_bi_version, V_LT),
};

#define NTABLE	(sizeof table / sizeof table[0])

const ca_builtin *
ca_builtin_find(const char *name, size_t len)
{
	return ca_table_find(table, NTABLE, sizeof table[0], name, len);
}

const ca_builtin *
ca_builtin_table(size_t *n)
{
	*n = NTABLE;
	return table;
}
