#!/bin/bash
# What a b4 user types on the first day: `-o - ID | git am`, `lore-am am`,
# `-n NAME`, `--no-cover` (b4's words and other letters: t5051). Also the plain run on a
# terminal, which must say how to use lore-am instead of waiting, and the
# pipe into git am that must not hide a refused series.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 34

series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/Three pieces/; s/\*\*\* BLURB HERE \*\*\*/Blurb./' \
	"$TRASH"/p/0000-*
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
to_mbox "$TRASH/half.mbox" "$TRASH"/p/0000-* "$TRASH"/p/0001-* "$TRASH"/p/0003-*
id=$(msgid_of "$TRASH"/p/0001-*)
cd "$TRASH" || exit 1
git clone -q repo work && git -C work checkout -q base -b am

# 1. -o - is standard output, as in b4, straight into git am
(set -o pipefail
 "$LORE_AM" -q -m t.mbox -o - "$id" | git -C work am -q)
is "$?" 0 "-o - ID | git am: both exit 0"
is "$(git -C work rev-list --count base..HEAD)" 3 "the three patches are applied"
check "no folder named - was made" test ! -e ./-
"$LORE_AM" -q -m t.mbox "$id" >plain.mbx
"$LORE_AM" -q -m t.mbox -o - "$id" >dash.mbx
same_file dash.mbx plain.mbx "-o - writes what no -o writes"
"$LORE_AM" -q -m t.mbox -o ./- "$id" >/dev/null
check "-o ./- is a folder named -" test -d ./- -a -n "$(ls ./-)"
rm -rf ./-
"$LORE_AM" --thread -q -m t.mbox -o - "$id" >thr.mbox
is "$?.$(grep -c '^From ' thr.mbox)" "0.4" "--thread -o - writes the thread on stdout"
printf 'From: a@b\nMessage-Id: <x@y>\nSubject: x\n\nbody\n' >one.eml
"$LORE_AM" --passthrough -o - -m t.mbox <one.eml >pt.out 2>pt.err
is "$?" 0 "--passthrough -o -: the mail is still copied (exit 0)"
same_file pt.out one.eml "--passthrough -o -: the mail unchanged on stdout"
check "--passthrough -o - says why it did nothing" \
	grep -q '^lore-am: --passthrough needs -o DIR, not -o -' pt.err

# 2. an incomplete series through a pipe: refused, and pipefail shows it
head=$(git -C work rev-parse HEAD)
(set -o pipefail
 "$LORE_AM" -m half.mbox -o - "$id" 2>inc.err | git -C work am -q)
ok $((! $?)) "set -o pipefail: the refused series fails the pipeline"
is "$(git -C work rev-parse HEAD)" "$head" "nothing applied"
check "the refusal is on stderr" grep -q 'series is incomplete' inc.err

# 3. the b4 subcommand words
"$LORE_AM" am -q -m t.mbox -o - "$id" >am.mbx
is "$?" 0 "lore-am am ID: exit 0"
same_file am.mbx plain.mbx "lore-am am ID writes what lore-am ID writes"
"$LORE_AM" am -q -m t.mbox <p/0002-*.patch >am-piped.mbx
same_file am-piped.mbx plain.mbx "lore-am am with the message piped in"
"$LORE_AM" shazam -m t.mbox "$id" >sz.out 2>sz.err
is "$?" 2 "lore-am shazam: exit 2"
check "shazam is --apply: refused outside a work tree" \
	grep -qx 'lore-am: --apply: not inside a git work tree; nothing applied' sz.err
is "$(wc -c <sz.out)" 0 "shazam writes nothing on stdout"

# 4. --help: -M is b4's (t5051 runs it), --thread is lore-am's
"$LORE_AM" --help >help.out
is "$(grep -c -- '^  --thread ' help.out).$(grep -c -- '^  -M, --save-as-maildir ' help.out)" \
	"1.1" "--help: --thread without -M, which is b4's"
is "$(sed -n 2p help.out | grep -o 'MSGID|URL' | wc -l)" 1 \
	"--help: the usage line shows one argument"

# 5. -n NAME and --no-cover with -o DIR, named as b4 names them
"$LORE_AM" -q -m t.mbox -o out -n mine "$id"
is "$(ls out | tr '\n' ' ')" "mine.cover mine.mbx " "-n mine: mine.mbx and mine.cover"
same_file out/mine.mbx plain.mbx "-n: the same mbox"
"$LORE_AM" -q -m t.mbox -o nc --no-cover "$id"
is "$(ls nc | sed 's/.*\.//' | tr '\n' ' ')" "mbx " "--no-cover: the mbox alone"
"$LORE_AM" -q -m t.mbox -o bad -n ../up "$id" 2>n.err
is "$?.$(ls bad 2>/dev/null | wc -l)" "2.0" "-n ../up: refused, nothing written"
check "-n names the bad name" grep -q "^lore-am: -n '../up': a file name" n.err

# 6. -P *glob*: the patches whose subject (without [PATCH]) matches
"$LORE_AM" -q -m t.mbox -P '*piece 2*' -o - "$id" >glob.mbx
is "$?.$(grep -c '^Subject: ' glob.mbx)" "0.1" "-P '*piece 2*': one patch"
check "-P '*piece 2*': the patch whose subject matches" \
	grep -q '^Subject: \[PATCH 2/3\] part: add piece 2$' glob.mbx
"$LORE_AM" -q -m t.mbox -P '*nothing*' "$id" >none.mbx 2>none.err
is "$?.$(wc -c <none.mbx)" "1.0" "-P '*nothing*': exit 1, nothing written"
check "-P names the pattern that matched nothing" \
	grep -q "^lore-am: -P '\*nothing\*' matches no patch subject of the series" none.err
if command -v b4 >/dev/null; then
	git init -q b4r && git -C b4r config b4.attestation-policy off
	(cd b4r && b4 -q -n am -m - -P '*piece 2*' -o - "$id" <../t.mbox \
		>../b4-glob.mbx 2>/dev/null)
	same_file glob.mbx b4-glob.mbx "-P '*piece 2*': byte for byte what b4 am writes"
else
	skip "b4 not installed"
fi

# 7. a single message: the summary counts in the singular
cp p/0001-*.patch single.eml
"$LORE_AM" -m single.eml "$id" >single.mbx 2>single.err
check "one message: 'Analyzing 1 message in the thread'" \
	grep -qx 'Analyzing 1 message in the thread' single.err
check "one message: 'Sources: mbox 1 message'" \
	grep -qx 'Sources: mbox 1 message' single.err

# 8. no argument with a terminal on stdin: the usage line, not a wait
script -qec "timeout 10 '$LORE_AM'; echo rc=\$?" /dev/null </dev/null >tty.out 2>&1
check "a terminal: usage line" grep -q '^usage: lore-am \[OPTION...\] \[MSGID|URL\]' tty.out
check "a terminal: exit 2 at once" grep -q '^rc=2' tty.out
done_testing
