#!/bin/bash
# What the gate costs a run beyond its checks, watched by strace: on a
# series with no Fixes: and every author signed off, the gate starts no
# process and opens, stats or maps no file that the run without it does
# not (it reads no .mailmap, MAINTAINERS, ref or pack of its own), and its
# lines reach stderr in one write(2), not two a line: a terminal or a
# mail client's pipe gets the summary at once. With Fixes: lines, the
# release question (git name-rev, given full ids) looks no id up as a ref
# name: git would otherwise try six ref paths for each, to warn of a ref
# named like it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
command -v strace >/dev/null || skip_all "strace not installed"
plan 7

R=$TRASH/repo
make_repo "$R"
(cd "$R" && git checkout -q -b topic &&
 for f in a b c d; do
	echo "$f" >"$f.c" && git add "$f.c" &&
	git commit -qm "$f: add $f" -m "Why $f." \
		-m "Signed-off-by: Test Maintainer <maintainer@example.org>"
 done &&
 printf 'Pat <pat@example.com> <maintainer@example.org>\n' >.mailmap &&
 git format-patch -q --thread=shallow --cover-letter -o "$TRASH/p" base..topic)
to_mbox "$TRASH/s.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0000-cover-letter.patch")

cd "$R" || exit 1
# LeakSanitizer cannot run under ptrace (make SANITIZE=1 check): the
# leaks are left to the other tests there
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# trace GATE: the run under strace -f, its trace in $TRASH/st.GATE
trace() {
	strace -f -qq -s 65536 -o "$TRASH/st.$1" \
		-e trace=execve,open,openat,stat,newfstatat,statx,lstat,access,mmap,write \
		"$LORE_AM" -c "lore-am.gate=$1" -m "$TRASH/s.mbox" -o - "$id" \
		>"$TRASH/out.$1" 2>"$TRASH/err.$1"
}
trace off && trace warn
ok $? "the series read with the gate off and on"
check "the gate said its lines" grep -q "^  ✓ \[PATCH 4/4\] d: add d" "$TRASH/err.warn"

# the paths a run names in a successful call, the process ids left out
paths() {
	sed -n 's/^[0-9]* *//; /= -1 /d; /^\(execve\|open\|openat\|stat\|newfstatat\|statx\|lstat\|access\)(/s/^[a-z]*([^"]*"\([^"]*\)".*/\1/p' \
		"$TRASH/st.$1" | grep -v "^/proc/" | sort -u
}
paths off >"$TRASH/paths.off"
paths warn >"$TRASH/paths.warn"
comm -13 "$TRASH/paths.off" "$TRASH/paths.warn" >"$TRASH/paths.more"
is "$(cat "$TRASH/paths.more")" "" "no file or program that the run without the gate does not touch"
is "$(grep -c 'execve(.*= 0$' "$TRASH/st.warn")" "$(grep -c 'execve(.*= 0$' "$TRASH/st.off")" \
	"... and no process"

# the gate's block: its title and each patch's line in one write
gw=$(grep 'write(2, "---\\nGate (lore-am.gate=warn)' "$TRASH/st.warn")
check "the gate's lines in one write(2)" eval \
	'[ -n "$gw" ] && for n in 1 2 3 4; do
		printf "%s" "$gw" | grep -q "\[PATCH $n/4\]" || exit 1
	done'

# a Fixes: in each of four patches, naming four commits; refs packed
(cd "$R" && git checkout -q -b fixes base &&
 for f in e f g h; do
	echo "$f" >"$f.c" && git add "$f.c" && git commit -qm "$f: add $f"
 done &&
 git tag -a -m v6.6 v6.6 HEAD~2 &&
 for f in e f g h; do
	c=$(git log -1 --format='%h ("%s")' --abbrev=12 ":/^$f: add")
	echo "$f$f" >>"$f.c" && git commit -qam "$f: fix $f" -m "Why." \
		-m "Fixes: $c
Signed-off-by: Test Maintainer <maintainer@example.org>"
 done &&
 git pack-refs --all &&
 git format-patch -q --thread=shallow --cover-letter -o "$TRASH/q" HEAD~4..HEAD)
to_mbox "$TRASH/f.mbox" "$TRASH"/q/*.patch
fid=$(msgid_of "$TRASH/q/0000-cover-letter.patch")
strace -f -qq -o "$TRASH/st.fixes" -e trace=execve,newfstatat,stat,lstat,statx \
	"$LORE_AM" -m "$TRASH/f.mbox" -o - "$fid" >/dev/null 2>"$TRASH/err.fixes"
check "the fixed commits found, two of them released" \
	eval '[ "$(grep -c "Fixes: [0-9a-f]* is in v6.6" "$TRASH/err.fixes")" = 2 ]'
nr=$(grep 'execve(.*"name-rev".*= 0$' "$TRASH/st.fixes" | awk '{ print $1 }')
is "$(grep "^$nr " "$TRASH/st.fixes" | grep -c '"\.git/\(refs/\)\{0,1\}\([a-z]*/\)\{0,1\}[0-9a-f]\{40\}')" 0 \
	"git name-rev looks none of the four ids up as a ref"
