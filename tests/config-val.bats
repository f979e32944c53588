# config-val.bats - condor_config_val for classad-tools: every construct of
# the configuration language (one test each), HTCondor's templates and
# built-in defaults, the local configuration files, the options and exit
# statuses, on configurations in the shapes HTCondor ships and sites use.

load helpers

C=$BATS_TEST_DIRNAME/data/config

# cfg LINE...: the lines as $TMP/c.config
cfg() { printf '%s\n' "$@" >"$TMP/c.config"; }

# val NAME...: the values in $TMP/c.config
val() { config-val -c "$TMP/c.config" "$@"; }

@test "config-val: a value, and a macro bound to the last definition" {
	cfg 'A = xxx' 'C = $(A)' 'A = yyy' 'B = [$(UNDEFINED)]'
	run -0 val C A B
	[[ $output == $'yyy\nyyy\n[]' ]]
}

@test "config-val: a self-reference takes the value so far" {
	cfg 'A = xxx' 'B = $(A)' 'A = $(A)yyy' 'A = $(A)zzz' 'S2 = $(S2) more'
	run -0 val A B S2
	[[ $output == $'xxxyyyzzz\nxxxyyyzzz\n more' ]]
	# with no definition before it, the built-in default is the value so far
	cfg 'START = $(START) && KeyboardIdle > 60'
	run -0 val START
	[[ $output == 'True && KeyboardIdle > 60' ]]
}

@test "config-val: \$(NAME:default) for an undefined and for an empty NAME" {
	cfg 'EMPTY =' 'A = $(UNDEF:4)-1' 'B = $(EMPTY:fallback)' 'C = $(UNDEF:$(A))' 'D = $(A:no)'
	run -0 val A B C D
	[[ $output == $'4-1\nfallback\n4-1\n4-1' ]]
}

@test "config-val: continuation lines, comments inside them, and # in a value" {
	printf 'A = $(B) \\\n# $(C) \\\n$(D)\nB = b\nD = d\nE = x # not a comment\n  # indented comment \\\nF = f\n' \
	    >"$TMP/c.config"
	run -0 val A E F
	[[ $output == $'b d\nx # not a comment\nf' ]]
}

@test "config-val: the multi-line NAME @=TAG form, as slot types use it" {
	cfg 'SLOT_TYPE_1 @=slot' '   GPUs = 2 : Capability >= 8.0' '   # not part of it' '' \
	    '   90%' '@slot' 'AFTER = ok'
	run -0 val SLOT_TYPE_1 AFTER
	[[ $output == $'GPUs = 2 : Capability >= 8.0\n90%\nok' ]]
	run -0 val -verbose SLOT_TYPE_1
	[[ ${lines[0]} == 'SLOT_TYPE_1 @=end' && ${lines[3]} == '@end' ]]
	cfg 'A @=END' 'never ends'
	run -3 --separate-stderr val A
	[[ $stderr == *"c.config:1:3: no '@END' line ends this value"* ]]
}

@test "config-val: += and its separators" {
	cfg 'L = a' 'L += b' 'M = x' 'M +,= y' 'E +&&= first' 'E +&&= second' 'N += only'
	run -0 val L M E N
	[[ $output == $'a b\nx,y\nfirst && second\nonly' ]]
}

@test "config-val: if/elif/else with defined, booleans, numbers and !" {
	cfg 'N = 1' 'EMPTY =' \
	    'if defined N' 'A = yes' 'else' 'A = no' 'endif' \
	    'if defined EMPTY' 'B = defined' 'else' 'B = empty is undefined' 'endif' \
	    'if ! defined NOPE' 'C = 1' 'elif true' 'C = 2' 'endif' \
	    'if false' '  if true' '    D = nested' '  endif' '  junk that is no statement' 'else' \
	    '  D = skipped' 'endif' \
	    'if 0' 'E = 0' 'elif 2.5' 'E = number' 'endif' \
	    'if yes' 'F = yes' 'endif' 'if defined START' 'G = a default' 'endif'
	run -0 val A B C D E F G
	[[ $output == $'yes\nempty is undefined\n1\nskipped\nnumber\nyes\na default' ]]
}

