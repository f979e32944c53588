# jobs.ads - what the users submit during the simulated day, as job ads.
# pool-run submits each ad at SimSubmitTime (seconds after the start of the
# day: 8 * 3600 is 08:00) into the pool's incoming/ directory, where
# schedd-step --submit makes it a cluster of Queue jobs (ProcId 0, 1, ...).
# A job runs for JobDuration seconds once it executes (time suspended does
# not count); a cron job (CronMinute ...) runs at its scheduled minutes and
# goes back to idle after each run. Everything else is what condor_submit
# would put in the ad.
#
#  cluster user     time   what
#   100    frank    00:00  nice user: 60 jobs of 40 minutes; fills what is free
#   101    alice    00:00  group_physics.hep: 30 jobs of 90 minutes (quota 12)
#   102    ops      00:00  cron: every hour on the hour, 10 minutes
#   103    ops      00:00  cron: every 15 minutes, runs 20 (so it skips a run)
#   104    frank    03:00  nice user: 60 two-hour jobs, the quartet's too
#   105    jones    04:00  one job that prefers bass: the quartet's machines
#                          rank the quartet's jobs first, so it preempts
#                          frank's there (RANK preemption)
#   106    garrison 05:00  one job: bass ranks him 10, jones only 1, so he
#                          preempts jones (RANK), who moves to another
#                          quartet machine
#   107    carol    06:00  group_chem: 10 two-core jobs (quota 8 cores)
#   108    carol    06:00  group_chem: one 8-core, 64 GB job, for bigmem01
#   109    bob      07:00  group_physics.astro: 30 one-hour jobs (quota 8,
#                          takes surplus)
#   110    dave     08:00  24 one-hour jobs
#   111    erin     08:00  the same as dave's; her priority factor is 2
#   112    frank    10:00  nice user: 40 one-hour jobs
#   113    alice    12:00  group_physics.hep: 20 one-hour jobs
#   114    frank    12:30  nice user: 40 one-hour jobs, on ws03 too when
#                          its owner comes back at 13:00
#   115    carol    21:00  group_chem: one 8-core, 64 GB job of four hours
#   116    alice    21:30  group_physics.hep: 30 two-hour jobs for the night
#   117    frank    22:00  nice user: 60 two-hour jobs for the night
#   118    dave     23:00  10 one-hour jobs
#   119    dave     09:00  12 half-hour MATLAB jobs: three licences
#                          (MATLAB_LIMIT), so three at a time
#   120    grace    09:00  12 two-hour GPU jobs (one GPU each) for the four
#                          GPUs of gpu01 and gpu02: four at a time, each
#                          dynamic slot with a GPU of its own
#   121    grace    14:00  4 three-hour jobs of two GPUs that need an A100
#                          (RequireGPUs = Capability >= 8.0): gpu01 only
# erin's ceiling of 8 cores (accountant.ads) keeps her to 8 of her jobs.

ClusterId = 100
Cmd = "/home/frank/bin/render"
Owner = "frank"
User = "frank@example.org"
NiceUser = true
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 40 * 60
SimSubmitTime = 0
Queue = 60

ClusterId = 101
Cmd = "/home/alice/hep/reco"
Owner = "alice"
User = "alice@example.org"
AccountingGroup = "group_physics.hep.alice"
RequestCpus = 1
RequestMemory = 2048
RequestDisk = 1000000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 90 * 60
SimSubmitTime = 0
Queue = 30

ClusterId = 102
Cmd = "/usr/local/sbin/backup-catalog"
Owner = "ops"
User = "ops@example.org"
RequestCpus = 1
RequestMemory = 512
RequestDisk = 10000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
CronMinute = 0
CronHour = "*"
JobPrio = 10
JobDuration = 10 * 60
SimSubmitTime = 0

ClusterId = 103
Cmd = "/usr/local/sbin/sync-mirror"
Owner = "ops"
User = "ops@example.org"
RequestCpus = 1
RequestMemory = 512
RequestDisk = 10000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
CronMinute = "*/15"
JobPrio = 10
JobDuration = 20 * 60
SimSubmitTime = 0

ClusterId = 104
Cmd = "/home/frank/bin/render"
Owner = "frank"
User = "frank@example.org"
NiceUser = true
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 2 * 3600
SimSubmitTime = 3 * 3600
Queue = 60

ClusterId = 105
Cmd = "/home/jones/drums/mix"
Owner = "jones"
User = "jones@example.org"
RequestCpus = 2
RequestMemory = 4096
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
Rank = TARGET.Machine == "bass.quartet.example.org"
JobDuration = 3 * 3600
SimSubmitTime = 4 * 3600

ClusterId = 106
Cmd = "/home/garrison/bass/transcribe"
Owner = "garrison"
User = "garrison@example.org"
RequestCpus = 2
RequestMemory = 4096
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 2 * 3600
SimSubmitTime = 5 * 3600

