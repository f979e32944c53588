# desktops.ads - four office desktops (startd-step --init reads these; the
# slots keep every attribute). Their owners' time at the keyboard during the
# simulated day is in ../owners.ads.

Name = "ws01.cs.example.org"
Cpus = 2
Memory = 8192
Disk = 50000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 1400000
Mips = 21000
KeyboardIdle = 36000
ConsoleIdle = 36000
LoadAvg = 0.0
HasFileTransfer = true

Name = "ws02.cs.example.org"
Cpus = 2
Memory = 8192
Disk = 50000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 1400000
Mips = 21000
KeyboardIdle = 36000
ConsoleIdle = 36000
LoadAvg = 0.0
HasFileTransfer = true

Name = "ws03.cs.example.org"
Cpus = 2
Memory = 8192
Disk = 50000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 1400000
Mips = 21000
KeyboardIdle = 36000
ConsoleIdle = 36000
LoadAvg = 0.0
HasFileTransfer = true

Name = "ws04.cs.example.org"
Cpus = 2
Memory = 8192
Disk = 50000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 1400000
Mips = 21000
KeyboardIdle = 36000
ConsoleIdle = 36000
LoadAvg = 0.0
HasFileTransfer = true
