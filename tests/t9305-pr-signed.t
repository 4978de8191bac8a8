#!/bin/bash
# lore-am pr checks the signature on what it fetched, as b4 pr does: a
# tag signed with GnuPG (the pull requests sent to Linus name such tags),
# a signed commit, an unsigned tag, a tag signed by a key the maintainer
# does not have, and a tag whose signature does not hold; each weighed by
# attestation-policy (check, softfail by default, hardfail, off). The
# repository is served by a real git daemon, the signatures are real
# GnuPG ones, and real b4 pr says the same of the same pulls.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-net.sh"

[ -x "$(git --exec-path)/git-daemon" ] || skip_all "git daemon not installed"
command -v gpg >/dev/null || skip_all "gpg (gnupg) not installed"
plan 22

cd "$TRASH" || exit 1
# the contributor's key, and the maintainer's keyring that holds it
export GNUPGHOME=$TRASH/gnupg-pat
mkdir -m 700 "$GNUPGHOME" "$TRASH/gnupg-maint" "$TRASH/gnupg-stranger"
at_exit "for h in pat maint stranger; do GNUPGHOME=$TRASH/gnupg-\$h gpgconf --kill all; done 2>/dev/null"
gpg --batch --passphrase '' --quick-gen-key 'Pat Contributor <pat@example.com>' \
	ed25519 sign never >gpg.out 2>&1
GNUPGHOME=$TRASH/gnupg-stranger gpg --batch --passphrase '' \
	--quick-gen-key 'Pat Contributor <pat@example.com>' ed25519 sign never >>gpg.out 2>&1
FPR=$(gpg --batch --with-colons --list-keys pat@example.com | awk -F: '/^fpr/ {print $10; exit}')
SFPR=$(GNUPGHOME=$TRASH/gnupg-stranger gpg --batch --with-colons --list-keys pat@example.com |
	awk -F: '/^fpr/ {print $10; exit}')
gpg --batch --export "$FPR" | GNUPGHOME=$TRASH/gnupg-maint gpg --batch --import 2>>gpg.out
GNUPGHOME=$TRASH/gnupg-maint gpg --batch --with-colons --list-keys "$FPR" >/dev/null 2>&1
ok $? "gpg made the contributor's key, the maintainer's keyring has it"

series_repo repo 3 || exit 1
git -C repo config user.signingkey "$FPR"
git -C repo tag -s -m "part: the feature, signed" signed topic || exit 1
git -C repo tag -a -m "part: the feature, not signed" plain topic || exit 1
GNUPGHOME=$TRASH/gnupg-stranger git -C repo tag -s -u "$SFPR" \
	-m "part: the feature, a stranger's key" stranger topic || exit 1
# a signature that does not hold: the signed tag's words changed, its
# signature kept (git mktag checks the form, not the signature)
git -C repo cat-file tag signed | sed 's/the feature, signed/the feature, changed/' |
	git -C repo mktag >forged.id && git -C repo tag forged "$(cat forged.id)" || exit 1
# a branch whose tip is a signed commit
git -C repo checkout -q -b sigtip topic &&
	git -C repo commit -q -S --allow-empty -m "part: signed tip" || exit 1
git clone -q --bare repo srv/contrib.git || exit 1
git_daemon SRV "$TRASH/srv" || exit 1
URL="$SRV/contrib.git"
TIP=$(git -C repo rev-parse topic)

# pr_mail OUT ID REF: git request-pull's text for REF, as a mail
pr_mail() {
	(cd repo && git request-pull base "$URL" "$3") >"$1.txt" 2>/dev/null
	{
		echo "From: Pat Contributor <pat@example.com>"
		echo "To: Test Maintainer <maintainer@example.org>"
		echo "Subject: [GIT PULL] part: the feature ($3)"
		echo "Date: Wed, 3 Jan 2024 10:00:00 +0000"
		echo "Message-Id: <$2>"
		echo
		cat "$1.txt"
	} >"$1"
}
for r in signed plain stranger forged sigtip; do
	pr_mail "$r.eml" "$r@example.com" "$r"
	to_mbox "$r.mbox" "$r.eml"
done
grep -q "tags/signed" signed.eml
ok $? "git request-pull names the signed tag"

export GNUPGHOME=$TRASH/gnupg-maint
user_clone maint || exit 1
git -C maint config lore-am.track true
pr() { # pr NAME MAIL [ARGS...]: lore-am pr in the maintainer's clone
	local n=$1 m=$2
	shift 2
	(cd maint && lore_in "$n" "../$m" pr -m "../${m%.eml}.mbox" "$@")
}

