# quartet-slots.ads - the seed's research group (HTCondor manual, "The RANK
# expression"): tenorsax, piano, bass and drums belong to coltrane, tyner,
# garrison and jones. bass has garrison's RANK and runs a job of miles, who is
# not in the quartet; the other three run quartet jobs and prefer the group.

Name = "slot1@tenorsax.example.org"
Machine = "tenorsax.example.org"
State = "Claimed"
Activity = "Busy"
Cpus = 1
Memory = 4096
Disk = 1000000
Requirements = START
START = True
Rank = Owner == "coltrane" || Owner == "tyner" || Owner == "garrison" || Owner == "jones"
CurrentRank = 1.0
RemoteUser = "coltrane@example.org"
RemoteOwner = "coltrane@example.org"
JobId = "1.0"

Name = "slot1@piano.example.org"
Machine = "piano.example.org"
State = "Claimed"
Activity = "Busy"
Cpus = 1
Memory = 4096
Disk = 1000000
Requirements = START
START = True
Rank = Owner == "coltrane" || Owner == "tyner" || Owner == "garrison" || Owner == "jones"
CurrentRank = 1.0
RemoteUser = "tyner@example.org"
RemoteOwner = "tyner@example.org"
JobId = "2.0"

Name = "slot1@bass.example.org"
Machine = "bass.example.org"
State = "Claimed"
Activity = "Busy"
Cpus = 1
Memory = 4096
Disk = 1000000
Requirements = START
START = True
Rank = (Owner == "coltrane") + (Owner == "tyner") + ((Owner == "garrison") * 10) + (Owner == "jones")
CurrentRank = 0.0
RemoteUser = "miles@example.org"
RemoteOwner = "miles@example.org"
JobId = "7.0"

Name = "slot1@drums.example.org"
Machine = "drums.example.org"
State = "Claimed"
Activity = "Busy"
Cpus = 1
Memory = 4096
Disk = 1000000
Requirements = START
START = True
Rank = Owner == "coltrane" || Owner == "tyner" || Owner == "garrison" || Owner == "jones"
CurrentRank = 1.0
RemoteUser = "coltrane@example.org"
RemoteOwner = "coltrane@example.org"
JobId = "3.0"
