# Jobs of the quartet (coltrane, tyner, garrison, jones) and of an outsider.
ClusterId = 1
ProcId = 0
Owner = "coltrane"
ImageSize = 2000
Requirements = TARGET.Memory >= 1024

ClusterId = 2
ProcId = 0
Owner = "tyner"
ImageSize = 500
Requirements = TARGET.Memory >= 1024

ClusterId = 3
ProcId = 0
Owner = "garrison"
ImageSize = 1000
Requirements = TARGET.Memory >= 1024

ClusterId = 4
ProcId = 0
Owner = "jones"
ImageSize = 100000
Requirements = TARGET.Memory >= 1024

ClusterId = 5
ProcId = 0
Owner = "mingus"
ImageSize = 3000
Requirements = TARGET.Memory >= 1024
