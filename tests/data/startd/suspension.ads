# two slots on one core (the seed's job suspension): a suspendable job on
# slot2 at +60 s, a normal one on slot1 from +300 s to +600 s
Name = "slot2@desk.example.org"
Event = "Claim"
Time = 1700000060
Job = [ ClusterId = 7; ProcId = 0; Owner = "bob"; User = "bob@example.org"; JobUniverse = 5; IsSuspendableJob = True; RequestCpus = 1; RequestMemory = 1024; RequestDisk = 1000 ]

Name = "slot2@desk.example.org"
Event = "Activate"
Time = 1700000060

Name = "slot1@desk.example.org"
Event = "Claim"
Time = 1700000300
Job = [ ClusterId = 8; ProcId = 0; Owner = "carol"; User = "carol@example.org"; JobUniverse = 5; IsHighPrioJob = True; RequestCpus = 1; RequestMemory = 1024; RequestDisk = 1000 ]

Name = "slot1@desk.example.org"
Event = "Activate"
Time = 1700000300

Name = "slot1@desk.example.org"
Event = "JobExit"
Time = 1700000600

Name = "slot1@desk.example.org"
Event = "Release"
Time = 1700000601