ClusterId = 107
Cmd = "/home/carol/md/run"
Owner = "carol"
User = "carol@example.org"
AccountingGroup = "group_chem.carol"
RequestCpus = 2
RequestMemory = 4096
RequestDisk = 2000000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 2 * 3600
SimSubmitTime = 6 * 3600
Queue = 10

ClusterId = 108
Cmd = "/home/carol/md/assemble"
Owner = "carol"
User = "carol@example.org"
AccountingGroup = "group_chem.carol"
RequestCpus = 8
RequestMemory = 65536
RequestDisk = 20000000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX" && TARGET.Memory >= RequestMemory
JobPrio = 5
JobDuration = 3 * 3600
SimSubmitTime = 6 * 3600

ClusterId = 109
Cmd = "/home/bob/astro/stack"
Owner = "bob"
User = "bob@example.org"
AccountingGroup = "group_physics.astro.bob"
RequestCpus = 1
RequestMemory = 2048
RequestDisk = 500000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 3600
SimSubmitTime = 7 * 3600
Queue = 30

ClusterId = 110
Cmd = "/home/dave/sweep/point"
Owner = "dave"
User = "dave@example.org"
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 3600
SimSubmitTime = 8 * 3600
Queue = 24

ClusterId = 111
Cmd = "/home/erin/sweep/point"
Owner = "erin"
User = "erin@example.org"
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 3600
SimSubmitTime = 8 * 3600
Queue = 24

ClusterId = 112
Cmd = "/home/frank/bin/render"
Owner = "frank"
User = "frank@example.org"
NiceUser = true
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 3600
SimSubmitTime = 10 * 3600
Queue = 40

ClusterId = 113
Cmd = "/home/alice/hep/reco"
Owner = "alice"
User = "alice@example.org"
AccountingGroup = "group_physics.hep.alice"
RequestCpus = 1
RequestMemory = 2048
RequestDisk = 1000000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 3600
SimSubmitTime = 12 * 3600
Queue = 20

ClusterId = 114
Cmd = "/home/frank/bin/render"
Owner = "frank"
User = "frank@example.org"
NiceUser = true
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 3600
SimSubmitTime = 12 * 3600 + 30 * 60
Queue = 40

ClusterId = 115
Cmd = "/home/carol/md/assemble"
Owner = "carol"
User = "carol@example.org"
AccountingGroup = "group_chem.carol"
RequestCpus = 8
RequestMemory = 65536
RequestDisk = 20000000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX" && TARGET.Memory >= RequestMemory
JobDuration = 4 * 3600
SimSubmitTime = 21 * 3600

ClusterId = 116
Cmd = "/home/alice/hep/reco"
Owner = "alice"
User = "alice@example.org"
AccountingGroup = "group_physics.hep.alice"
RequestCpus = 1
RequestMemory = 2048
RequestDisk = 1000000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 2 * 3600
SimSubmitTime = 21 * 3600 + 30 * 60
Queue = 30

ClusterId = 117
Cmd = "/home/frank/bin/render"
Owner = "frank"
User = "frank@example.org"
NiceUser = true
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 2 * 3600
SimSubmitTime = 22 * 3600
Queue = 60

ClusterId = 118
Cmd = "/home/dave/sweep/point"
Owner = "dave"
User = "dave@example.org"
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 3600
SimSubmitTime = 23 * 3600
Queue = 10

ClusterId = 119
Cmd = "/home/dave/bin/matlab-batch"
Owner = "dave"
User = "dave@example.org"
ConcurrencyLimits = "MATLAB"
RequestCpus = 1
RequestMemory = 2048
RequestDisk = 100000
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"
JobDuration = 30 * 60
SimSubmitTime = 9 * 3600
Queue = 12

ClusterId = 120
Cmd = "/home/grace/ml/train"
Owner = "grace"
User = "grace@example.org"
RequestCpus = 2
RequestMemory = 16384
RequestDisk = 1000000
RequestGPUs = 1
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX" && (TARGET.GPUs >= RequestGPUs)
JobDuration = 2 * 3600
SimSubmitTime = 9 * 3600
Queue = 12

ClusterId = 121
Cmd = "/home/grace/ml/train-large"
Owner = "grace"
User = "grace@example.org"
RequestCpus = 4
RequestMemory = 32768
RequestDisk = 1000000
RequestGPUs = 2
RequireGPUs = Capability >= 8.0
Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX" && (TARGET.GPUs >= RequestGPUs) && (countMatches(MY.RequireGPUs, TARGET.AvailableGPUs) >= RequestGPUs)
JobDuration = 3 * 3600
SimSubmitTime = 14 * 3600
Queue = 4