@test "config-val: if ! \$(NEGOTIATOR_CONSIDER_PREEMPTION), as in HTCondor's manual" {
	cfg 'if ! $(NEGOTIATOR_CONSIDER_PREEMPTION)' 'P = off' 'else' 'P = on' 'endif' \
	    'if $(UNDEFINED_KNOB)' 'U = set' 'else' 'U = unset' 'endif'
	run -0 val P U
	[[ $output == $'on\nunset' ]]
	cfg 'NEGOTIATOR_CONSIDER_PREEMPTION = False' \
	    'if ! $(NEGOTIATOR_CONSIDER_PREEMPTION)' 'P = off' 'else' 'P = on' 'endif'
	run -0 val P
	[[ $output == off ]]
}

@test "config-val: if version compares with HTCondor 24.0.0" {
	cfg 'if version >= 9.0' 'A = new' 'endif' 'if version < 8.9.7' 'B = old' 'else' 'B = not old' \
	    'endif' 'if version == 24.0' 'C = same' 'endif' 'if version != 24.0.1' 'D = other' 'endif' \
	    'if version > 24.0.0' 'E = newer' 'else' 'E = not newer' 'endif'
	run -0 val A B C D E
	[[ $output == $'new\nnot old\nsame\nother\nnot newer' ]]
	cfg 'if version >= banana' 'endif'
	run -3 --separate-stderr val A
	[[ $stderr == *"c.config:1:4: 'banana' is not a version"* ]]
}

@test "config-val: a comparison as a condition" {
	cfg 'N = 3' 'if $(N) > 2' 'A = big' 'endif'
	run -0 val A
	[[ $output == big ]]
	cfg 'if' 'A = 1' 'endif'
	run -3 --separate-stderr val A
	[[ $stderr == *"missing condition"* ]]
	cfg 'if true' 'A = 1' 'else if true' 'endif'
	run -3 --separate-stderr val A
	[[ $stderr == *"unexpected text after 'else'"* ]]
}

@test "config-val: include, include ifexist, and a relative name" {
	mkdir "$TMP/sub"
	printf 'INC = from sub\nA = $(A) and sub\n' >"$TMP/sub/inc.cfg"
	cfg 'A = main' 'include : sub/inc.cfg' 'include ifexist : sub/missing.cfg' '@include : sub/inc.cfg'
	run -0 val INC A
	[[ $output == $'from sub\nmain and sub and sub' ]]
	cfg 'include : missing.cfg'
	run -4 --separate-stderr val A
	[[ $stderr == *"c.config:1:11: cannot open $TMP/missing.cfg"* ]]
	cfg 'include : c.config'
	run -3 --separate-stderr val A
	[[ $stderr == *"includes nested more than 16 deep"* ]]
}

@test "config-val: include command runs a program and reads its output" {
	cfg 'include command : echo FROM_CMD = 1' 'include : printf "PIPED = two words\n" |'
	run -0 val FROM_CMD PIPED
	[[ $output == $'1\ntwo words' ]]
	# a command that fails stops the reading, unless ifexist
	cfg 'include command : false'
	run -3 --separate-stderr val A
	[[ $stderr == *"c.config:1:19: command 'false' exited with status 1"* ]]
	cfg 'include ifexist command : false' 'A = still read'
	run -0 val A
	[[ $output == 'still read' ]]
}

@test "config-val: include command into a cache file runs the command once" {
	cfg "include command into $TMP/cache.cfg : echo CACHED = first"
	run -0 val CACHED
	[[ $output == first && $(cat "$TMP/cache.cfg") == 'CACHED = first' ]]
	echo 'CACHED = from the cache' >"$TMP/cache.cfg"
	run -0 val CACHED
	[[ $output == 'from the cache' ]]
}

@test "config-val: a command has a time limit, and can be refused" {
	cfg 'include command : sleep 30'
	SECONDS=0
	run -3 --separate-stderr config-val --command-timeout 1 -c "$TMP/c.config" A
	[[ $stderr == *"command 'sleep 30' did not finish in 1 seconds"* ]]
	((SECONDS < 10))
	# one that closes its output and goes on running is stopped too
	cfg 'include command : sh -c "exec >&-; sleep 30"'
	SECONDS=0
	run -3 --separate-stderr config-val --command-timeout 1 -c "$TMP/c.config" A
	[[ $stderr == *"did not finish in 1 seconds"* ]]
	((SECONDS < 10))
	cfg 'include command : echo A = 1'
	run -3 --separate-stderr config-val --command-timeout 0 -c "$TMP/c.config" A
	[[ $stderr == *"running commands is turned off"* ]]
}

