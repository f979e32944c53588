# no job: the desk idles, then its owner types for two minutes from +600 s
Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000600
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000630
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000660
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000690
KeyboardIdle = 0
ConsoleIdle = 0

Name = "desk.example.org"
Event = "MachineUpdate"
Time = 1700000720
KeyboardIdle = 0
ConsoleIdle = 0

