# quartet-garrison.ads - later, Jimmy Garrison submits a job.

ClusterId = 30
ProcId = 0
Owner = "garrison"
User = "garrison@example.org"
JobStatus = 1
JobPrio = 0
RequestCpus = 1
RequestMemory = 1024
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0
