# bigmem.ads - one 16-core, 128 GB machine with a partitionable slot

Name = "bigmem01.hpc.example.org"
Cpus = 16
Memory = 131072
Disk = 800000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 2400000
Mips = 32000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true
