#!/bin/sh
# Checks the build and test dependencies. As root on Debian it installs what
# is missing; otherwise it prints the exact command and fails.
missing=""
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
have_pc zlib || missing="$missing zlib1g-dev"
have_pc libpcre2-8 || missing="$missing libpcre2-dev"
[ -e /usr/include/readline/readline.h ] || missing="$missing libreadline-dev"
have_pc libedit || missing="$missing libedit-dev"
command -v bats >/dev/null 2>&1 || missing="$missing bats"
[ -z "$missing" ] && exit 0
cmd="apt-get install -y$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing:$missing"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $cmd -qq; } >/dev/null 2>&1 && exit 0
	echo "deps: '$cmd' failed" >&2
	exit 1
fi
echo "deps: missing:$missing" >&2
echo "deps: install them with: sudo $cmd" >&2
exit 1
