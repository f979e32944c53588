# quartet-slots-jones.ads - the quartet after Elvin Jones's job took bass from
# miles (quartet-slots.ads): bass runs 20.0 of jones at CurrentRank 1.

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
CurrentRank = 1.0
RemoteUser = "jones@example.org"
RemoteOwner = "jones@example.org"
JobId = "20.0"

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
