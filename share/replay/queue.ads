ClusterId = 1815
ProcId = 0
Owner = "erin"
User = "erin@example.org"
QDate = 1767661200
JobStatus = 1
JobUniverse = 5
RequestCpus = 1
RequestMemory = 262144
RequestDisk = 1000000
RemoteWallClockTime = 0.0
CumulativeSuspensionTime = 0
GlobalJobId = "submit.example.org#1815.0#1767661200"
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)

ClusterId = 1816
ProcId = 0
Owner = "erin"
User = "erin@example.org"
QDate = 1767661300
JobStatus = 1
JobUniverse = 5
RequestCpus = 1
RequestMemory = 262144
RequestDisk = 1000000
RemoteWallClockTime = 0.0
CumulativeSuspensionTime = 0
GlobalJobId = "submit.example.org#1816.0#1767661300"
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)

ClusterId = 1817
ProcId = 0
Owner = "carol"
User = "carol@example.org"
AccountingGroup = "group_chem.carol"
QDate = 1768174200
JobStatus = 1
JobUniverse = 5
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 1000000
RemoteWallClockTime = 0.0
CumulativeSuspensionTime = 0
GlobalJobId = "submit.example.org#1817.0#1768174200"
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)

ClusterId = 1818
ProcId = 0
Owner = "carol"
User = "carol@example.org"
AccountingGroup = "group_chem.carol"
QDate = 1768174200
JobStatus = 1
JobUniverse = 5
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 1000000
RemoteWallClockTime = 0.0
CumulativeSuspensionTime = 0
GlobalJobId = "submit.example.org#1818.0#1768174200"
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)

ClusterId = 1819
ProcId = 0
Owner = "carol"
User = "carol@example.org"
AccountingGroup = "group_chem.carol"
QDate = 1768174200
JobStatus = 1
JobUniverse = 5
RequestCpus = 1
RequestMemory = 1024
RequestDisk = 1000000
RemoteWallClockTime = 0.0
CumulativeSuspensionTime = 0
GlobalJobId = "submit.example.org#1819.0#1768174200"
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)