pr good signed.eml
is "$(cat good.rc)" 0 "a signed tag: exit 0"
check "... it says who signed it, with the key" grep -q \
	"^  ✓ Signed: Pat Contributor <pat@example.com> (the fetched tag, key [0-9A-F]*${FPR: -16})" good.err
check "... and tracks it" grep -q "^Tracked for the thanks" good.err

pr tip sigtip.eml
check "a signed commit at the tip: verify-commit, good" grep -q \
	"^  ✓ Signed: Pat Contributor <pat@example.com> (the fetched commit" tip.err

pr plain plain.eml
is "$(cat plain.rc)" 0 "an unsigned tag under softfail (the default): exit 0"
check "... one line says it is not signed, even with -q" eval \
	'(cd maint && lore_in plainq ../plain.eml pr -q) &&
	 [ "$(cat plainq.err)" = "lore-am: the fetched tag is not signed (attestation-policy softfail: fetched all the same)" ]'

pr nokey stranger.eml
check "a key the keyring lacks: named, with what to do" grep -q \
	"^lore-am: the fetched tag is signed by key [0-9A-F]*${SFPR: -16}, which your GnuPG keyring does not have" nokey.err

pr forged forged.eml
check "a signature that does not hold: said (BADSIG)" grep -q \
	"^lore-am: the fetched tag's signature does not hold (badsig, key [0-9A-F]*${FPR: -16})" forged.err
check "... never taken for good" eval '! grep -q "✓ Signed" forged.err'

git -C maint config lore-am.attestation-policy hardfail
rm -rf "$HOME/.local/share/b4"
pr hard forged.eml -q
fails hard 4 "the fetched tag's signature does not hold \(badsig, key [0-9A-F]+\): not tracked, nothing written \(attestation-policy hardfail\)" \
	"hardfail, a forged tag: exit 4, one line"
check "... nothing tracked" test ! -e "$HOME/.local/share/b4"
pr hardplain plain.eml -e -q
fails hardplain 4 "the fetched tag is not signed: not tracked" \
	"hardfail, an unsigned tag with --explode: exit 4, nothing written"
pr hardgood signed.eml -e
is "$(cat hardgood.rc):$(grep -c '^From ' hardgood.out)" "0:3" \
	"hardfail, the signed tag: exploded (three patches)"

git -C maint config lore-am.attestation-policy check
pr chk plain.eml
check "check: the unsigned tag said in the summary" grep -q "^  ✗ the fetched tag is not signed$" chk.err
pr chkq plain.eml -q
is "$(cat chkq.rc):$(wc -c <chkq.err)" "0:0" "... and nothing with -q"
git -C maint config lore-am.attestation-policy off
pr off forged.eml
check "off: no signature line at all" eval '! grep -qi "sign" off.err'
git -C maint config b4.attestation-policy hardfail
git -C maint config --unset lore-am.attestation-policy
pr b4key plain.eml
is "$(cat b4key.rc)" 4 "b4.attestation-policy is read too"
git -C maint config --unset b4.attestation-policy

# b4 pr, the reference, on the same pulls (b4 0.12 checks FETCH_HEAD
# with git verify-tag --raw as lore-am does)
if command -v b4 >/dev/null; then
	# a clone each: b4 fetches nothing when FETCH_HEAD is the tip already
	for r in signed plain forged; do
		git clone -q --single-branch --no-tags -b main repo "b4$r" || exit 1
		(cd "b4$r" && b4 pr <"../$r.eml") >"b4$r.err" 2>&1
	done
	check "b4 pr: the signed tag good too" grep -q "Signed: Pat Contributor <pat@example.com>" b4signed.err
	# b4 0.12 takes git's "no signature found" for a signature's words
	# and says nothing of the unsigned or the forged tag: it only leaves
	# out its check mark. Neither tool calls them signed.
	check "b4 pr: the unsigned tag not called signed either" eval \
		'grep -q "Successfully fetched" b4plain.err && ! grep -q "Signed:" b4plain.err'
	check "b4 pr: the forged tag not called signed either" eval \
		'grep -q "Successfully fetched" b4forged.err && ! grep -q "Signed:" b4forged.err'
else
	skip "b4 not installed"
	skip "b4 not installed"
	skip "b4 not installed"
fi

done_testing
