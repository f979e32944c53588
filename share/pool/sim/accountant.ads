# accountant.ads - the accountant's records the pool starts with (the state
# of userprio-calc): erin's priority factor is 2, as after
#     userprio-calc --state acct.ads -setfactor erin@example.org 2
# so she gets half the share of a user with the same usage and factor 1;
# and she has a ceiling of 8 cores, as after
#     userprio-calc --state acct.ads -setceiling erin@example.org 8
# so she never runs on more than 8 cores at once, whatever her share.

Name = "erin@example.org"
Priority = 0.5
PriorityFactor = 2.0
Ceiling = 8