@test "config-val: use ROLE, SECURITY and FEATURE templates as HTCondor ships them" {
	cfg 'use ROLE : Execute' 'use ROLE : Submit, CentralManager' 'use SECURITY : recommended_v9_0' \
	    'use FEATURE : GPUs' 'use security:strong'
	run -0 val DAEMON_LIST ALLOW_ADMINISTRATOR SEC_DEFAULT_ENCRYPTION SECURITY_MODEL \
	    MACHINE_RESOURCE_INVENTORY_GPUs
	[[ ${lines[0]} == 'MASTER STARTD SCHEDD COLLECTOR NEGOTIATOR' ]]
	[[ ${lines[1]} == 'condor@* condor_pool@* root@*' && ${lines[2]} == required ]]
	[[ ${lines[3]} == 9.0 && ${lines[4]} == '/usr/libexec/condor_gpu_discovery  -properties ' ]]
}

@test "config-val: POLICY templates with arguments expand to their knobs" {
	cfg 'use POLICY : LIMIT_JOB_RUNTIMES(3600*48)'
	run -0 val MAX_JOB_RUNTIME MaxJobRetirementTime PREEMPT
	[[ ${lines[0]} == '3600*48' && ${lines[1]} == '3600*48+120' ]]
	[[ ${lines[2]} == '(Activity == "Busy") && ((time() - EnteredCurrentActivity) > 3600*48)' ]]
	cfg 'use POLICY : Limit_Job_Runtimes'
	run -0 val MAX_JOB_RUNTIME
	[[ $output == '24*3600' ]]
	cfg 'use POLICY : PREEMPT_IF_RUNTIME_EXCEEDS(7200)'
	run -0 val PREEMPT WANT_SUSPEND
	[[ ${lines[0]} == '(JobState == "Running") && ((time() - JobCurrentStartDate) > 7200) || False' ]]
	cfg 'use POLICY : DESKTOP_IDLE()' 'use POLICY : Always_Run_Jobs'
	run -0 val START KILL MaxJobRetirementTime
	[[ $output == $'True\nFalse\n2147483647' ]]
	cfg 'use POLICY : Desktop_Hours(8, 17, 1, 5)'
	run -0 val START
	[[ $output == '(ClockDay < 1 || ClockDay > 5 || ClockMin < 450 || ClockMin > 1020)' ]]
}

@test "config-val: POLICY : Hold_If_Memory_Exceeded and Want_Hold_If" {
	cfg 'use POLICY : Hold_If_Memory_Exceeded'
	run -0 val WANT_HOLD WANT_HOLD_SUBCODE WANT_HOLD_REASON
	[[ ${lines[0]} == '(JobUniverse != 1 && (JobUniverse != 13 && MemoryUsage =!= UNDEFINED && MemoryUsage > Memory))' ]]
	[[ ${lines[1]} == *', 102 , UNDEFINED)' ]]
	[[ ${lines[2]} == *'"memory usage exceeded request_memory", UNDEFINED)' ]]
	cfg 'BIG = MemoryUsage > 2 * RequestMemory' 'use POLICY : WANT_HOLD_IF(BIG, 7, too big)'
	run -0 val WANT_HOLD_REASON
	[[ $output == 'ifThenElse(MemoryUsage > 2 * RequestMemory, "too big", UNDEFINED)' ]]
	# a template's own error names the use line
	cfg 'use POLICY : WANT_HOLD_IF(BIG, 7)'
	run -3 --separate-stderr val WANT_HOLD
	[[ $stderr == *"c.config:1:14: use POLICY:WANT_HOLD_IF: error: "*"three arguments"* ]]
	cfg 'use POLICY : NO_SUCH_POLICY'
	run -3 --separate-stderr val START
	[[ $stderr == *"c.config:1:14: unknown template POLICY:NO_SUCH_POLICY"* ]]
}

@test "config-val: FEATURE : PartitionableSlot and StaticSlots with and without arguments" {
	cfg 'use FEATURE : PartitionableSlot(1, cpus=50%)' 'use FEATURE : PartitionableSlot(2)' \
	    'use FEATURE : StaticSlots(3, 4, cpus=1, mem=1024)'
	run -0 val SLOT_TYPE_1 SLOT_TYPE_1_PARTITIONABLE NUM_SLOTS_TYPE_1 SLOT_TYPE_2 \
	    NUM_SLOTS_TYPE_3 SLOT_TYPE_3 SLOT_TYPE_3_PARTITIONABLE
	[[ $output == $'cpus=50%\ntrue\n1\n100%\n4\ncpus=1, mem=1024\nfalse' ]]
	cfg 'NUM_CPUS = 8' 'use FEATURE : StaticSlots'
	run -0 val NUM_SLOTS_TYPE_1 SLOT_TYPE_1_PARTITIONABLE
	[[ $output == $'8\nfalse' ]]
}

