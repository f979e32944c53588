# prio-accounting.ads - userprio-calc's state: real priorities (factor 1), so
# the effective priorities are alice 8, carol 9, bob 10, dave 20.

Name = "alice@example.org"
Priority = 8.0
PriorityFactor = 1.0
LastUpdate = 1700000000

Name = "bob@example.org"
Priority = 10.0
PriorityFactor = 1.0
LastUpdate = 1700000000

Name = "carol@example.org"
Priority = 9.0
PriorityFactor = 1.0
LastUpdate = 1700000000

Name = "dave@example.org"
Priority = 20.0
PriorityFactor = 1.0
LastUpdate = 1700000000
