/* condor.h - the public interface of the HTCondor layer: HTCondor's daemons
 * and tools, built on the ClassAd core (classad.h) and seeing it only
 * through that header. The programs in bin/ use these.
 *
 *   config.h      condor_config files: the language, templates, defaults
 *   statefile.h   state files rewritten atomically under a lock
 *   crontab.h     CronTab schedules
 *   match.h       matchmaking and autoclusters;  analyze.h  better-analyze
 *   accountant.h  user priorities;  groups.h  hierarchical group quotas
 *   negotiator.h  one negotiation cycle
 *   startd.h      the startd's slot state machine
 *   schedd.h      the schedd's job queue
 *   pool.h        a whole pool in one process, its state directory
 *   replay.h      a real pool's workload replayed under other policies */
#ifndef CONDOR_H
#define CONDOR_H

#include "classad.h"
#include "config.h"
#include "statefile.h"
#include "crontab.h"
#include "refs.h"
#include "match.h"
#include "analyze.h"
#include "accountant.h"
#include "groups.h"
#include "negotiator.h"
#include "startd.h"
#include "schedd.h"
#include "pool.h"
#include "replay.h"

#endif
