# quartet.ads - tenorsax (coltrane's), piano (tyner's) and drums (jones's)

Name = "tenorsax.quartet.example.org"
Cpus = 2
Memory = 8192
Disk = 100000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 3000000
Mips = 40000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true

Name = "piano.quartet.example.org"
Cpus = 2
Memory = 8192
Disk = 100000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 3000000
Mips = 40000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true

Name = "drums.quartet.example.org"
Cpus = 2
Memory = 8192
Disk = 100000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 3000000
Mips = 40000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true
