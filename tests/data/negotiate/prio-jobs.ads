# prio-jobs.ads - one idle job each of alice (8) and carol (9).

ClusterId = 40
ProcId = 0
Owner = "alice"
User = "alice@example.org"
JobStatus = 1
RequestCpus = 1
RequestMemory = 1024
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0

ClusterId = 41
ProcId = 0
Owner = "carol"
User = "carol@example.org"
JobStatus = 1
RequestCpus = 1
RequestMemory = 1024
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0