@test "config-val: the UWCS desktop policy, with its \$RANDOM_INTEGER" {
	run -0 config-val -c "$C/desktop.config" --seed 3 START PERIODIC_CHECKPOINT SLOTS_CONNECTED_TO_KEYBOARD
	[[ ${lines[0]} == '(( (KeyboardIdle > 15 * 60) && '*'|| (TARGET.Owner == "alice")' ]]
	[[ ${lines[1]} =~ ^'(time() - LastPeriodicCheckpoint) > (3 * (60 * 60) + '-?[0-9]+' * 60 )'$ ]]
	[[ ${lines[2]} == '1024*1024' ]]
	# the same seed, the same draw; it is one of -30..30
	a=$(config-val -c "$C/desktop.config" --seed 3 PERIODIC_CHECKPOINT)
	b=$(config-val -c "$C/desktop.config" --seed 3 PERIODIC_CHECKPOINT)
	[[ $a == "$b" ]]
}

@test "config-val: \$INT, \$REAL, \$STRING and \$EVAL" {
	cfg 'X = 2' 'Y = 6' 'XYArea = $(X) * $(Y)' 'I1 = $INT(XYArea)' 'I2 = $INT(XYArea,%04d)' \
	    'I3 = $INT(XYArea,Area=%d)' 'I4 = $INT(7.9)' 'R1 = $REAL(XYArea)' 'R2 = $REAL(XYArea,%.2f)' \
	    'R3 = $REAL(X,%g)' 'FULL_HOSTNAME = host.DOMAIN' 'LC = toLower("$(FULL_HOSTNAME)")' \
	    'S1 = $STRING(LC)' 'S2 = $STRING(LC,Name: %s)' 'slist = "a,B,c"' \
	    'lcslist = tolower($(slist))' 'list = split($(slist))' 'clist = size($(list)) * 10' \
	    'semilist = join(";",split($(lcslist)))' 'E1 = $EVAL(slist)' 'E2 = $EVAL(lcslist)' \
	    'E3 = $EVAL(list)' 'E4 = $EVAL(clist)' 'E5 = $EVAL(semilist)' 'E6 = $EVAL(not an expression!)'
	run -0 val I1 I2 I3 I4 R1 R2 R3 S1 S2 E1 E2 E3 E4 E5 E6
	[[ $output == $'12\n0012\nArea=12\n7\n12\n12.00\n2.0\nhost.domain\nName: host.domain\na,B,c\na,b,c\n{ "a","B","c" }\n30\na;b;c\nnot an expression!' ]]
	cfg 'A = $INT(XYZ)'
	run -3 --separate-stderr val A
	[[ $stderr == *"c.config:1:5: \$INT(): 'XYZ' does not evaluate to an integer"* ]]
	cfg 'A = $INT(1, %s)'
	run -3 --separate-stderr val A
	[[ $stderr == *"' %s' is not a valid format"* ]]
}

@test "config-val: \$CHOICE and \$SUBSTR" {
	cfg 'LIST = red, green, blue' 'I = 2' 'C1 = $CHOICE(1, a, b, c)' 'C2 = $CHOICE(I, LIST)' \
	    'Name = abcdef' 'S1 = $SUBSTR(Name, 2)' 'S2 = $SUBSTR(Name, 0, -2)' \
	    'S3 = $SUBSTR(Name, 1, 3)' 'S4 = $SUBSTR(Name, -1)' 'S5 = [$SUBSTR(Name, 4, -3)]'
	run -0 val C1 C2 S1 S2 S3 S4 S5
	[[ $output == $'b\nblue\ncdef\nabcd\nbcd\nf\n[]' ]]
	cfg 'A = $CHOICE(5, a, b)'
	run -3 --separate-stderr val A
	[[ $stderr == *'$CHOICE(): index 5 is out of range'* ]]
}

@test "config-val: \$F and its letters, \$BASENAME and \$DIRNAME" {
	cfg 'P = /tmp/dir/simulate.exe' 'Q = "/a b/c.tar.gz"' \
	    'V = $Fp(P)|$Fd(P)|$Fdb(P)|$Fn(P)|$Fx(P)|$Fxb(P)|$Fnx(P)|$Fqn(P)|$Fqan(P)|$Fpb(P)' \
	    'W = $BASENAME(P)|$DIRNAME(P)|$BASENAME(Q, .tar.gz)|$Fn(Q)|$Fw(P)' 'L = $Fn(/x/y/literal.txt)'
	run -0 val V W L
	[[ ${lines[0]} == '/tmp/dir/|dir/|dir|simulate|.exe|exe|simulate.exe|"simulate"|'"'simulate'"'|/tmp/dir' ]]
	[[ ${lines[1]} == 'simulate.exe|/tmp/dir/|c|c.tar|\tmp\dir\simulate.exe' ]]
	[[ ${lines[2]} == literal ]]
}

