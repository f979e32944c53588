# accountant.ads - the accountant's records the pool starts with (the state
# of userprio-calc): erin's priority factor is 2, as after
#     userprio-calc --state acct.ads -setfactor erin@example.org 2
# so she gets half the share of a user with the same usage and factor 1;
# dave has a ceiling of 8 cores, as after
#     userprio-calc --state acct.ads -setceiling dave@example.org 8
# so he never runs on more than 8 cores at once, whatever his share.

Name = "erin@example.org"
Priority = 0.5
PriorityFactor = 2.0

Name = "dave@example.org"
Priority = 0.5
PriorityFactor = 1.0
Ceiling = 8
