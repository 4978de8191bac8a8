#!/bin/bash
# lore-am --passthrough, the mail filter mode: the mail on stdin comes out
# on stdout byte for byte (with --status-header, plus one X-Lore-Am line),
# the series goes into -o DIR, and the exit status is 0 whatever happens
# to the series work -- but not when the mail itself cannot be copied.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
plan 20

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
to_maildir "$TRASH/one.mbox" "$TRASH/in"
p2=$(grep -l "^Message-I[dD]: <$ONE_P2>" "$TRASH"/in/cur/*)
cd "$TRASH" || exit 1
"$LORE_AM" -q -m one.mbox -o exp "$ONE_ID"
exp=$(only_file exp '*.mbx')
stem=$(basename "$exp" .mbx)

pt() { "$LORE_AM" --passthrough "$@" >out 2>err; }

pt -o o1 -m one.mbox <"$p2"
is $? 0 "a patch mail: exit 0"
check "... the mail comes out byte for byte" cmp out "$p2"
check "... and the series is written into -o DIR" cmp "o1/$stem.mbx" "$exp"
is "$(wc -c <err)" 0 "... and nothing is said on success"

pt --status-header -o o2 -m one.mbox <"$p2"
is "$(sed 1q out)" \
	"X-Lore-Am: status=complete; revision=1; patches=5/5; series=$stem; state=reviewed; reviews=2,3,2,1,3; attestation=none" \
	"--status-header: the header says series, revision, completeness"
sed 1d out | cmp -s - "$p2"
ok $? "... and it is the only change"

git config --global lore-am.status-header true
pt -o o3 -m one.mbox <"$p2"
sed 1q out | grep -q '^X-Lore-Am: status=complete;'
ok $? "lore-am.status-header in git config adds it too"
git config --global --unset lore-am.status-header

# CRLF mail: the header ends like the mail's lines
sed 's/$/\r/' "$p2" >crlf
pt --status-header -o o4 -m one.mbox <crlf
is "$(sed -n '1{/\r$/p}' out | wc -l) $(sed 1d out | cmp -s - crlf && echo same)" \
	"1 same" "a CRLF mail gets a CRLF header, the rest unchanged"

pt --status-header -o o5 -m one.mbox </dev/null
is "$? $(wc -c <out)" "0 0" "empty input: exit 0, nothing out"

head -c 3000 /dev/urandom >junk
printf '\n' | cat - junk >notmail
pt --status-header -o o6 -m one.mbox <notmail
rc=$?
cmp -s out notmail
is "$rc $?" "0 0" "not mail: copied unchanged, no header, exit 0"

grep -v '^Message-I[dD]:' "$p2" >noid
pt --status-header -o o7 -m one.mbox <noid
is "$? $(sed 1q out)" "0 X-Lore-Am: status=error; code=2" \
	"no Message-ID: exit 0, status=error"
grep -q 'no usable Message-ID' err
ok $? "... and the reason on stderr"

pt --status-header -o o8 -m no-such.mbox <"$p2"
sed 1d out | cmp -s - "$p2"
is "$? $(sed 1q out | cut -d';' -f1)" "0 X-Lore-Am: status=incomplete" \
	"a mailbox not made yet: an empty one, the mail unchanged, status=incomplete"

pt --no-such-option -o o9 <"$p2"
rc=$?
cmp -s out "$p2"
is "$rc $? $(grep -c 'Unknown option' err)" "0 0 1" \
	"an unknown option: reported, the mail still copied, exit 0"

pt -m one.mbox <"$p2"
rc=$?
cmp -s out "$p2"
is "$rc $? $(grep -c 'needs -o DIR' err)" "0 0 1" \
	"no -o: reported, the mail still copied, exit 0"

: >a-file
pt --status-header -o a-file/sub -m one.mbox <"$p2"
is "$? $(sed 1q out | cut -d';' -f1-2) $(find . -name '*.mbx' -newer a-file | wc -l)" \
	"0 X-Lore-Am: status=error; code=74 0" \
	"output folder unusable: status=error, code 74, nothing written"

# larger than the 64 MiB kept in memory: streamed through untouched
{ cat "$p2"; head -c $((65 << 20)) /dev/zero | tr '\0' 'x' | fold -w 76; } >huge
pt --status-header -o o10 -m one.mbox <huge
rc=$?
sed 1d out | cmp -s - huge
is "$rc $? $(grep -c 'larger than 64 MiB' err)" "0 0 1" \
	"a 65 MiB mail: copied through whole, series work skipped, exit 0"
rm -f huge out

# the mail cannot be copied: not 0, so the delivery agent keeps its own
"$LORE_AM" --passthrough -o o11 -m one.mbox <"$p2" 2>err | true
rc=${PIPESTATUS[0]}
is "$rc $(grep -c 'cannot write standard output' err)" "74 1" \
	"stdout closed: exit 74, the delivery agent keeps the mail"

# not --passthrough: whichever message of the thread is piped, the same
# mbox (trailers come in the order the mailbox has them)
diff=0
for f in "$TRASH"/in/cur/*; do
	"$LORE_AM" -q -m one.mbox <"$f" >any.mbx 2>/dev/null || continue
	cmp -s any.mbx "$exp" || diff=$((diff + 1))
done
is "$diff" 0 "every message of the thread gives the same am-ready mbox"

pt --status-header -o o12 -m - <"$p2"
is "$? $(grep -c 'cannot be used' err)" "0 1" \
	"-m - with --passthrough: refused, mail copied, exit 0"
done_testing