@test "config-val: \$ENV, \$DOLLAR, \$\$(...) and a \$word(...) that is no function" {
	cfg 'A = $ENV(CONFIG_VAL_TEST)' 'B = $ENV(CONFIG_VAL_UNSET:none)' 'C = $ENV(CONFIG_VAL_UNSET)' \
	    'D = $(DOLLAR)(NOT) $$(Cpus) $lower(x)'
	CONFIG_VAL_TEST=from-env run -0 val A B C D
	[[ $output == $'from-env\nnone\nUNDEFINED\n$(NOT) $$(Cpus) $lower(x)' ]]
}

@test "config-val: \$RANDOM_CHOICE and \$RANDOM_INTEGER draw from --seed" {
	cfg 'A = $RANDOM_CHOICE(a,b,c,d,e,f,g,h)' 'B = $RANDOM_INTEGER(0, 800, 2)' 'ONE = x' \
	    'C = $RANDOM_CHOICE(ONE)' 'COLORS = red green' 'D = $RANDOM_CHOICE(COLORS)'
	run -0 config-val -c "$TMP/c.config" --seed 1 A B A B C
	[[ ${lines[0]} == "${lines[2]}" && ${lines[1]} == "${lines[3]}" ]]
	[[ ${lines[0]} =~ ^[a-h]$ && ${lines[1]} =~ ^[0-9]+$ && $((lines[1] % 2)) == 0 ]]
	[[ ${lines[4]} == x ]]
	run -0 config-val -c "$TMP/c.config" --seed 1 D
	[[ $output == red || $output == green ]]
	seen=$(for s in 1 2 3 4 5 6 7 8 9 10; do config-val -c "$TMP/c.config" --seed $s A; done | sort -u | wc -l)
	((seen > 1))
	cfg 'A = $RANDOM_INTEGER(9, 1)'
	run -3 --separate-stderr val A
	[[ $stderr == *'min 9 is greater than max 1'* ]]
}

@test "config-val: LOCAL_CONFIG_DIR in lexical order, its exclusions, then LOCAL_CONFIG_FILE" {
	run -0 --separate-stderr config-val -c "$C/condor_config" -dump 'SITE|^NUM_CPUS$|^ALLOW_READ$'
	[[ $output == *$'\nALLOW_READ = $(ALLOW_WRITE), monitor.example.org\nNUM_CPUS = 16\nSITE = example\n'* ]]
	[[ $output == *$'#\t'"$C/config.d/00-site"$'\n#\t'"$C/config.d/10-slots.config"* ]]
	[[ $output == *$'20-policy.config\n#\t'"$C/condor_config.local" ]]
	[[ $output != *rpmsave* && $output != *hidden* && $output != *99-last* ]]
	run -0 config-val -c "$C/condor_config" START SLOT_TYPE_1 NUM_SLOTS_TYPE_3 DAEMON_LIST
	[[ $output == $'True && (TARGET.Owner =!= "mallory")\ncpus=50%, memory=50%\n4\nMASTER STARTD' ]]
}

@test "config-val: LOCAL_CONFIG_FILE lists, commands, and missing files" {
	printf 'A = 1\n' >"$TMP/one.cfg"
	printf 'B = 2\nLOCAL_CONFIG_FILE = one.cfg, two.cfg, three.cfg\n' >"$TMP/two.cfg"
	printf 'C = 3\n' >"$TMP/three.cfg"
	cfg 'LOCAL_CONFIG_FILE = one.cfg two.cfg'
	run -0 val A B C
	[[ $output == $'1\n2\n3' ]]
	cfg 'LOCAL_CONFIG_FILE = echo FROM_LOCAL_CMD = yes |'
	run -0 val FROM_LOCAL_CMD
	[[ $output == yes ]]
	cfg 'LOCAL_CONFIG_FILE = nothere.cfg'
	run -4 --separate-stderr val A
	[[ $stderr == *"nothere.cfg: cannot open"* ]]
	cfg 'LOCAL_CONFIG_FILE = nothere.cfg' 'REQUIRE_LOCAL_CONFIG_FILE = false' 'A = ok'
	run -0 val A
	[[ $output == ok ]]
	cfg 'LOCAL_CONFIG_DIR = /nonexistent/dir' 'A = a missing directory is skipped'
	run -0 val A
	cfg "LOCAL_CONFIG_DIR = $C/config.d" 'LOCAL_CONFIG_DIR_EXCLUDE_REGEXP = ^[0-9][0-9]-(site|slots)'
	run -0 --separate-stderr config-val -c "$TMP/c.config" -dump '^SITE$'
	[[ $output == *'SITE = backup'* ]]
	cfg 'LOCAL_CONFIG_DIR = .' 'LOCAL_CONFIG_DIR_EXCLUDE_REGEXP = ('
	run -3 --separate-stderr val A
	[[ $stderr == *"c.config:2:35: LOCAL_CONFIG_DIR_EXCLUDE_REGEXP is not a valid regular expression"* ]]
}

