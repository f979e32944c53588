# The condor_status summary of seed 004_c6e8f128e22e9f27.txt as slot ads:
# Name, OpSys, Arch, State, Activity, LoadAv and Mem of each line, with
# Requirements = START and START = true as on turunmaa.
Name = "amul.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Claimed"
Activity = "Busy"
LoadAvg = 0.990
Memory = 1896
Requirements = START
START = true

Name = "slot1@amundsen.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Owner"
Activity = "Idle"
LoadAvg = 0.000
Memory = 1456
Requirements = START
START = true

Name = "slot2@amundsen.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Owner"
Activity = "Idle"
LoadAvg = 0.110
Memory = 1456
Requirements = START
START = true

Name = "angus.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Claimed"
Activity = "Busy"
LoadAvg = 0.940
Memory = 873
Requirements = START
START = true

Name = "anhai.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Claimed"
Activity = "Busy"
LoadAvg = 1.400
Memory = 1896
Requirements = START
START = true

Name = "apollo.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Unclaimed"
Activity = "Idle"
LoadAvg = 1.000
Memory = 3032
Requirements = START
START = true

Name = "arragon.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Claimed"
Activity = "Busy"
LoadAvg = 0.980
Memory = 873
Requirements = START
START = true

Name = "bamba.cs.wisc.edu"
OpSys = "LINUX"
Arch = "INTEL"
State = "Owner"
Activity = "Idle"
LoadAvg = 0.040
Memory = 3032
Requirements = START
START = true
