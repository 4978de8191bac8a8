#!/bin/bash
# t1016-reply-patch.t - a "Re:" mail that holds a whole patch is the patch
# when it is the mail the user pointed at (git am applies it), taken alone
# with a NOTE, and --parent takes the thread's series instead; when it is
# not the target, it stays a follow-up of the series it answers, as in b4.
# git am of the mail itself is the oracle. The thread comes from a real
# public-inbox-httpd (no -m, as the keys run lore-am) and from an mbox.
#
# | case | what it covers |
# |---|---|
# | bug report | "Re: <report subject>" with a patch, piped, no -m; -m; MSGID; --no-parent; --parent |
# | series | "Re: [PATCH 2/3]" with a fix: the series from patch 2 stays whole; the reply piped is the fix alone |
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 32

# ------------------------------------------------------------ test data
R=$TRASH/repo
series_repo "$R" 3 || exit 1
fmt "$R" "$TRASH/s" --cover-letter || exit 1
cover=$TRASH/s/0000-cover-letter.patch
p2=$(ls "$TRASH"/s/0002-*.patch)
(cd "$R" && git checkout -q -b fix topic && echo fixed >>part2.c &&
 git commit -q -am "part2: do not crash on empty input" \
	-m "The second piece read past the end of an empty buffer." \
	-m "Signed-off-by: Rae Viewer <rae@example.net>" &&
 git format-patch -q -1 --stdout >"$TRASH/fix.fp") || exit 1
# the fix's body as a mailer pastes it: message, "---", diffstat, diff
fixbody=$(sed '1,/^$/d' "$TRASH/fix.fp")

{ echo "From: Tess Ter <tess@example.net>"
  echo "Subject: part2 crashes on empty input"
  echo "Date: Mon, 1 Jan 2024 09:00:00 +0000"
  echo "Message-Id: <bug@example.net>"
  echo; echo "Feeding part2 an empty file crashes it."; } >"$TRASH/bug"
# a reply to the report that holds the fix, and a review of that reply
reply "$TRASH/refix" "$TRASH/bug" "Rae Viewer <rae@example.net>" "$fixbody"
reply "$TRASH/refix-rev" "$TRASH/refix" "Pat Contributor <pat@example.com>" \
	"Reviewed-by: Pat Contributor <pat@example.com>"
