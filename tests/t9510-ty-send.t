#!/bin/bash
# lore-am ty on the tracking file the real `b4 shazam` wrote (b4's own
# files stay readable): a template of one's own (b4.thanks-am-template,
# its '#' lines left out), b4.thanks-commit-url-mask, ${branch} and
# ${treename} from the branch's upstream and its remote's url, compared
# with the real b4 ty's mail; then --send through git send-email, with a
# sendmail replacement as sendemail.smtpServer that keeps what it is
# given: the mail as b4 writes it, to its recipients, the tracking file
# moved only once it went out (a failing sendmail leaves it, exit 74).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-ty.sh"
plan 14

series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter --to=list@example.org --cc=rev@example.com
cover_letter "Add the pieces" "This adds three pieces." "$TRASH/p/0000-cover-letter.patch"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-part-add-piece-1.patch")
data=$HOME/.local/share/b4
slug=maintainer_example_org_patch_0_3_add_the_pieces

user_clone "$TRASH/u"
cd "$TRASH/u" || exit 1
git remote set-url origin https://git.example.org/pub/scm/linux/kernel/git/maint/tree.git
git config b4.thanks-commit-url-mask 'https://git.example.org/c/%s'
cat >"$HOME/ty.tpl" <<'TPL'
# a comment b4 leaves out
Hello ${fromname},

Applied to ${branch} of ${treename}, $$5 and ${unknown} as they are:

${summary}

-- 
${myname}
TPL
git config b4.thanks-am-template '~/ty.tpl'
b4 -q --offline-mode shazam -m "$TRASH/thread.mbox" "$id" >/dev/null 2>&1
ok $? "the real b4 shazam applies the series and tracks it"
b4file=$(ls "$data"/*.am 2>/dev/null)
check "b4's own tracking file" test -s "$b4file"

b4 ty -a --dry-run -o "$TRASH/b4" >/dev/null 2>&1
want="$TRASH/b4/$slug.thanks"
"$LORE_AM" ty -a --dry-run >"$TRASH/dry.mbx" 2>/dev/null
sed '1d; ${/^$/d}' "$TRASH/dry.mbx" >"$TRASH/dry.eml"
ty_same "$TRASH/dry.eml" "$want" "b4's tracking file, one's own template: the same mail as b4 ty's"
check "the template filled: branch, tree, mask; \$\$ and unknowns as Python leaves them" \
	eval "grep -q '^Applied to main of maint/tree.git, \$5 and \${unknown} as they are:' '$TRASH/dry.eml' &&
	grep -q '^      https://git.example.org/c/$(git rev-parse HEAD)' '$TRASH/dry.eml' &&
	! grep -q 'a comment' '$TRASH/dry.eml'"

# a sendmail that fails, then one that keeps what it is given
mkdir -p "$TRASH/bin" "$TRASH/sent"
printf '#!/bin/sh\ncat >/dev/null\necho "mail server says no" >&2\nexit 1\n' >"$TRASH/bin/nosend"
cat >"$TRASH/bin/keep" <<EOF2
#!/bin/sh
n=\$(ls "$TRASH/sent" | wc -l)
printf '%s\n' "\$@" >"$TRASH/sent/\$n.args"
cat >"$TRASH/sent/\$n.eml"
EOF2
chmod +x "$TRASH/bin/nosend" "$TRASH/bin/keep"
git config sendemail.smtpServer "$TRASH/bin/nosend"
"$LORE_AM" ty -a --send 2>"$TRASH/no.err"
is "$?" 74 "--send, sendmail fails: exit 74"
check "one line says so" eval "[ \$(wc -l <'$TRASH/no.err') -le 3 ] &&
	grep -q \"^lore-am: the thanks for '\[PATCH 0/3\] Add the pieces' is not written: git send-email did not send it\" '$TRASH/no.err'"
check "and the tracking file stays" test -e "$b4file"

git config sendemail.smtpServer "$TRASH/bin/keep"
git config b4.ty-send-email true
"$LORE_AM" ty -a 2>"$TRASH/send.err"
is "$?" 0 "b4.ty-send-email = true: sent through sendemail.smtpServer"
is "$(ls "$TRASH/sent"/*.eml 2>/dev/null | wc -l)" 1 "one mail went out"
ty_same "$TRASH/sent/0.eml" "$want" "the mail b4 ty writes"
check "to its recipients, from the maintainer" eval \
	"grep -qx 'list@example.org' '$TRASH/sent/0.args' && grep -qx 'rev@example.com' '$TRASH/sent/0.args' &&
	 grep -qx 'maintainer@example.org' '$TRASH/sent/0.args'"
check "it says so" grep -q "^  Sent: Re: \[PATCH 0/3\] Add the pieces" "$TRASH/send.err"
check "the tracking file moved to .sent" eval "[ ! -e '$b4file' ] && [ -e '$b4file.sent' ]"
b4 ty -l >"$TRASH/l.out" 2>&1
check "b4 ty -l: nothing left to thank" grep -q "No thanks necessary" "$TRASH/l.out"
done_testing
