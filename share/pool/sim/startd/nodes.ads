# nodes.ads - four dedicated four-core cluster nodes

Name = "node01.hpc.example.org"
Cpus = 4
Memory = 16384
Disk = 200000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 2200000
Mips = 30000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true

Name = "node02.hpc.example.org"
Cpus = 4
Memory = 16384
Disk = 200000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 2200000
Mips = 30000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true

Name = "node03.hpc.example.org"
Cpus = 4
Memory = 16384
Disk = 200000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 2200000
Mips = 30000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true

Name = "node04.hpc.example.org"
Cpus = 4
Memory = 16384
Disk = 200000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 2200000
Mips = 30000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true
