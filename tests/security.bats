#!/usr/bin/env bats
# security.bats - a pool that many users share, played by a hostile user
# with a real second uid: each attempt ends with the pool going on, nothing
# lost, nothing leaked or overwritten. Run as root (the test makes the user
# and removes it); skipped otherwise.

load helpers

T0=1700006400
export POOL_SYNC=0

setup() {
	if (($(id -u) != 0)); then
		skip "needs root: it makes a second user to play the hostile one"
	fi
	command -v useradd >/dev/null && command -v setpriv >/dev/null ||
	    skip "needs useradd(8) and setpriv(1)"
	U=cahostile$$$RANDOM
	useradd -M -N -s /bin/sh "$U" || skip "useradd failed"
	UID2=$(id -u "$U")
	# a world-traversable place (the test's own is root's alone)
	W=$(mktemp -d /tmp/ca-security.XXXXXX)
	chmod 755 "$W"
	S=$W/st
	mkdir -p "$W/pool/startd"
	printf 'UID_DOMAIN = example.org\n' >"$W/pool/pool.config"
	printf 'use FEATURE : StaticSlots\n' >"$W/pool/startd/node.config"
	printf 'Name = "node1.example.org"\nCpus = 2\nMemory = 4096\nDisk = 1000000\n' \
	    >"$W/pool/startd/node.ads"
	pool-cycle --init --now $T0 "$W/pool" "$S"
	NOW=$T0
	# a secret only root may read
	printf 'Secret = "the-root-secret"\n' >"$W/secret.ads"
	chmod 600 "$W/secret.ads"
	cp "$S/gen.0/acct.ads" "$W/acct.before"
}

teardown() {
	[[ -z ${W:-} ]] || { umount "$W/small" 2>/dev/null; rm -rf "$W"; }
	[[ -z ${U:-} ]] || userdel "$U" 2>/dev/null || true
}

# as_user CMD...: run CMD as the hostile user
as_user() {
	setpriv --reuid="$UID2" --regid=65534 --clear-groups -- "$@"
}

# cycle: one more cycle a minute later; it must succeed
cycle() {
	NOW=$((NOW + 60))
	run --separate-stderr timeout 20 pool-cycle --now $NOW "$S"
	((status == 0)) || { echo "status $status: $stderr"; return 1; }
}

# goes_on: the pool takes a good submission of the user in the next cycle
# and nothing of the secret is anywhere in the state
goes_on() {
	as_user sh -c "printf 'JobDuration = 60\n' >'$S/incoming/ok$NOW.ads'"
	cycle
	[[ ! -e $S/incoming/ok$((NOW - 60)).ads ]]
	grep -q "^Owner = \"$U\"" "$S/gen.$(cat "$S/current")/jobs.ads" ||
	    grep -q "Owner = \"$U\"" "$S/log/history.ads"
	! grep -rqa 'the-root-secret' "$S"
}

@test "the spool: users add to incoming/ but cannot read it or delete others' files; events/ and the state are the pool's" {
	[[ $(stat -c %a "$S/incoming") == 1733 && $(stat -c %a "$S/events") == 755 ]]
	[[ $(stat -c %a "$S/incoming/rejected") == 711 && $(stat -c %a "$S/log") == 755 ]]
	printf 'JobDuration = 60\n' >"$S/incoming/roots.ads"
	! as_user ls "$S/incoming"
	! as_user rm -f "$S/incoming/roots.ads"
	[[ -e $S/incoming/roots.ads ]]
	! as_user sh -c "echo x >'$S/events/e.ads'"
	! as_user sh -c "echo x >>'$S/gen.0/jobs.ads'"
	! as_user sh -c "echo x >'$S/incoming/roots.ads'"
	goes_on
}

@test "identity is the file's owner: Owner and User set from it, another Owner refused, the schedd's attributes assigned" {
	as_user sh -c "printf 'Owner = \"root\"\nQueue = 5\n' >'$S/incoming/evil.ads'"
	as_user sh -c "printf 'User = \"root@example.org\"\n' >'$S/incoming/evil2.ads'"
	as_user sh -c "printf 'ClusterId = 7\nProcId = 3\nQDate = 1\nJobStatus = 2\nNumJobStarts = 99\nJobDuration = 600\n' >'$S/incoming/mine.ads'"
	cycle
	[[ $stderr == *"evil.ads: refused (ad 1: Owner is root, but the file belongs to $U)"* ]]
	[[ $stderr == *"evil2.ads: refused (ad 1: User is root@example.org, but the file belongs to $U)"* ]]
	[[ -e $S/incoming/rejected/evil.ads && -e $S/incoming/rejected/evil.ads.why ]]
	run classad-eval -p Owner -p User -p ClusterId -p ProcId -p JobStatus -p "QDate - $T0" \
	    -p 'NumJobStarts =?= undefined' "$S/gen.1/jobs.ads"
	[[ $output == "$U	$U@example.org	1	0	1	60	true" ]] || { echo "$output"; false; }
	! grep -q 'Owner = "root"' "$S/gen.1/jobs.ads" "$S/log/jobs.log"
	goes_on
}

