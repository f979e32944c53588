# typing-long.ads - the events of the longer timeline (sh run.sh long):
# alice's vanilla job starts on the desk at +60 s; the owner types for twelve
# minutes from +600 s, long enough for the policy to preempt the job
Name = "slot1@desk.example.org"
Event = "Match"
Time = 1700000060
JobId = "42.0"
Submitter = "alice@example.org"
MatchReason = "NoPreemption"
Job = [ ClusterId = 42; ProcId = 0; Owner = "alice"; User = "alice@example.org"; JobUniverse = 5; ImageSize = 50000; RequestCpus = 1; RequestMemory = 1024; RequestDisk = 100000 ]

Name = "slot1@desk.example.org"
Event = "Claim"
Time = 1700000060

Name = "slot1@desk.example.org"
Event = "Activate"
Time = 1700000060

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000600
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000660
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000720
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000780
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000840
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000900
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000960
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700001020
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700001080
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700001140
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700001200
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700001260
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700001320
KeyboardIdle = 0
ConsoleIdle = 0