@test "config-val: SUBSYS. and LOCALNAME. prefixes (-subsystem, -local-name)" {
	cfg 'X = plain' 'NEGOTIATOR.X = negotiator' 'XYZZY.X = xyzzy' 'Y = mydir/$(X)' \
	    'NEGOTIATOR.Z = $(Z) more' 'Z = base'
	run -0 val X Y SUBSYSTEM
	[[ $output == $'plain\nmydir/plain\nTOOL' ]]
	run -0 config-val -c "$TMP/c.config" -subsystem NEGOTIATOR X Y SUBSYSTEM IsNegotiator
	[[ $output == $'negotiator\nmydir/negotiator\nNEGOTIATOR\nTrue' ]]
	run -0 config-val -c "$TMP/c.config" -subsystem NEGOTIATOR -local-name XYZZY X LOCALNAME
	[[ $output == $'xyzzy\nXYZZY' ]]
	run -0 config-val -c "$TMP/c.config" -subsystem NEGOTIATOR -verbose X
	[[ ${lines[0]} == 'NEGOTIATOR.X = negotiator' ]]
}

@test "config-val: HTCondor's built-in defaults under an empty configuration" {
	: >"$TMP/empty.config"
	run -0 config-val -c "$TMP/empty.config" MATCH_TIMEOUT PRIORITY_HALFLIFE START PREEMPT \
	    NEGOTIATOR_CONSIDER_PREEMPTION HOUR MaxVacateTime LIBEXEC DAEMON_LIST
	[[ $output == $'120\n86400\nTrue\nFalse\nTrue\n(60 * 60)\n10 * 60\n/usr/libexec\nMASTER' ]]
	run -0 config-val -c "$TMP/empty.config" -verbose KILLING_TIMEOUT
	[[ ${lines[1]} == ' # at: <built-in default>' ]]
	# a definition replaces the default; -default still tells it
	cfg 'MATCH_TIMEOUT = 300'
	run -0 val MATCH_TIMEOUT
	[[ $output == 300 ]]
	run -0 val -default MATCH_TIMEOUT
	[[ $output == 120 ]]
	run -1 --separate-stderr val -default NO_DEFAULT_HERE
	[[ $stderr == 'Not defined: NO_DEFAULT_HERE' ]]
}

@test "config-val: -dump sorts every knob, files and defaults, raw unless -expand" {
	cfg 'zeta = 1' 'Alpha = $(zeta) + 1' 'FULL_HOSTNAME = test.example.org'
	run -0 val -dump '^(alpha|zeta|match_timeout)$'
	[[ $output == $'# Configuration from machine: test.example.org\n\n# Parameters with names that match ^(alpha|zeta|match_timeout)$:\nAlpha = $(zeta) + 1\nMATCH_TIMEOUT = 120\nzeta = 1\n# Contributing configuration file(s):\n#\t'"$TMP/c.config" ]]
	run -0 val -dump -expand '^alpha$'
	[[ ${lines[2]} == 'Alpha = 1 + 1' ]]
	run -0 val -dump -verbose '^alpha$'
	[[ ${lines[3]} == " # at: $TMP/c.config, line 2" && ${lines[4]} == ' # expanded: 1 + 1' ]]
	# every default is in a full dump
	run -0 val -dump
	[[ $output == *$'\nKILLING_TIMEOUT = 30\n'* && $output == *$'\nzeta = 1\n'* ]]
}

