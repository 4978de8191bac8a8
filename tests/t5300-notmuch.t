#!/bin/bash
# notmuch/post-new run by a real `notmuch new` on a test maildir: it writes
# the am-ready mbox of each series that new mail starts or completes, tags
# the series' messages (+am-ready, or +am-incomplete with am-missing-N),
# runs lore-am once per series (twice for an incomplete one, to learn its
# messages) and never again for threads with nothing new, writes and tags
# each of two series that notmuch joins in one thread (a bogus
# In-Reply-To: <yes>), names the message in each line it prints, and never
# makes `notmuch new` fail.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-series.sh"

command -v notmuch >/dev/null || skip_all "notmuch not installed"
plan 24

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
hooks_path
# lore-am as installed, with a log of its runs to count them
cat >"$TRASH/bin/lore-am-logged" <<EOS
#!/bin/sh
echo run >>"$TRASH/runs"
exec "$LORE_AM" "\$@"
EOS
chmod +x "$TRASH/bin/lore-am-logged"
real_lore_am=$LORE_AM
export LORE_AM=$TRASH/bin/lore-am-logged
runs() { n=$(wc -l <"$TRASH/runs" 2>/dev/null || echo 0); : >"$TRASH/runs"; echo $((n)); }

mail=$TRASH/mail
to_maildir "$TRASH/both.mbox" "$mail/lists"
# patch 3/5 of series one arrives later
p3=$(grep -l '^Message-I[dD]: <20240101120000.3.v1-PATCH@example.org>' "$mail"/lists/cur/*)
mv "$p3" "$TRASH/patch3"

notmuch_hook_setup "$mail"
notmuch config set lore-am.outdir "~/patches"
notmuch config set lore-am.args "-l"

expect_args() { "$real_lore_am" -q -l -m "$TRASH/both.mbox" -o "$2" "$1"; }

# 1. the first indexing: series two is complete, series one lacks 3/5
notmuch new >"$TRASH/out1" 2>"$TRASH/err1"
is $? 0 "notmuch new runs the hook and succeeds"
one=$(notmuch search --output=threads id:"$ONE_ID")
two=$(notmuch search --output=threads id:"$TWO_ID")
# (and once more for the queue's tags of every series done: lore-am queue)
is "$(runs)" 4 "lore-am ran once per series (twice for the incomplete one), not once per new message"
is "$(notmuch count "$two and tag:am-ready") $(notmuch count "$two")" \
	"$(notmuch count "$two") $(notmuch count "$two")" \
	"the complete series' thread is tagged am-ready"
expect_args "$TWO_ID" "$TRASH/exp-two" >/dev/null 2>&1
exp_two=$(only_file "$TRASH/exp-two" '*.mbx')
check "its am-ready mbox is written, with lore-am.args (-l) applied" \
	cmp "$HOME/patches/${exp_two##*/}" "$exp_two"
is "$(notmuch search --output=tags "$one" | grep '^am-' | sort | tr '\n' ' ')" \
	"am-incomplete am-missing-3 " \
	"the incomplete series' thread is tagged am-incomplete, am-missing-3"
grep -q "^lore-am post-new: <[^>]*@[^>]*>: .* is incomplete, missing patches 3\$" "$TRASH/err1"
ok $? "... and the missing patch is named on stderr, with the message"
is "$(find "$HOME/patches" -name '*.mbx' | wc -l)" 1 \
	"nothing is written for the incomplete series"

# the user's own hook would drop "new"; nothing new: nothing done
notmuch tag -new -- tag:new
notmuch new >/dev/null 2>&1
is "$(runs)" 0 "a run with no new mail does no thread again"

# 2. patch 3/5 arrives: the series is complete
cp "$TRASH/patch3" "$mail/lists/new/patch3"
notmuch new >/dev/null 2>"$TRASH/err2"
is "$(runs)" 2 "the new patch redoes its thread only"
is "$(notmuch search --output=tags "$one" | grep '^am-' | sort | tr '\n' ' ')" \
	"am-ready " "the thread is now am-ready, the old tags gone"
expect_args "$ONE_ID" "$TRASH/exp-one" >/dev/null 2>&1
exp_one=$(only_file "$TRASH/exp-one" '*.mbx')
check "the completed series' am-ready mbox is written" \
	cmp "$HOME/patches/${exp_one##*/}" "$exp_one"
notmuch tag -new -- tag:new

