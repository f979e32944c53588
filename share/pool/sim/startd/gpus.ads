# gpus.ads - two GPU nodes of eight cores: gpu01 with two A100s, gpu02 with
# two T4s. A startd would learn its GPUs from condor_gpu_discovery; the
# simulation takes what discovery would have printed from here:
# DetectedGPUs (the ids) and a property ad GPUs_<id> per GPU.

Name = "gpu01.hpc.example.org"
Cpus = 8
Memory = 65536
Disk = 400000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 2400000
Mips = 32000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true
DetectedGPUs = "GPU-1a2b3c4d, GPU-5e6f7a8b"
GPUs_GPU_1a2b3c4d = [ Capability = 8.0; DeviceName = "NVIDIA A100-SXM4-40GB"; GlobalMemoryMb = 40536 ]
GPUs_GPU_5e6f7a8b = [ Capability = 8.0; DeviceName = "NVIDIA A100-SXM4-40GB"; GlobalMemoryMb = 40536 ]

Name = "gpu02.hpc.example.org"
Cpus = 8
Memory = 65536
Disk = 400000000
Arch = "X86_64"
OpSys = "LINUX"
KFlops = 2400000
Mips = 32000
KeyboardIdle = 864000
ConsoleIdle = 864000
LoadAvg = 0.0
HasFileTransfer = true
DetectedGPUs = "GPU-9c0d1e2f, GPU-3a4b5c6d"
GPUs_GPU_9c0d1e2f = [ Capability = 7.5; DeviceName = "Tesla T4"; GlobalMemoryMb = 15109 ]
GPUs_GPU_3a4b5c6d = [ Capability = 7.5; DeviceName = "Tesla T4"; GlobalMemoryMb = 15109 ]
