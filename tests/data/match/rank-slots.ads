# The RANK examples of seed 000_e8a1eab2f6a4be53.txt (section 3.5.5), one
# machine each of the research group's tenorsax, piano, bass and drums.
# piano: the group's RANK
Name = "piano"
Memory = 2048
Requirements = START
START = true
Rank = Owner == "coltrane" || Owner == "tyner" || Owner == "garrison" || Owner == "jones"

# bass: Jimmy Garrison's RANK, the owner first, then the group
Name = "bass"
Memory = 2048
Requirements = START
START = true
Rank = (Owner == "coltrane") + (Owner == "tyner") + ((Owner == "garrison") * 10) + (Owner == "jones")

# drums: the large-memory machine prefers large jobs
Name = "drums"
Memory = 65536
Requirements = START
START = true
Rank = ImageSize

# tenorsax: John's RANK exactly as the seed prints it; "coltrane" * 10^12
# is ERROR, so the Rank is ERROR for every job and counts as 0.0
Name = "tenorsax"
Memory = 2048
Requirements = START
START = true
Rank = (Owner == "coltrane" * 1000000000000) + Imagesize
