# pslot-busy.ads - a partitionable slot with nothing left: its two dynamic
# slots (2 cores and 4 GB each) run jobs of bob, whose effective priority is
# worse than alice's (prio-accounting.ads). slot1_1 runs the younger job
# at a lower CurrentRank.

Name = "slot1@pp.example.org"
Machine = "pp.example.org"
SlotID = 1
SlotType = "Partitionable"
PartitionableSlot = true
State = "Unclaimed"
Activity = "Idle"
Cpus = 0
Memory = 0
Disk = 50000000
Requirements = START && (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory)
START = True
Rank = 0.0
CurrentRank = 0.0

Name = "slot1_1@pp.example.org"
Machine = "pp.example.org"
SlotID = 1
SlotType = "Dynamic"
DynamicSlot = true
State = "Claimed"
Activity = "Busy"
Cpus = 2
Memory = 4096
Disk = 25000000
Requirements = START && (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory)
START = True
Rank = 0.0
CurrentRank = 0.0
RemoteUser = "bob@example.org"
RemoteOwner = "bob@example.org"
JobId = "8.1"

Name = "slot1_2@pp.example.org"
Machine = "pp.example.org"
SlotID = 1
SlotType = "Dynamic"
DynamicSlot = true
State = "Claimed"
Activity = "Busy"
Cpus = 2
Memory = 4096
Disk = 25000000
Requirements = START && (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory)
START = True
Rank = 0.0
CurrentRank = 0.0
RemoteUser = "bob@example.org"
RemoteOwner = "bob@example.org"
JobId = "8.0"
