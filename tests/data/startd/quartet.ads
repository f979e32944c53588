# the seeds' four machines of the John Coltrane quartet, one core each
Name = "tenorsax.example.org"
Cpus = 1
Memory = 2048
Disk = 1000000
KeyboardIdle = 34
LoadAvg = 0.0

Name = "piano.example.org"
Cpus = 1
Memory = 2048
Disk = 1000000
KeyboardIdle = 34
LoadAvg = 0.0

Name = "bass.example.org"
Cpus = 1
Memory = 2048
Disk = 1000000
KeyboardIdle = 34
LoadAvg = 0.0

Name = "drums.example.org"
Cpus = 1
Memory = 2048
Disk = 1000000
KeyboardIdle = 34
LoadAvg = 0.0