# in the series' thread: the fix as a reply to patch 2
reply "$TRASH/p2fix" "$p2" "Rae Viewer <rae@example.net>" "$fixbody"
to_mbox "$TRASH/all.mbox" "$TRASH"/s/*.patch "$TRASH/p2fix" "$TRASH/bug" \
	"$TRASH/refix" "$TRASH/refix-rev"
refix_id=$(msgid_of "$TRASH/refix")

pi_serve test "$TRASH/all.mbox" || exit 1
export NOTMUCH_CONFIG=$TRASH/no-notmuch-config

# run NAME FILE ARGS...: lore-am with FILE piped in, as a mail client does
run() { lore_in "$@"; }

# oracle MAIL OUT ONTO DESC [TRAILER]: git am of lore-am's output OUT gives
# the commit git am of MAIL itself gives on ONTO, plus TRAILER
oracle() {
	_mail=$1 _out=$2 _onto=$3 _desc=$4 _tr=${5:-}
	rm -rf "$TRASH/direct" "$TRASH/lore"
	git clone -q "$R" "$TRASH/direct" && git clone -q "$R" "$TRASH/lore" || return 1
	git -C "$TRASH/direct" checkout -q "origin/$_onto" -b am &&
		git -C "$TRASH/lore" checkout -q "origin/$_onto" -b am || return 1
	if ! git -C "$TRASH/direct" am -q "$_mail" >/dev/null 2>&1; then
		ok 1 "$_desc (git am of the mail itself failed)"
		return
	fi
	if ! git -C "$TRASH/lore" am -q "$_out" >"$TRASH/am.err" 2>&1; then
		ok 1 "$_desc (git am of lore-am's output failed)"
		sed 's/^/# /' "$TRASH/am.err" | head -5
		return
	fi
	{ commit_of "$TRASH/direct" | head -2
	  if [ -n "$_tr" ]; then
		git -C "$TRASH/direct" log -1 --format=%B |
			git interpret-trailers --trailer "$_tr"
	  else
		git -C "$TRASH/direct" log -1 --format=%B
	  fi; } >"$TRASH/want"
	commit_of "$TRASH/lore" >"$TRASH/got"
	same_file "$TRASH/got" "$TRASH/want" "$_desc"
}

rev="Reviewed-by: Pat Contributor <pat@example.com>"

# ------------------------------ 1. a reply to a bug report, with the fix
run arch "$TRASH/refix"
is "$(cat "$TRASH/arch.rc")" 0 "the reply with a patch piped in, no -m: exit 0"
check "the thread came from the archive" grep -q '^Sources: lore ' "$TRASH/arch.err"
check "a NOTE says it is taken alone, and how to get the series" \
	grep -q "^NOTE: <$refix_id> is a reply that holds a patch: taken alone.*--parent" \
	"$TRASH/arch.err"
is "$(grep -c '^Subject: \[PATCH\]' "$TRASH/arch.out")" 1 "one patch is written"
check "with git mailinfo's subject" \
	grep -qx 'Subject: \[PATCH\] part2 crashes on empty input' "$TRASH/arch.out"
oracle "$TRASH/refix" "$TRASH/arch.out" topic \
	"git am of it makes git am's commit of the mail, with the review's trailer" "$rev"
check "the tree is the fix's" git -C "$TRASH/lore" diff --quiet origin/fix HEAD

run mbox "$TRASH/refix" -m "$TRASH/all.mbox"
check "-m: the mailbox answers" \
	grep -qx 'Sources: mbox [0-9]* messages' "$TRASH/mbox.err"
run only "$TRASH/refix" --source mbox -m "$TRASH/all.mbox"
same_file "$TRASH/only.out" "$TRASH/arch.out" "--source mbox: the same bytes"
check "--source mbox: the reply with its patch is a whole series, no note of an incomplete one" \
	sh -c "! grep -q incomplete '$TRASH/only.err'"
is "$(cat "$TRASH/mbox.rc")" 0 "-m: exit 0"
same_file "$TRASH/mbox.out" "$TRASH/arch.out" "-m: the same bytes as the archive's"
check "-m: the NOTE" grep -q '^NOTE: <.*> is a reply that holds a patch' "$TRASH/mbox.err"

"$LORE_AM" -m "$TRASH/all.mbox" "$refix_id" >"$TRASH/id.out" 2>"$TRASH/id.err"
is "$?" 0 "named by its Message-ID: exit 0"
same_file "$TRASH/id.out" "$TRASH/arch.out" "named by its Message-ID: the same bytes"

run nop "$TRASH/refix" --no-parent
is "$(cat "$TRASH/nop.rc")" 0 "--no-parent: exit 0"
same_file "$TRASH/nop.out" "$TRASH/arch.out" "--no-parent: the same bytes"
check "--no-parent: no NOTE (it was asked for)" \
	sh -c "! grep -q 'holds a patch' '$TRASH/nop.err'"

run par "$TRASH/refix" --parent -m "$TRASH/all.mbox"
is "$(cat "$TRASH/par.rc")" 1 "--parent: a follow-up of a report without patches: exit 1"
check "--parent: nothing written" test ! -s "$TRASH/par.out"
check "--parent: 'no patches found'" grep -q '^lore-am: no patches found' "$TRASH/par.err"

# ------------------ 2. inside a series' thread: a follow-up unless pointed at
run ser "$p2"
is "$(cat "$TRASH/ser.rc")" 0 "patch 2 piped in: exit 0"
is "$(grep -c '^Subject: \[PATCH [123]/3\]' "$TRASH/ser.out")" 3 \
	"the series of three, the reply with a diff not among them"
check "no NOTE" sh -c "! grep -q 'holds a patch' '$TRASH/ser.err'"
apply_into "$TRASH/ser.out" "$TRASH/am-ser" "$R" >/dev/null 2>&1
is "$?" 0 "git am applies the series"
check "the tree is the series' own, not the fix's" \
	git -C "$TRASH/am-ser" diff --quiet origin/topic HEAD
run ser-m "$p2" -m "$TRASH/all.mbox"
same_file "$TRASH/ser-m.out" "$TRASH/ser.out" "-m: the same series"

run p2fix "$TRASH/p2fix"
is "$(cat "$TRASH/p2fix.rc")" 0 "the reply with the fix piped in: exit 0"
is "$(grep -c '^Subject: \[PATCH\] part: add piece 2$' "$TRASH/p2fix.out")" 1 \
	"it alone is written, with git mailinfo's subject"
check "a NOTE says so" grep -q '^NOTE: <.*> is a reply that holds a patch' \
	"$TRASH/p2fix.err"
oracle "$TRASH/p2fix" "$TRASH/p2fix.out" topic \
	"git am of it makes git am's commit of the mail"
run p2fix-par "$TRASH/p2fix" --parent
same_file "$TRASH/p2fix-par.out" "$TRASH/ser.out" "--parent: the series it answers"

done_testing
