# owners.ads - when the desktops' owners are at the keyboard during the
# simulated day (From, To: seconds after midnight). pool-run turns each minute
# of a session into a MachineUpdate event with KeyboardIdle = 0 for the
# machine, which startd-step applies; between events KeyboardIdle grows.
# The desktop policy (startd/desktops.config) then suspends the job at once,
# continues it after 5 idle minutes, vacates it after 10 minutes suspended,
# and starts no job until the keyboard has been idle 15 minutes.

# ws01: 25 minutes at 09:00 - the job is suspended, then vacated
Machine = "ws01.cs.example.org"
From = 9 * 3600
To = 9 * 3600 + 25 * 60

# ws02: a 3-minute look at the mail at 10:30 - suspended, then continued
Machine = "ws02.cs.example.org"
From = 10 * 3600 + 30 * 60
To = 10 * 3600 + 33 * 60

# ws03: the afternoon, with a coffee break
Machine = "ws03.cs.example.org"
From = 13 * 3600
To = 15 * 3600

Machine = "ws03.cs.example.org"
From = 15 * 3600 + 20 * 60
To = 17 * 3600 + 30 * 60
