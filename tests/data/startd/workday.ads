# Wednesday 2023-11-15 07:40 UTC: a job runs from 07:45 to 08:05, work hours begin at
# 08:00, another job is matched at 08:10 and claimed at 08:11
Name = "slot1@desk.example.org"
Event = "Match"
Time = 1700034300
Job = [ ClusterId = 1; ProcId = 0; Owner = "alice"; User = "alice@example.org"; JobUniverse = 5; RequestCpus = 1; RequestMemory = 1024; RequestDisk = 1000 ]

Name = "slot1@desk.example.org"
Event = "Claim"
Time = 1700034300

Name = "slot1@desk.example.org"
Event = "Activate"
Time = 1700034300

Name = "slot1@desk.example.org"
Event = "JobExit"
Time = 1700035500

Name = "slot1@desk.example.org"
Event = "Release"
Time = 1700035501

Name = "slot1@desk.example.org"
Event = "Match"
Time = 1700035800
Job = [ ClusterId = 2; ProcId = 0; Owner = "bob"; User = "bob@example.org"; JobUniverse = 5; RequestCpus = 1; RequestMemory = 1024; RequestDisk = 1000 ]

Name = "slot1@desk.example.org"
Event = "Claim"
Time = 1700035860

