/* crontab.h - HTCondor CronTab schedules (cron_minute ... cron_day_of_week):
 * parsing into value sets and the next run time in local time. */
#ifndef CA_CRONTAB_H
#define CA_CRONTAB_H

#include <stddef.h>
#include <stdint.h>

#include "classad.h"

/* ORDER FIELDS: the name tables in crontab.c follow this order. */
enum ca_cron_field {
	CA_CRON_MINUTE,		/* cron_minute, CronMinute: 0-59 */
	CA_CRON_HOUR,		/* cron_hour, CronHour: 0-23 */
	CA_CRON_MDAY,		/* cron_day_of_month, CronDayOfMonth: 1-31 */
	CA_CRON_MONTH,		/* cron_month, CronMonth: 1-12 */
	CA_CRON_WDAY,		/* cron_day_of_week, CronDayOfWeek: 0-7, Sunday 0 or 7 */
	CA_CRON_NFIELDS
};

/* Set when the day field's values are not its whole range (see the day
 * rule at ca_cron_next). */
#define CA_CRON_MDAY_RESTRICTS	0x1
#define CA_CRON_WDAY_RESTRICTS	0x2

/* A parsed schedule: one bit per allowed value. Small and plain, so it can
 * be copied and kept by the million. */
typedef struct ca_cron {
	uint64_t minute;	/* bit m: minute m, 0-59 */
	uint32_t hour;		/* bit h: hour h, 0-23 */
	uint32_t mday;		/* bit d: day d of the month, 1-31 */
	uint16_t month;		/* bit m: month m, 1-12 */
	uint8_t wday;		/* bit w: weekday w, 0-6 (Sunday 0; 7 is stored as 0) */
	uint8_t flags;		/* CA_CRON_*_RESTRICTS */
} ca_cron;

/* Why a schedule was refused, in a ca_diag: a message that names the value
 * as written ("24 is out of range 0-23"), status CA_EX_INPUT, and in col
 * the field's place in a crontab line (1 for cron_minute ... 5 for
 * cron_day_of_week; 0 when the schedule as a whole is wrong). Callers put
 * the field's name in front: "cron_hour: 24 is out of range 0-23"; file
 * and line are theirs to fill in. */
static inline int
ca_cron_err_field(const ca_diag *err)
{
	return err->col - 1;	/* CA_CRON_*, or -1 */
}

/* "cron_minute" ... (the submit commands) and "CronMinute" ... (the job
 * attributes); field ranges ("0-59" for minutes: min 0, max 59). */
const char *ca_cron_field_name(int field);
const char *ca_cron_attr_name(int field);
int ca_cron_field_min(int field);
int ca_cron_field_max(int field);

/* Every field "*": a schedule that runs every minute. */
void ca_cron_init(ca_cron *c);

/* Parse text as field `field` of c and store its value set (the other
 * fields are left alone). The syntax is HTCondor's: "*", a value, a range
 * "a-b", a step "/n" after "*" or after a range ("10-30/5"; steps count
 * from 0, so "5-20/10" is 10,20), and comma lists of those. Spaces and
 * tabs are ignored. Returns 0, or -1 with err filled in (c is unchanged):
 * out-of-range values, reversed ranges, zero steps, steps on a single value,
 * empty fields or list elements and any character other than digits and
 * ", - / *" are errors, never silently widened. */
int ca_cron_field(ca_cron *c, int field, const char *text, ca_diag *err);

/* Whether the schedule runs at all: -1 with err set when cron_day_of_month
 * alone restricts the days and none of its days exists in the months of
 * cron_month ("day 31 never occurs in months 2,4,6,9,11"); else 0. */
int ca_cron_check(const ca_cron *c, ca_diag *err);

/* A whole schedule "MIN HOUR DOM MONTH DOW" (five fields separated by
 * spaces or tabs), checked with ca_cron_check. 0, or -1 with err set. */
int ca_cron_parse(ca_cron *c, const char *line, ca_diag *err);

/* The next run: the first minute strictly after `now` (seconds since the
 * epoch) whose local wall-clock time (TZ, as localtime_r sees it) matches
 * the schedule, found by jumping field by field, never minute by minute.
 *
 * Day rule: if both day fields restrict, a day runs when either matches; if
 * only one restricts, only that one counts; if neither, every day runs.
 *
 * Daylight saving: a wall-clock minute that does not exist (the spring-
 * forward gap) never runs; a wall-clock minute that occurs twice (the
 * autumn overlap) runs once, at its first occurrence. Offset changes are
 * assumed to be more than four days apart and at most a day in size, which
 * holds for every zone of the tz database from 1800 to 2100 except
 * Africa/Freetown in September 1939.
 *
 * Returns 0 with *next set, or -1 when there is no run before the end of
 * year 9999 (or now lies outside years 1-9999). A schedule that passed
 * ca_cron_check always has a run within eight years. */
int ca_cron_next(const ca_cron *c, int64_t now, int64_t *next);

/* The value set of a field as a bit mask (bit v: value v). */
uint64_t ca_cron_set(const ca_cron *c, int field);

/* Write set (bits of values of field `field`) as text: runs of three or more
 * values as "a-b", others separated by commas ("0,6,10-12"). Returns the
 * length the text needs (as snprintf); buf gets at most len-1 bytes. */
size_t ca_cron_format_set(int field, uint64_t set, char *buf, size_t len);
/* The same with names[v] for each value v, separated by ", " ("Monday-Friday",
 * "Saturday, Sunday"). */
size_t ca_cron_format_names(int field, uint64_t set, const char *const *names, char *buf,
    size_t len);

/* Local time t as ISO 8601 with its UTC offset: "2025-05-06T20:30:00-05:00"
 * (at most CA_CRON_ISOLEN bytes with the NUL). "?" if t cannot be shown. */
#define CA_CRON_ISOLEN 40
void ca_cron_isotime(int64_t t, char *buf);

#endif
