#!/bin/bash
# lore-am ty on tracking files another program wrote, or anyone edited:
# a cut, an over-large, a too deeply nested, a non-UTF-8 file is named in
# one line and left as it was, while the others are thanked (exit 2 at
# the end); a subject or References with line breaks cannot add a header;
# a msgid that is no Message-ID is refused; a subject made of path parts
# makes a plain file name; -t and -d take only numbers of the list; -d
# moves the file to NAME.am.discarded as b4 does; a pull request (.pr)
# not named after a commit id is refused, its name never given to git.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 23

make_repo "$TRASH/u" >/dev/null
cd "$TRASH/u" || exit 1
data=$HOME/.local/share/b4
mkdir -p "$data"
# track NAME SUBJECT MSGID [REFERENCES]: a tracking file as b4 am writes
# it, one patch, its mtime a second after the one before
_t=1700000000
track() {
	/usr/bin/python3 - "$data/$1" "$2" "$3" "${4:-}" <<'PY'
import json, sys
path, subj, msgid, refs = sys.argv[1:5]
json.dump({'msgid': msgid, 'subject': subj, 'fromname': 'Pat Contributor',
           'fromemail': 'pat@example.com', 'to': 'list@example.org', 'cc': '',
           'references': refs, 'sentdate': 'Tue, 2 Jan 2024 10:00:00 +0000',
           'quote': '> A change.', 'cherrypick': False,
           'patches': [['a change', '0' * 40, msgid, '1/1']]},
          open(path, 'w'), indent=4)
PY
	_t=$((_t + 1))
	touch -d "@$_t" "$data/$1"
}
track 1-good.am "[PATCH] a change" good@example.com
track 2-cut.am "[PATCH] cut" cut@example.com
head -c 100 "$data/2-cut.am" >"$data/2-cut.tmp" && mv "$data/2-cut.tmp" "$data/2-cut.am"
touch -d "@1700000002" "$data/2-cut.am"
track 3-inject.am "$(printf '[PATCH] x\nBcc: evil@example.com')" inject@example.com \
	"$(printf '<a@example.com>\r\nBcc: evil2@example.com')"
track 4-badid.am "[PATCH] bad id" "a b@example.com"
track 5-path.am "[PATCH] ../../etc/passwd" path@example.com
track 6-pull.pr "[GIT PULL] a tree" "$(printf 'pull\033]0;owned\007@example.com')"
/usr/bin/python3 -c "print('[' * 100000 + ']' * 100000)" >"$data/7-deep.am"
touch -d "@1700000007" "$data/7-deep.am"
printf '{"msgid": "\xff\xfe"}' >"$data/8-latin.am"
touch -d "@1700000008" "$data/8-latin.am"
head -c 5000000 /dev/zero | tr '\0' ' ' >"$data/9-big.am"
touch -d "@1700000009" "$data/9-big.am"
sums() { (cd "$data" && md5sum 2-cut.am 7-deep.am 8-latin.am 9-big.am 4-badid.am 6-pull.pr); }
before=$(sums)

"$LORE_AM" ty -l 2>"$TRASH/l.err"
is "$?" 0 "ty -l with broken files among them"
is "$(grep -c '^  *[0-9]*: ' "$TRASH/l.err")" 9 "every file listed, numbered as b4 numbers them"
check "the cut one: the line where the JSON broke" grep -q '^  2: 2-cut.am: cannot be read: line [0-9]*: ' "$TRASH/l.err"
check "the deep one: nested too deep" grep -q '^  7: 7-deep.am: cannot be read: line 1: nested too deep' "$TRASH/l.err"
check "the non-UTF-8 one" grep -q '^  8: 8-latin.am: cannot be read: line 1: a string that is not UTF-8' "$TRASH/l.err"
check "the big one" grep -q '^  9: 9-big.am: cannot be read: not a file of at most 4194304 bytes' "$TRASH/l.err"
check "the injected subject listed on one line" grep -q '^  3: \[PATCH\] x?Bcc: evil@example.com$' "$TRASH/l.err"
check "an escape in a msgid reaches no terminal" eval \
	"! grep -q \$'\\033' '$TRASH/l.err' && grep -q '^       Link: https://lore.kernel.org/r/pull?\]0;owned?@example.com$' '$TRASH/l.err'"

"$LORE_AM" ty -t 1-9 -o "$TRASH/out" 2>"$TRASH/t.err"
is "$?" 2 "-t 1-9: exit 2, for the files it could not read"
check "each broken file named in one line" eval \
	"[ \$(grep -c \"^lore-am: cannot read '$data/\" '$TRASH/t.err') = 4 ]"
check "the bad Message-ID refused" grep -q "^lore-am: cannot thank for '\[PATCH\] bad id': its msgid 'a b@example.com' is no Message-ID" "$TRASH/t.err"
check "the pull request not named after its tip: refused" grep -q "^lore-am: cannot thank for '\[GIT PULL\] a tree': '6-pull.pr' is not named TIP.pr after a commit id" "$TRASH/t.err"
is "$(ls "$TRASH/out" | sort | tr '\n' ' ')" \
	"pat_example_com_patch_a_change.thanks pat_example_com_patch_etc_passwd.thanks pat_example_com_patch_x_bcc_evil_example_com.thanks " \
	"three thanks, plain file names in DIR"
inj="$TRASH/out/pat_example_com_patch_x_bcc_evil_example_com.thanks"
check "no header added by the subject or References" eval \
	"! grep -qi '^Bcc:' '$inj' && grep -q '^Subject: Re: \[PATCH\] x Bcc: evil@example.com$' '$inj' &&
	 grep -q '^References: <a@example.com> Bcc: evil2@example.com <inject@example.com>$' '$inj'"
check "every line ends in LF alone" eval "! grep -q \$'\r' '$inj'"
is "$(sums)" "$before" "the files not thanked are as they were"
is "$(cd "$data" && ls ./*.sent | wc -l)" 3 "the thanked ones moved to .sent"

"$LORE_AM" ty -t 10 2>"$TRASH/r.err"
is "$?.$(cat "$TRASH/r.err")" \
	"2.lore-am: -t '10' is no number from 1 to 6, nor a range of them (1,3-5,7- or all)" \
	"-t past the list: refused"
"$LORE_AM" ty -d 0 2>/dev/null
is "$?" 2 "-d 0: refused (b4 would take the last one)"
"$LORE_AM" ty -t 'x;rm' 2>/dev/null
is "$?" 2 "-t with words: refused"
first=$(cd "$data" && ls -tr ./*.am ./*.pr | head -1 | sed 's|^\./||')
"$LORE_AM" ty -d 1 2>"$TRASH/d.err"
is "$?" 0 "-d 1"
check "moved to NAME.discarded, as b4 does" eval "[ ! -e '$data/$first' ] && [ -e '$data/$first.discarded' ]"
# b4 itself stops at the first file it cannot read: those go first
rm -f "$data/2-cut.am" "$data/7-deep.am" "$data/8-latin.am" "$data/9-big.am"
b4 ty -l >"$TRASH/b4l.out" 2>&1
check "b4 ty -l no longer lists it" eval "! grep -q '$first' '$TRASH/b4l.out' && grep -q 'Currently tracking' '$TRASH/b4l.out'"
done_testing
