# quartet-jones.ads - Elvin Jones submits a job.

ClusterId = 20
ProcId = 0
Owner = "jones"
User = "jones@example.org"
JobStatus = 1
JobPrio = 0
RequestCpus = 1
RequestMemory = 1024
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0
