# pslot-bigjob.ads - alice asks for 4 cores and 6 GB: more than one dynamic
# slot of pslot-busy.ads holds.

ClusterId = 60
ProcId = 0
Owner = "alice"
User = "alice@example.org"
JobStatus = 1
RequestCpus = 4
RequestMemory = 6000
Requirements = TARGET.Memory >= RequestMemory
Rank = 0.0
