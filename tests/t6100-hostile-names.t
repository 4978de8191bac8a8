#!/bin/bash
# Hostile names: Message-IDs and subjects full of "../", "/", shell
# metacharacters, line breaks and control characters never escape the
# output folder, never reach a shell, and never smuggle a header or a
# trailer into the am-ready mbox; output files are slugged and replaced
# atomically, and a full disk leaves the old files as they were.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hostile.sh"

plan 26
# the queue's file ($HOME/.local/share/lore-am) is written by every run
# that finds a series, on purpose (t9400 tests it): here the check is that
# a hostile thread makes nothing else, so the queue is off
git config --global lore-am.queue false
hostile_thread || { echo "Bail out! cannot generate the thread"; exit 1; }
cd "$TRASH" || exit 1

# every header of every message in an am-ready mbox is one we write
only_our_headers() {
	perl -ne '
		if (/^From \S+ .* \d{4}$/) { $h = 1; next }
		if ($h && /^$/) { $h = 0; next }
		next unless $h;
		next if /^[ \t]/;
		exit 1 unless /^(Subject|From|Date|Message-Id|MIME-Version|Content-Type|Content-Transfer-Encoding): /;
	' "$1"
}

# -- ids made of paths and shell --------------------------------------------
evil_cover='../../..%2Fetc;$(touch${IFS}pwned)`touch${IFS}pwned2`|&*?[x]@evil.example'
evil_p1='a/b/../../../../tmp/x@evil.example'
cp "$THREAD" ids.mbox
A=$COVER B=$evil_cover C=$P1 D=$evil_p1 \
	perl -0pi -e 's/\Q$ENV{A}\E/$ENV{B}/g; s/\Q$ENV{C}\E/$ENV{D}/g' ids.mbox
grep -qF "$evil_cover" ids.mbox && grep -qF "$evil_p1" ids.mbox
ok $? "the thread now uses the hostile ids"
mkdir jail meta && cd jail || exit 1
# (the -m index lives in the cache, named by a hash of the mailbox's path)
listing() {
	find "$TRASH" -mindepth 1 ! -path "$TRASH/jail/out*" ! -path "$TRASH/meta*" \
		! -path "$TRASH/cache/lore-am/index*" ! -path "$TRASH/cache/lore-am" \
		! -path "$TRASH/cache" | sort
}
listing >"$TRASH/meta/before"
lore ids -l -m "$TRASH/ids.mbox" -o out "$evil_cover" </dev/null
is "$RC" 0 "a hostile Message-ID as the argument: written"
ls out >"$TRASH/meta/names"
is "$(grep -cvE '^[[:alnum:]_]+\.(mbx|cover)$' "$TRASH/meta/names")" 0 \
	"only slugged names in the output folder ($(tr '\n' ' ' <"$TRASH/meta/names"))"
is "$(wc -l <"$TRASH/meta/names")" 2 "one .mbx and one .cover"
listing >"$TRASH/meta/after"
is "$(comm -13 "$TRASH/meta/before" "$TRASH/meta/after" | tr '\n' ' ')" \
	"$TRASH/ids.err $TRASH/ids.out " \
	"nothing else was created outside the output folder"
