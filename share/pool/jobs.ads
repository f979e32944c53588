# jobs.ads - the example pool's job queue: 6 job ads as `condor_q -long`
# prints them (long format, one ad per blank-line block), for slots.ads.
#   101.0, 101.1  alice  small vanilla jobs that fit almost anywhere
#   102.0         bob    16 cores, running on slot1@node01
#   103.0         carol  asks for 256 GB of memory: no slot can run it
#   104.0         dave   needs a GPU: only gpu01 matches
#   105.0         erin   wants an Ubuntu 22 desktop

Args = "--seed 1 --steps 100000"
ClusterId = 101
Cmd = "/home/alice/mc/simulate"
CurrentHosts = 0
DiskUsage = 25000
EnteredCurrentStatus = 1699990000
Err = "simulate.101.0.err"
GlobalJobId = "submit.example.org#101.0#1699990000"
ImageSize = 25000
Iwd = "/home/alice/mc"
JobPrio = 0
JobStatus = 1
JobUniverse = 5
MyType = "Job"
NumJobStarts = 0
Out = "simulate.101.0.out"
Owner = "alice"
ProcId = 0
QDate = 1699990000
Rank = TARGET.Mips
RequestCpus = 1
RequestDisk = DiskUsage
RequestMemory = 2048
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)
ShouldTransferFiles = "YES"
TargetType = "Machine"
User = "alice@example.org"
WhenToTransferOutput = "ON_EXIT"

Args = "--seed 2 --steps 100000"
ClusterId = 101
Cmd = "/home/alice/mc/simulate"
CurrentHosts = 0
DiskUsage = 25000
EnteredCurrentStatus = 1699990000
Err = "simulate.101.1.err"
GlobalJobId = "submit.example.org#101.1#1699990000"
ImageSize = 25000
Iwd = "/home/alice/mc"
JobPrio = 0
JobStatus = 1
JobUniverse = 5
MyType = "Job"
NumJobStarts = 0
Out = "simulate.101.1.out"
Owner = "alice"
ProcId = 1
QDate = 1699990000
Rank = TARGET.Mips
RequestCpus = 1
RequestDisk = DiskUsage
RequestMemory = 2048
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)
ShouldTransferFiles = "YES"
TargetType = "Machine"
User = "alice@example.org"
WhenToTransferOutput = "ON_EXIT"

Args = "-np 16 input.nml"
ClusterId = 102
Cmd = "/home/bob/cfd/solver"
CurrentHosts = 1
DiskUsage = 4000000
EnteredCurrentStatus = 1699996400
Err = "solver.err"
GlobalJobId = "submit.example.org#102.0#1699995000"
ImageSize = 48000000
Iwd = "/home/bob/cfd/run7"
JobCurrentStartDate = 1699996400
JobPrio = 5
JobStatus = 2
JobUniverse = 5
MyType = "Job"
NumJobStarts = 1
Out = "solver.out"
Owner = "bob"
ProcId = 0
QDate = 1699995000
Rank = 0.0
RemoteHost = "slot1@node01.hpc.example.org"
RequestCpus = 16
RequestDisk = DiskUsage
RequestMemory = 65536
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)
ShouldTransferFiles = "YES"
TargetType = "Machine"
User = "bob@example.org"
WhenToTransferOutput = "ON_EXIT"

Args = "assemble.yaml"
ClusterId = 103
Cmd = "/home/carol/genome/assemble"
CurrentHosts = 0
DiskUsage = 50000000
EnteredCurrentStatus = 1699997000
Err = "assemble.err"
GlobalJobId = "submit.example.org#103.0#1699997000"
ImageSize = 1000
Iwd = "/home/carol/genome"
JobPrio = 0
JobStatus = 1
JobUniverse = 5
MyType = "Job"
NumJobStarts = 0
Out = "assemble.out"
Owner = "carol"
ProcId = 0
QDate = 1699997000
Rank = TARGET.Memory
RequestCpus = 8
RequestDisk = DiskUsage
RequestMemory = 262144
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)
ShouldTransferFiles = "YES"
TargetType = "Machine"
User = "carol@example.org"
WhenToTransferOutput = "ON_EXIT"

Args = "train.py --epochs 40"
ClusterId = 104
Cmd = "/home/dave/ml/train.sh"
CurrentHosts = 0
DiskUsage = 2000000
EnteredCurrentStatus = 1699998000
Err = "train.err"
GlobalJobId = "submit.example.org#104.0#1699998000"
ImageSize = 1000
Iwd = "/home/dave/ml"
JobPrio = 0
JobStatus = 1
JobUniverse = 5
MyType = "Job"
NumJobStarts = 0
Out = "train.out"
Owner = "dave"
ProcId = 0
QDate = 1699998000
Rank = 0.0
RequestCpus = 4
RequestDisk = DiskUsage
RequestGPUs = 1
RequestMemory = 16384
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.GPUs >= RequestGPUs) && (TARGET.CUDACapability >= 7.0) && (TARGET.HasFileTransfer)
ShouldTransferFiles = "YES"
TargetType = "Machine"
User = "dave@example.org"
WhenToTransferOutput = "ON_EXIT"

Args = "report.tex"
ClusterId = 105
Cmd = "/usr/bin/latexmk"
CurrentHosts = 0
DiskUsage = 100000
EnteredCurrentStatus = 1699999000
Err = "latexmk.err"
GlobalJobId = "submit.example.org#105.0#1699999000"
ImageSize = 1000
Iwd = "/home/erin/thesis"
JobPrio = 10
JobStatus = 1
JobUniverse = 5
MyType = "Job"
NumJobStarts = 0
Out = "latexmk.out"
Owner = "erin"
ProcId = 0
QDate = 1699999000
Rank = 0.0
RequestCpus = 4
RequestDisk = DiskUsage
RequestMemory = 12000
Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSysAndVer == "Ubuntu22") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)
ShouldTransferFiles = "YES"
TargetType = "Machine"
User = "erin@example.org"
WhenToTransferOutput = "ON_EXIT"