@test "accounting groups: the user part is the submitter; AssignAccountingGroup's map says who may use which group" {
	as_user sh -c "printf 'AccountingGroup = \"group_x.bob\"\n' >'$S/incoming/a.ads'"
	cycle
	run classad-eval -p AccountingGroup "$S/gen.1/jobs.ads"
	[[ $output == "group_x.bob.$U" ]]
	# the map: the user may use group_a (the default) and group_b only
	printf '* %s group_a,group_b\n* /^other.*/ group_c\n' "$U" >"$W/groups.map"
	printf 'use FEATURE : AssignAccountingGroup(%s)\n' "$W/groups.map" >>"$W/pool/pool.config"
	as_user sh -c "printf 'AcctGroup = \"group_c\"\n' >'$S/incoming/b.ads'"
	as_user sh -c "printf 'AccountingGroup = \"group_b.$U\"\n' >'$S/incoming/c.ads'"
	as_user sh -c "printf 'JobDuration = 60\n' >'$S/incoming/d.ads'"
	cycle
	[[ $stderr == *"b.ads: refused (ad 1: Permission denied setting accounting_group to group_c)"* ]]
	run classad-eval -w 'AcctGroup =!= undefined' -p AccountingGroup -p AcctGroupUser "$S/gen.2/jobs.ads"
	[[ $output == "group_b.$U	$U"$'\n'"group_a.$U	$U" ]] || { echo "$output"; false; }
	# with check_request false a group not allowed is quietly replaced
	sed -i 's/AssignAccountingGroup(\(.*\))$/AssignAccountingGroup(\1, false)/' "$W/pool/pool.config"
	as_user sh -c "printf 'AcctGroup = \"group_c\"\n' >'$S/incoming/e.ads'"
	cycle
	run classad-eval -w "ClusterId == $(cat "$S/gen.3/cluster")" -p AccountingGroup "$S/gen.3/jobs.ads"
	[[ $output == "group_a.$U" ]]
}

@test "links: a symlink to a root-only file, or to /dev/zero, is set aside as a link and never read" {
	as_user ln -s "$W/secret.ads" "$S/incoming/s.ads"
	as_user ln -s /dev/zero "$S/incoming/z.ads"
	cycle
	[[ $stderr == *"s.ads: refused (a symbolic link (only regular files are read)"* ]]
	[[ -L $S/incoming/rejected/s.ads && -L $S/incoming/rejected/z.ads ]]
	[[ $(cat "$W/secret.ads") == 'Secret = "the-root-secret"' ]]
	# a hard link to a file of another's is refused too (where the kernel
	# lets one be made)
	if as_user ln "$W/secret.ads" "$S/incoming/h.ads" 2>/dev/null; then
		cycle
		[[ $stderr == *"h.ads: refused (a file with 2 links"* ]]
	fi
	goes_on
}

@test "a link planted as incoming/rejected is moved aside: nothing is written where it points" {
	rmdir "$S/incoming/rejected"	# an old state directory without it
	as_user ln -s "$S/gen.0" "$S/incoming/rejected"
	as_user sh -c "printf 'Owner = \"root\"\n' >'$S/incoming/x.ads'"
	cycle
	[[ $stderr == *"incoming/rejected was not the pool's own directory: moved to incoming/.planted-rejected."* ]]
	[[ -d $S/incoming/rejected && ! -L $S/incoming/rejected && -e $S/incoming/rejected/x.ads ]]
	[[ ! -e $S/gen.0/x.ads ]]
	cmp "$W/acct.before" "$S/gen.0/acct.ads"
	goes_on
}

@test "a FIFO, a directory, a file too big, a NUL byte: each set aside with its reason; the cycle does not hang" {
	as_user mkfifo "$S/incoming/fifo.ads"
	as_user mkdir "$S/incoming/dir.ads"
	printf 'POOL_MAX_FILE_SIZE = 100\n' >>"$W/pool/pool.config"
	as_user sh -c "head -c 200 /dev/zero | tr '\\0' ' ' >'$S/incoming/big.ads'"
	as_user sh -c "printf 'A = 1\n\0B = 2\n' >'$S/incoming/nul.ads'"
	cycle
	[[ $stderr == *"fifo.ads: refused (not a regular file)"* ]]
	[[ $stderr == *"dir.ads: refused (not a regular file)"* ]]
	[[ $stderr == *"big.ads: refused (200 bytes, more than 100 (POOL_MAX_FILE_SIZE))"* ]]
	[[ $stderr == *"nul.ads: refused (the file holds a NUL byte)"* ]]
	[[ -p $S/incoming/rejected/fifo.ads && -d $S/incoming/rejected/dir.ads ]]
	[[ $(cat "$S/incoming/rejected/big.ads.why") == *POOL_MAX_FILE_SIZE* ]]
	goes_on
}