# 3. a late review of series two updates its mbox
cat >"$mail/lists/new/review" <<EOM
From: Zed Reviewer <zed@example.net>
To: list@example.org
Subject: Re: [PATCH 1/3] late review
Date: Mon, 15 Jan 2024 10:00:00 +0000
Message-ID: <zed-review@example.net>
In-Reply-To: <20240101120000.1.v1-OTHER@example.org>
References: <20240101120000.0.v1-OTHER@example.org> <20240101120000.1.v1-OTHER@example.org>

Looks good to me.

Reviewed-by: Zed Reviewer <zed@example.net>
EOM
# and a mail that is no patch at all
chat_mail "$mail/lists/new/chat"
notmuch new >/dev/null 2>&1
is "$(runs)" 2 "a new review redoes its thread; other mail is left alone"
grep -q '^Reviewed-by: Zed Reviewer <zed@example.net>' \
	"$HOME/patches/${exp_two##*/}"
ok $? "the review's trailer is in the updated mbox"
is "$(notmuch count "$two and not tag:am-ready")" 0 \
	"the new message is tagged am-ready with its thread"
is "$(notmuch search --output=tags id:lunch@example.net | grep -c '^am-')" 0 \
	"the other mail gets no am- tag"
notmuch tag -new -- tag:new

# 4. lore-am failing (its output folder is a file) does not fail notmuch new
notmuch config set lore-am.outdir "$TRASH/not-a-folder"
: >"$TRASH/not-a-folder"
sed 's/^Message-ID: <zed-review@/Message-ID: <zed-review2@/' \
	"$mail/lists/new/review" >"$mail/lists/new/review2"
notmuch new >/dev/null 2>"$TRASH/err4"
rc=$?
grep -q 'lore-am failed' "$TRASH/err4"
is "$rc $?" "0 0" "a failing lore-am is reported and notmuch new still succeeds"
is "$(notmuch search --output=tags "$two" | grep '^am-' | tr '\n' ' ')" \
	"am-ready " "... and the thread keeps the tags it had"
notmuch tag -new -- tag:new

# 5. two series whose patches answer the same bogus In-Reply-To: <yes>:
# notmuch makes them one thread; both are done, each on its own messages
notmuch config set lore-am.outdir "~/yes"
series_repo "$TRASH/ra" 2 alpha >/dev/null
series_repo "$TRASH/rb" 3 beta >/dev/null
fmt "$TRASH/ra" "$TRASH/pa" --in-reply-to=yes
fmt "$TRASH/rb" "$TRASH/pb" --in-reply-to=yes
sed -i 's/^From: Pat Contributor <pat@example.com>/From: Bea Other <bea@example.net>/' \
	"$TRASH"/pb/*.patch
rm "$TRASH"/pb/0002-*.patch   # beta's 2/3 is still on its way
for f in "$TRASH"/pa/*.patch "$TRASH"/pb/*.patch; do
	d=${f%/*}
	sed 1d "$f" >"$mail/lists/new/yes-${d##*/}-${f##*/}"   # no From_ line
done
a1=$(msgid_of "$TRASH"/pa/0001-*)
b1=$(msgid_of "$TRASH"/pb/0001-*)
notmuch new >/dev/null 2>"$TRASH/err5"
is "$(notmuch search --output=threads "id:$a1"):$(notmuch count "id:$a1 or id:$b1")" \
	"$(notmuch search --output=threads "id:$b1"):2" "notmuch joins the two series in one thread"
is "$(ls "$HOME/yes" 2>/dev/null | grep -c 'alpha.*\.mbx$')" 1 \
	"the complete series of that thread is written"
is "$(notmuch count "from:pat@example.com and subject:alpha and tag:am-ready and not tag:am-incomplete")" 2 \
	"its patches, and only those, are tagged am-ready"
is "$(notmuch count "from:bea@example.net and tag:am-incomplete and tag:am-missing-2 and not tag:am-ready")" 2 \
	"the other series' patches are tagged am-incomplete, am-missing-2"
grep -q "<$b1>: .*incomplete, missing patches 2\|<$(msgid_of "$TRASH"/pb/0003-*)>: .*incomplete, missing patches 2" "$TRASH/err5"
ok $? "the incomplete one is named on stderr with its message"
is "$(grep -vc '^lore-am post-new: <[^>]*>: ' "$TRASH/err5")" 0 \
	"every line the hook prints names its message"
is "$(ls "$HOME/yes" | grep -c '\.mbx$')" 1 "nothing is written for the incomplete one"
done_testing