@test "config-val: -verbose names the file and line, or the template and its line" {
	cfg 'A = 1' 'use POLICY : Limit_Job_Runtimes(100)'
	run -0 val -verbose A PREEMPT
	[[ ${lines[0]} == 'A = 1' && ${lines[1]} == " # at: $TMP/c.config, line 1" ]]
	[[ ${lines[2]} == ' # raw: A = 1' ]]
	# (bats leaves the empty line after each knob out of $lines)
	[[ ${lines[3]} == 'PREEMPT = (Activity == "Busy") && ((time() - EnteredCurrentActivity) > 100)' ]]
	[[ ${lines[4]} == " # at: $TMP/c.config, line 2, use POLICY:LIMIT_JOB_RUNTIMES+3" ]]
	[[ ${lines[5]} == ' # raw: PREEMPT = (Activity == "Busy") && ((time() - EnteredCurrentActivity) > $(MAX_JOB_RUNTIME))' ]]
	[[ ${lines[6]} == ' # default: False' ]]
}

@test "config-val: -raw and -macro" {
	cfg 'A = 1' 'B = $(A) + $(A)'
	run -0 val -raw B
	[[ $output == '$(A) + $(A)' ]]
	run -0 val -macro '[$(B)]' '$INT(B)'
	[[ $output == $'[1 + 1]\n2' ]]
}

@test "config-val: error and warning lines, and ':' assignments" {
	cfg 'warning : check $(A)' 'A = 1' 'RunBenchmarks : False' 'OLD : style'
	run -0 --separate-stderr val OLD RunBenchmarks
	[[ $output == $'style\nFalse' ]]
	# a warning line is expanded when it is read: A is not defined yet
	[[ $stderr == *"c.config:1: warning: check"$'\n'* ]]
	[[ $stderr == *"c.config:4: obsolete ':' assignment of OLD"* ]]
	[[ $stderr != *RunBenchmarks* ]]
	cfg 'if ! defined NEEDED' 'error : NEEDED is needed!' 'endif'
	run -3 --separate-stderr val A
	[[ $stderr == *"c.config:2:1: error: NEEDED is needed!"* ]]
}

@test "config-val: names with macros, [sections], @use, and a ':' before an if body" {
	cfg '[HTCondor Settings]' 'PREFIX = MY' '$(PREFIX)_KNOB = named' '@use ROLE : Submit' \
	    ':if true' ':A = colon' 'endif'
	run -0 val MY_KNOB DAEMON_LIST A
	[[ $output == $'named\nMASTER SCHEDD\ncolon' ]]
}

@test "config-val: --unsimulated names the knobs and templates no program simulates" {
	run -0 --separate-stderr config-val -c "$C/pool.config" -subsystem NEGOTIATOR --unsimulated \
	    PREEMPTION_REQUIREMENTS
	[[ $output == 'RemoteUserPrio > SubmitterUserPrio * 1.2' ]]
	# GROUP_AUTOREGROUP and concurrency limits (LICENSE_LIMIT) are simulated
	[[ $stderr != *GROUP_AUTOREGROUP* && $stderr != *LICENSE_LIMIT* ]]
	[[ $stderr == *"pool.config:2: use ROLE:CentralManager is not simulated"* ]]
	# False is NEGOTIATOR_DEPTH_FIRST's harmless value: no warning
	[[ $stderr != *DEPTH_FIRST* ]]
	run -0 --separate-stderr config-val -c "$C/condor_config" -subsystem STARTD --unsimulated DAEMON_LIST
	# WANT_HOLD (use POLICY:WANT_HOLD_IF) is simulated: startd-step holds jobs
	[[ $stderr != *WANT_HOLD* ]]
	[[ $stderr != *LICENSE* ]]
	run -0 --separate-stderr config-val -c "$C/condor_config" -verbose SITE
	[[ $stderr == *"use SECURITY:recommended_v9_0 is not simulated"* ]]
}

@test "config-val: custom machine resources and use FEATURE : GPUs are simulated" {
	cfg 'use FEATURE : GPUs' 'MACHINE_RESOURCE_Cogs = 8' 'CLAIM_PARTITIONABLE_LEFTOVERS = False'
	run -0 --separate-stderr config-val -c "$TMP/c.config" -subsystem STARTD --unsimulated \
	    MACHINE_RESOURCE_Cogs
	[[ $output == 8 && $stderr != *MACHINE_RESOURCE* ]]
	run -0 config-val use FEATURE
	[[ $output == *'  GPUs  ([discovery args]): GPUs as a custom resource'* ]]
	# HTCondor's default: leftovers are claimed when slot weights are used
	run -0 config-val CLAIM_PARTITIONABLE_LEFTOVERS
	[[ $output == True ]]
}

