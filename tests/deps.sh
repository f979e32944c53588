#!/bin/sh
# deps.sh build|test [--install] - checks the dependencies of the build
# (compiler, make, pkg-config, zlib, PCRE2, the line editor READLINE names)
# or of the tests too (bats, libedit and readline for the REPL builds).
# What is missing is named with the apt-get and the dnf line that installs
# it; with --install, run as root on a Debian machine, apt-get installs it.
# Plain `make` runs it without --install: it never installs anything.
set -u
what=${1:-build}
install=${2:-}
apt="" dnf=""
need() { apt="$apt $1"; dnf="$dnf $2"; }
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
have_h() { [ -e "/usr/include/$1" ]; }

command -v cc >/dev/null 2>&1 || need gcc gcc
command -v make >/dev/null 2>&1 || need make make
command -v pkg-config >/dev/null 2>&1 || need pkg-config pkgconf-pkg-config
have_pc zlib || have_h zlib.h || need zlib1g-dev zlib-devel
have_pc libpcre2-8 || have_h pcre2.h || need libpcre2-dev pcre2-devel
rl=${READLINE:-readline}
if [ "$what" = test ] || [ "$rl" = readline ]; then
	have_h readline/readline.h || need libreadline-dev readline-devel
fi
if [ "$what" = test ] || [ "$rl" = libedit ]; then
	have_pc libedit || have_h histedit.h || need libedit-dev libedit-devel
fi
if [ "$what" = test ]; then
	command -v bats >/dev/null 2>&1 || need bats bats
fi
[ -z "$apt" ] && exit 0

if [ "$install" = --install ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing:$apt"
	{ apt-get update -qq &&
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt; } >/dev/null 2>&1 && exit 0
	echo "deps: 'apt-get install -y$apt' failed" >&2
	exit 1
fi
echo "deps: missing for the $what:$apt" >&2
echo "deps: on Debian or Ubuntu: sudo apt-get install$apt" >&2
echo "deps: on EL (Rocky, Alma, RHEL, Fedora): sudo dnf install$dnf" >&2
[ "$what" = test ] && [ -n "$(echo "$dnf" | grep -w bats)" ] &&
    echo "deps: (on EL, bats comes from EPEL: sudo dnf install epel-release first)" >&2
exit 1