@test "control characters: a name with a newline is set aside under a safe name; nothing in the working directory is touched; diagnostics are escaped" {
	mkdir "$W/cwd"
	touch "$W/cwd/a" "$W/cwd/b.ads"
	as_user sh -c "printf 'JobDuration = 60\n' >'$S/incoming/a
b.ads'"
	as_user sh -c "printf 'Cmd = \"\\033]0;owned\\007\"\nOwner = \"\\033[31mroot\"\n' >'$S/incoming/esc.ads'"
	cd "$W/cwd"
	cycle
	cd - >/dev/null
	[[ -e $W/cwd/a && -e $W/cwd/b.ads ]]
	[[ -e $S/incoming/rejected/a%0Ab.ads ]]
	[[ $stderr == *"a%0Ab.ads: refused (a file name with control characters"* ]]
	[[ $stderr == *'esc.ads: refused (ad 1: Owner is \x1b[31mroot'* ]]
	[[ $stderr != *$'\e'* ]]
	goes_on
}

@test "out-of-range values: huge ClusterId, JobDuration and Queue never stop the pool" {
	as_user sh -c "printf 'ClusterId = 2147483647\nJobDuration = 9223372036854775807\n' >'$S/incoming/a.ads'"
	as_user sh -c "printf 'Queue = 9223372036854775807\n' >'$S/incoming/b.ads'"
	# the pool's own account (a queue super user) gives ClusterId: checked
	printf 'ClusterId = 2147483647\n' >"$S/incoming/c.ads"
	cycle
	[[ $stderr == *"b.ads: refused (ad 1: Queue must be an integer from 1 to 20000 (MAX_JOBS_PER_SUBMISSION))"* ]]
	[[ $stderr == *"c.ads: refused (ad 1: ClusterId and ProcId must be integers"* ]]
	# the user's ClusterId was the schedd's to give; the job runs forever
	cycle
	cycle
	run classad-eval -w "Owner == \"$U\"" -p ClusterId -p JobStatus "$S/gen.$(cat "$S/current")/jobs.ads"
	[[ $output == $'1\t2' ]]
	goes_on
}

@test "a file put back under the same name while a cycle ran is a new submission, not deleted unread" {
	as_user sh -c "printf 'JobDuration = 60\n' >'$S/incoming/a.ads'"
	cycle
	# as if the cycle had been killed after its commit, before it removed
	# what it took, and the user had written a.ads again meanwhile
	rm "$S/gen.1/.done"
	as_user sh -c "printf 'JobDuration = 120\n' >'$S/incoming/a.ads'"
	cycle
	[[ ! -e $S/incoming/a.ads ]]
	run classad-eval -w "Owner == \"$U\"" -p JobDuration "$S/gen.2/jobs.ads"
	[[ $output == $'60\n120' ]] || { echo "$output"; false; }
}

@test "the lock file: one that is a symbolic link is refused, and nothing is written where it points" {
	rm "$S/lock"
	ln -s "$W/target" "$S/lock"
	run timeout 20 pool-cycle --now $((NOW + 60)) "$S"
	((status == 4))
	[[ $output == *"cannot open its lock file (if lock is a symbolic link, remove it)"* ]]
	[[ ! -e $W/target ]]
	rm "$S/lock"
	goes_on
}

@test "the clock: a jump of years is refused with what to do; a bad --now is a usage error" {
	run timeout 20 pool-cycle --now $((T0 + 10 * 365 * 86400)) "$S"
	((status == 4))
	[[ $output == *"more than POOL_MAX_CLOCK_JUMP (604800 s): if the clock is right, catch up in steps (pool-cycle --now $((T0 + 604800)) $S"* ]]
	[[ $(cat "$S/current") == 0 ]]
	run pool-cycle --now 12abc "$S"
	((status == 2))
	run pool-cycle --now '' "$S"
	((status == 2))
	goes_on
}

@test "a full disk fails the cycle (the state as it was) but never rejects a valid submission" {
	mkdir "$W/small"
	mount -t tmpfs -o size=256k,mode=755 tmpfs "$W/small" 2>/dev/null || skip "cannot mount a tmpfs"
	S=$W/small/st
	pool-cycle --init --now $T0 "$W/pool" "$S"
	chmod 755 "$W/small"
	as_user sh -c "printf 'JobDuration = 60\n' >'$S/incoming/a.ads'"
	dd if=/dev/zero of="$W/small/fill" bs=4k 2>/dev/null || true
	run timeout 20 pool-cycle --now $((T0 + 60)) "$S"
	((status == 4))
	[[ -e $S/incoming/a.ads && ! -e $S/incoming/rejected/a.ads && $(cat "$S/current") == 0 ]]
	rm "$W/small/fill"
	cycle
	[[ ! -e $S/incoming/a.ads && $(cat "$S/current") == 1 ]]
	grep -q "Owner = \"$U\"" "$S/gen.1/jobs.ads"
	umount "$W/small"
}
