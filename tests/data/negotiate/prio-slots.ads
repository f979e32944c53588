# prio-slots.ads - two busy slots: node1 runs bob's job 5.0 (for an hour),
# node2 runs dave's job 6.0 (for ten minutes). Neither RANK prefers anyone.

Name = "slot1@node1.example.org"
Machine = "node1.example.org"
SlotID = 1
State = "Claimed"
Activity = "Busy"
Cpus = 1
Memory = 4096
Disk = 1000000
Requirements = START
START = True
Rank = 0.0
CurrentRank = 0.0
RemoteUser = "bob@example.org"
RemoteOwner = "bob@example.org"
JobId = "5.0"
TotalJobRunTime = 3600
EnteredCurrentState = 1699996400

Name = "slot1@node2.example.org"
Machine = "node2.example.org"
SlotID = 1
State = "Claimed"
Activity = "Busy"
Cpus = 1
Memory = 4096
Disk = 1000000
Requirements = START
START = True
Rank = 0.0
CurrentRank = 0.0
RemoteUser = "dave@example.org"
RemoteOwner = "dave@example.org"
JobId = "6.0"
TotalJobRunTime = 600
EnteredCurrentState = 1699999400