[ -z "$(find "$TRASH" -name 'pwned*')" ] && [ ! -e /pwned ] && [ ! -e /pwned2 ]
ok $? "no shell ran any of it (no pwned file anywhere)"
grep -qF "Link: https://patch.msgid.link/$evil_p1" out/*.mbx
ok $? "the id is kept verbatim in the Link trailer"
cd "$TRASH" || exit 1
applies "$TRASH/jail/out/"*.mbx "and git am applies the mbox"

lore badarg -m "$THREAD" $'a\nb@x'
refused badarg 2 "'a\\?b@x' is not a Message-ID or archive URL" \
	"an id with a line break is refused, shown without it"

# -- subjects and names with paths, shell and line breaks -------------------
cp "$THREAD" subj.mbox
"$MAIL_EDIT" subj.mbox "$COVER" 'set_header("Subject", q{[PATCH 0/5] ../../../etc/passwd $(touch pwned) `id`; rm -rf / | tee x})'
"$MAIL_EDIT" subj.mbox "$P1" "set_header('Subject', '[PATCH 1/5] $(b64w 'gpio: beacon-core: recover\nX-Evil: yes\n\nand\x1b[2J')')"
"$MAIL_EDIT" subj.mbox "$P2" "set_header('From', '$(b64w 'Dana Patchwell\nSigned-off-by: Fake One <fake@evil.example>')'.' <dana.patchwell@example.org>')"
"$MAIL_EDIT" subj.mbox "$P3" "set_header('Cc', '$(b64w 'Cee\n\nReviewed-by: Fake Two <fake2@evil.example>')'.' <cee@example.org>')"
lore subj --cc-trailers -m subj.mbox -o out "$COVER" </dev/null
is "$RC" 0 "hostile subjects and names: written"
ls out >names
is "$(grep -cvE '^[[:alnum:]_]+\.(mbx|cover)$' names)" 0 \
	"slugged: $(head -1 names)"
[ ! -e pwned ] && [ ! -e x ] && [ ! -e etc ]
ok $? "no shell ran the subject"
only_our_headers out/*.mbx
ok $? "no header was smuggled in through an encoded line break"
! grep -q "^X-Evil" out/*.mbx && ! grep -q '^Signed-off-by: Fake One' out/*.mbx &&
	! grep -q '^Reviewed-by: Fake Two' out/*.mbx
ok $? "no trailer was smuggled in through a From or Cc name"
! grep -q $'\x1b' out/*.mbx
ok $? "no escape character reaches the mbox"
git -C "$REPO" checkout -q -f -B subj base &&
	git -C "$REPO" am -q "$TRASH"/out/*.mbx >am.log 2>&1
ok $? "git am applies it"
git -C "$REPO" log --format=%B base..HEAD >log.txt
! grep -q "^Signed-off-by: Fake One" log.txt && ! grep -q "^Reviewed-by: Fake Two" log.txt
ok $? "and no fake trailer is in any commit"

# -- atomic replacement -------------------------------------------------------
rm -rf out
lore first -m "$THREAD" -o out "$COVER" </dev/null
mbx=$(ls out/*.mbx) cov=$(ls out/*.cover)
echo OLD >"$mbx" && ln "$mbx" old-link
echo precious >outside.txt && rm "$cov" && ln -s "$TRASH/outside.txt" "$cov"
lore again -m "$THREAD" -o out "$COVER" </dev/null
is "$RC" 0 "written again over the old files"
grep -q "^Subject: \[PATCH 1/5\]" "$mbx" && [ "$(cat old-link)" = OLD ]
ok $? "the old .mbx was replaced by a rename (a hard link to it keeps OLD)"
[ ! -L "$cov" ] && [ "$(cat outside.txt)" = precious ]
ok $? "a symlink at the .cover name is replaced, its target untouched"
is "$(ls out | grep -c tmp)" 0 "no temporary file is left"

# -- a full disk --------------------------------------------------------------
cp "$mbx" keep.mbx && cp "$cov" keep.cover
echo OLD >"$mbx"
(ulimit -f 4; exec "$LORE_AM" -q -m "$THREAD" -o out "$COVER") </dev/null \
	>full.out 2>full.err
RC=$?
refused full 74 "cannot write '.*': File too large \(the old file, if any, is unchanged\)" \
	"past ulimit -f: exit 74, said in one line"
[ "$(cat "$mbx")" = OLD ] && cmp -s "$cov" keep.cover
ok $? "both old files are intact"
is "$(ls out | grep -c tmp)" 0 "no temporary file is left"

mkdir tiny
if unshare -rm true 2>/dev/null; then
	unshare -rm sh -c '
		mount -t tmpfs -o size=12k tmpfs tiny || exit 99
		echo OLD >tiny/old.mbx
		"$0" -q -m "$1" -o tiny "$2" </dev/null >tiny.out 2>tiny.err
		echo $? >tiny.rc
		ls tiny >tiny.ls
		cat tiny/*.mbx >tiny.content 2>/dev/null
	' "$LORE_AM" "$THREAD" "$COVER"
	RC=$(cat tiny.rc)
	refused tiny 74 "cannot write '.*': No space left on device" \
		"a full tmpfs: exit 74, said in one line"
	is "$(grep -c tmp tiny.ls)" 0 "no temporary file is left on it"
else
	skip "unshare -rm not permitted here: no tmpfs of our own"
	skip "unshare -rm not permitted here: no tmpfs of our own"
fi
done_testing
