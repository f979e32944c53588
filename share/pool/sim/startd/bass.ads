# bass.ads - bass, garrison's machine

Name = "bass.quartet.example.org"
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
