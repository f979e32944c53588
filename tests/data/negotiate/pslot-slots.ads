# pslot-slots.ads - one machine with a single partitionable slot of 8 cores,
# 16 GB and 100 GB, nothing carved out of it yet.

Name = "slot1@big.example.org"
Machine = "big.example.org"
SlotID = 1
SlotTypeID = 1
SlotType = "Partitionable"
PartitionableSlot = true
State = "Unclaimed"
Activity = "Idle"
Cpus = 8
Memory = 16384
Disk = 100000000
Requirements = START && (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory)
START = True
Rank = 0.0
CurrentRank = 0.0