@test "config-val: use CATEGORY lists templates, use CATEGORY:NAME shows one" {
	run -0 config-val use policy
	[[ ${lines[0]} == 'use POLICY accepts' && $output == *'  LIMIT_JOB_RUNTIMES  ([seconds])'* ]]
	run -0 config-val use ROLE
	[[ $output == *'  Execute  this machine runs jobs (not simulated)'* ]]
	run -0 config-val use feature:partitionableslot
	[[ ${lines[0]} == 'use FEATURE:PartitionableSlot is' && ${lines[1]} == '    NUM_SLOTS_TYPE_$(1:1) = 1' ]]
	run -1 --separate-stderr config-val use policy:nope
	[[ $stderr == 'Not defined: use policy:nope' ]]
}

@test "config-val: single-dash long options as condor_config_val spells them" {
	cfg 'A = 1' 'NEGOTIATOR.A = 2'
	run -0 config-val -config "$TMP/c.config" -subsystem NEGOTIATOR -raw A
	[[ $output == 2 ]]
	run -0 config-val -root-config "$TMP/c.config" -verbose -expand A
	[[ ${lines[0]} == 'A = 1' ]]
	run -0 config-val --config "$TMP/c.config" --dump '^A$'
	[[ $output == *$'\nA = 1\n'* ]]
}

@test "config-val: exit statuses: 1 undefined, 2 usage, 3 malformed, 4 unreadable" {
	cfg 'A = 1'
	run -1 --separate-stderr val A NOPE B
	[[ $output == 1 && $stderr == $'Not defined: NOPE\nNot defined: B' ]]
	run -2 --separate-stderr config-val -c "$TMP/c.config"
	[[ $stderr == *"no NAME to look up"* ]]
	run -2 --separate-stderr config-val -bogus
	[[ $stderr == *"unknown or ambiguous option '-bogus'"* ]]
	cfg 'A = $(B'
	run -3 --separate-stderr val A
	[[ $stderr == "config-val: $TMP/c.config:1:5: unbalanced '\$(': no ')' closes it" ]]
	cfg 'A = $(B)' 'B = $(A)'
	run -3 --separate-stderr val A
	[[ $stderr == *"macro recursion: A -> B -> A"* ]]
	run -4 --separate-stderr config-val -c "$TMP/nothere.config" A
	[[ $stderr == *"nothere.config: cannot open"* ]]
}

@test "config-val: no -c reads \$CONDOR_CONFIG" {
	cfg 'FROM_ENV = yes'
	CONDOR_CONFIG=$TMP/c.config run -0 config-val FROM_ENV
	[[ $output == yes ]]
	CONDOR_CONFIG=ONLY_ENV run -0 config-val MATCH_TIMEOUT
	[[ $output == 120 ]]
}

@test "config-val: a real pool's layout loads whole, each of its files once" {
	run -0 --separate-stderr config-val -c "$C/condor_config" -c "$C/condor_config" -dump 'NOTHING'
	[[ $(grep -c 'config.d/00-site' <<<"$output") == 1 ]]
	run -0 config-val -c "$C/condor_config" CONDOR_ADMIN FILESYSTEM_DOMAIN ALLOW_WRITE
	[[ $output == $'condor-admin@example.org\nexample.org\n*.example.org' ]]
}

@test "config-val: the programs read the same: negotiate takes a template's PREEMPTION_REQUIREMENTS" {
	cfg 'use POLICY : UWCS_Desktop' 'NEGOTIATOR_CONSIDER_PREEMPTION = $(UNDEFINED:True)'
	run -0 config-val -c "$TMP/c.config" -subsystem NEGOTIATOR PREEMPTION_REQUIREMENTS
	[[ $output == '((SubmitterGroup =?= RemoteGroup) && ((time() - EnteredCurrentState) > (1 * (60 * 60))) && (RemoteUserPrio > TARGET.SubmitterUserPrio * 1.2)) || (MY.NiceUser == True)' ]]
	printf 'Name = "slot1@a"\nCpus = 1\nMemory = 1024\nState = "Unclaimed"\nRequirements = true\n' >"$TMP/s.ads"
	printf 'ClusterId = 1\nProcId = 0\nOwner = "u"\nUser = "u@x"\nJobStatus = 1\nRequirements = true\n' >"$TMP/j.ads"
	run -0 negotiate --now 1700000000 -c "$TMP/c.config" --slots "$TMP/s.ads" --jobs "$TMP/j.ads"
	[[ $output == *'Name = "slot1@a"'* ]]
}
