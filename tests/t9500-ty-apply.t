#!/bin/bash
# lore-am ty after `lore-am --apply` (lore-am.track = true): the series
# the branch holds is found (-a) and thanked with the mail the real `b4 ty
# -a` writes from the same tracking file and branch (read back as mail and
# compared: recipients with b4.email-exclude and the mailmap applied,
# subject, In-Reply-To/References, body; only the Message-Id and Date are
# each tool's own); as b4's NAME.thanks in -o DIR, then the tracking file
# moved to NAME.am.sent, which b4 ty then leaves alone. --dry-run prints
# the same mail and moves nothing; -t 1 --maildir delivers it; .thanks
# files left in DIR stop a run, as in b4.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-ty.sh"
plan 22

series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter --to=list@example.org \
	--cc="Rév Ïewer <rev@example.com>" --cc='"Doe, Jane" <jane@example.com>' \
	--cc=bot@ci.example.net
cover_letter "Add the pieces" "Hello,\n\nThis adds three pieces." \
	"$TRASH/p/0000-cover-letter.patch"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-part-add-piece-1.patch")
data=$HOME/.local/share/b4
name="$(date -u +%Y%m%d)_maintainer_add_the_pieces.am"
slug=maintainer_example_org_patch_0_3_add_the_pieces

user_clone "$TRASH/u" base
git -C "$TRASH/u" config lore-am.track true
git -C "$TRASH/u" config b4.email-exclude '*@ci.example.net'
printf 'Jane Doe <jane@new.example.com> <jane@example.com>\n' >"$TRASH/u/.mailmap"
cd "$TRASH/u" || exit 1
"$LORE_AM" -q -m "$TRASH/thread.mbox" --apply "$id"
ok $? "lore-am --apply with lore-am.track = true"

# b4 first: its --dry-run writes the .thanks but keeps the tracking file
b4 ty -a --dry-run -o "$TRASH/b4" >"$TRASH/b4.out" 2>&1
want="$TRASH/b4/$slug.thanks"
check "b4 ty -a finds and thanks the series" test -s "$want"

"$LORE_AM" ty -a -o "$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "lore-am ty -a -o DIR"
check "one .thanks, named as b4 names it" test -s "$TRASH/out/$slug.thanks"
ty_same "$TRASH/out/$slug.thanks" "$want" "the same mail as b4 ty's"
is "$(ty_own "$TRASH/out/$slug.thanks")" ok "its own Message-Id and Date"
check "the bot left out, the mailmap's address in" eval \
	"! grep -q 'bot@' '$TRASH/out/$slug.thanks' && grep -q '^Cc: .*\"Jane Doe\" <jane@new.example.com>\|^Cc: .*Jane Doe <jane@new.example.com>' '$TRASH/out/$slug.thanks'"
check "each commit named" eval "[ \"\$(grep -c '^      commit: ' '$TRASH/out/$slug.thanks')\" = 3 ] &&
	grep -q \"commit: \$(git rev-parse HEAD)\" '$TRASH/out/$slug.thanks'"
check "it says where the thanks went and how to send them" eval \
	"grep -q '^  Writing: $TRASH/out/$slug.thanks' '$TRASH/err' &&
	 grep -q '^  git send-email $TRASH/out/\*.thanks' '$TRASH/err'"
check "the tracking file moved to NAME.am.sent, as b4 moves it" eval \
	"[ ! -e '$data/$name' ] && [ -s '$data/$name.sent' ]"
b4 ty -l >"$TRASH/l.out" 2>&1
check "b4 ty -l: nothing left to thank" grep -q "No thanks necessary" "$TRASH/l.out"

# again, from the same tracking file
mv "$data/$name.sent" "$data/$name"
# the queue's mark is lore-am ty's own, not read back from the .sent file
is "$("$LORE_AM" queue | awk '{ print $1 }')" thanked \
	"the queue says thanked, the .sent file gone"
"$LORE_AM" ty -a -o "$TRASH/out" 2>"$TRASH/stale.err"
is "$?.$(cat "$TRASH/stale.err")" \
	"74.lore-am: '$TRASH/out' holds .thanks files: send them (or delete them) first, as b4 ty asks" \
	"a .thanks left in DIR: refused (74), as b4 refuses"
check "the tracking file stays" test -e "$data/$name"

"$LORE_AM" ty -a --dry-run >"$TRASH/dry.mbx" 2>"$TRASH/dry.err"
is "$?" 0 "--dry-run"
is "$(grep -c '^From ' "$TRASH/dry.mbx")" 1 "prints one mail, an mbox on stdout"
sed '1d; ${/^$/d}' "$TRASH/dry.mbx" >"$TRASH/dry.eml"
ty_same "$TRASH/dry.eml" "$want" "the same mail as b4 ty's"
check "and moves nothing" test -e "$data/$name"


"$LORE_AM" ty -t 1 --maildir "$TRASH/md" 2>"$TRASH/md.err"
is "$?.$(ls "$TRASH/md/cur" | wc -l)" 0.1 "-t 1 --maildir DIR: one mail delivered"
ty_same "$(ls -d "$TRASH"/md/cur/* | head -1)" "$want" "the same mail as b4 ty's"
check "the tracking file moved" eval "[ ! -e '$data/$name' ] && [ -e '$data/$name.sent' ]"
# the last commit reworded: only its patch-id matches its mail now; a
# textconv driver on every file: git log -p would show the driver's text,
# not the commit's diff, and that patch-id would match nothing
mv "$data/$name.sent" "$data/$name"
git commit -q --amend -m "part: the third piece, reworded"
printf '#!/bin/sh\ntr a-z A-Z <"$1"\n' >"$TRASH/upcase"
chmod +x "$TRASH/upcase"
git config diff.up.textconv "$TRASH/upcase"
echo '* diff=up' >.git/info/attributes
"$LORE_AM" ty -a --dry-run >"$TRASH/tc.mbx" 2>/dev/null
rm .git/info/attributes
git config --unset diff.up.textconv
check "a reworded commit, a textconv driver on every file: all three commits named" eval \
	"[ \"\$(grep -c '^      commit: ' '$TRASH/tc.mbx')\" = 3 ]"
done_testing
