# The machine ad of Figure 15.1 (seed 003_5265cacca059a2ea.txt), as printed.
MyType = "Machine"
TargetType = "Job"
Requirements = Start
Rank = TARGET. Department==MY. Department
Activity = "Idle"
Arch = "INTEL"
ClockDay = 0
ClockMin = 614
CondorLoadAvg = 0.000000
Cpus = 1
CurrentRank = 0.000000
Department = "CompSci"
Disk = 3076076
EnteredCurrentActivity = 990371564
EnteredCurrentState = 990330615
FileSystemDomain = "cs.wisc.edu"
IsInstructional = FALSE
KeyboardIdle = 15
KFlops = 145811
LoadAvg = 0.220000
Machine = "nostos.cs.wisc.edu"
Memory = 511
Mips = 732
OpSys = "LINUX"
Start = (LoadAvg <= 0.300000) && (KeyboardIdle > (15 * 60))
State = "Unclaimed"
Subnet = "128.105.165"
TotalVirtualMemory = 787144
