# pslot-jobs.ads - five jobs of alice, two cores and 2000 MB each.

ClusterId = 50
ProcId = 0
Owner = "alice"
User = "alice@example.org"
JobStatus = 1
RequestCpus = 2
RequestMemory = 2000
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0

ClusterId = 50
ProcId = 1
Owner = "alice"
User = "alice@example.org"
JobStatus = 1
RequestCpus = 2
RequestMemory = 2000
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0

ClusterId = 50
ProcId = 2
Owner = "alice"
User = "alice@example.org"
JobStatus = 1
RequestCpus = 2
RequestMemory = 2000
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0

ClusterId = 50
ProcId = 3
Owner = "alice"
User = "alice@example.org"
JobStatus = 1
RequestCpus = 2
RequestMemory = 2000
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0

ClusterId = 50
ProcId = 4
Owner = "alice"
User = "alice@example.org"
JobStatus = 1
RequestCpus = 2
RequestMemory = 2000
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0
