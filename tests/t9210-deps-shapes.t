#!/bin/bash
# Prerequisites in every shape, against a real public-inbox-httpd with a
# Xapian index and real git: a diamond (each series once, in the order
# they apply), a cycle (refused in one line), a prerequisite that is
# nowhere (a warning; under --apply exit 1 and the repository unchanged
# byte for byte), one found only in a local -m mailbox, a change-id
# resolved to its latest revision (or the one the line names), a
# patchwork id (one warning line naming it), and the forms QEMU and
# plain prose use.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-deps.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 30

R=$TRASH/repo
make_repo "$R" || exit 1
# one series of one patch on its own branch from base: FILE's first line
one() { # one NAME TITLE
	git -C "$R" checkout -q -b "b$1" base &&
		deps_commit "$R" "$1.c" "$1 one" "$1: add $1" &&
		deps_series "$R" "$1" base "b$1" "$2"
}
for n in j h i g e f d p k l q; do
	one $n "$n: the $n series" || exit 1
done
deps_needs h "prerequisite-message-id: <$(deps_id j)>"
# QEMU's form, and prose with an archive URL
deps_needs i "Based-on: <$(deps_id j)>"
sed -i "s|^The i series\.|The i series. It depends on https://lore.kernel.org/all/$(deps_id j)/ as h does.|" \
	"$(deps_cover i)"
deps_needs g "prerequisite-message-id: <$(deps_id h)>" \
	"prerequisite-message-id: <$(deps_id i)>"
deps_needs e "prerequisite-message-id: <$(deps_id f)>"
deps_needs f "prerequisite-message-id: <$(deps_id e)>"
deps_needs d "prerequisite-message-id: <nowhere.1@example.org>"
deps_needs p 'Depends-on: series-30123 ("net/foo: the foo")'
deps_needs l "prerequisite-message-id: <$(deps_id k)>"
# a sentence naming a person: an <address> is no mail found
sed -i "s|^The q series\.|The q series, based on work by Alice <alice@example.org>.|" \
	"$(deps_cover q)"

# m: two revisions sent as two threads, one change-id; n and o stand on it
git -C "$R" checkout -q -b bm base &&
	deps_commit "$R" m.c "m one" "m: add m" &&
	deps_series "$R" m1 base bm "m: the m series" &&
	git -C "$R" commit -q --amend -m "m: add m" -m "(v2)" &&
	deps_series "$R" m2 base bm "m: the m series" -v2 || exit 1
sed -i "s/^The m[12] series\./&\n---\nchange-id: 20240110-m-5e1f/" \
	"$(deps_cover m1)" "$(deps_cover m2)"
one n "n: the n series" && one o "o: the o series" || exit 1
deps_needs n "prerequisite-change-id: 20240110-m-5e1f"
deps_needs o "prerequisite-change-id: 20240110-m-5e1f:v1"

# everything in the archive but k, which only a local mailbox holds
for n in j h i g e f d p l m1 m2 n o q; do
	cat "$TRASH/$n"/*.patch
done >"$TRASH/list.mbox"
cat "$TRASH"/k/*.patch >"$TRASH/k.mbox"
pi_serve list "$TRASH/list.mbox" || exit 1

U=$TRASH/u
user_clone "$U" base "$R" || exit 1
subjects() { grep "^Subject: \[PATCH" "$1" | sed 's/^Subject: \[PATCH[^]]*\] //' | tr "\n" " "; }

# ------------------------------------------------------------ diamond
(cd "$U" && lore dia --with-deps "$(deps_id g)")
is "$(cat "$TRASH/dia.rc")" 0 "diamond: exit 0"
is "$(subjects "$TRASH/dia.out")" "j: add j h: add h i: add i g: add g " \
	"diamond: j once, first, then h and i, then g"
check "the block names each once" eval '
	test "$(grep -c "^  \[PATCH 0/1\] .* (lore): first in the mbox$" "$TRASH/dia.err")" = 3 &&
	test "$(grep -c "j: the j series" "$TRASH/dia.err")" = 1'
(cd "$U" && lore diaapply --apply "$(deps_id g)")
is "$(cat "$TRASH/diaapply.rc")" 0 "diamond --apply: exit 0"
is "$(git -C "$U" log --format=%s base..HEAD | tr "\n" " ")" \
	"g: add g i: add i h: add h j: add j " "applied in that order, on the branch"
check "the prose and Based-on: forms were followed" eval '
	grep -q "i: the i series <.*> (lore): applied first" "$TRASH/diaapply.err"'
(cd "$U" && lore diaagain "$(deps_id g)")
check "once applied, each series is in the tree, by its patch-ids" eval '
	test "$(grep -c "^  \[PATCH 0/1\] [jhi]: .* (lore): already in the tree (commit " "$TRASH/diaagain.err")" = 3'

# -------------------------------------------------------------- cycle
(cd "$U" && lore cyc "$(deps_id e)")
is "$(cat "$TRASH/cyc.rc")" 1 "cycle: exit 1"
is "$(grep -c '^lore-am: ' "$TRASH/cyc.err")" 1 "one error line"
check "it names the cycle" grep -qF \
	"lore-am: the prerequisites form a cycle: <$(deps_id e)> -> <$(deps_id f)> -> <$(deps_id e)>; refused, nothing written or applied" \
	"$TRASH/cyc.err"
is "$(wc -c <"$TRASH/cyc.out")" 0 "nothing written"

# ------------------------------------------------------------ missing
(cd "$U" && lore miss "$(deps_id d)")
is "$(cat "$TRASH/miss.rc")" 0 "missing, plain run: exit 0"
check "a warning names the line" grep -qF \
	"lore-am: warning: prerequisite 'prerequisite-message-id: <nowhere.1@example.org>' not found (" \
	"$TRASH/miss.err"
check "the series is written" grep -q "^Subject: \[PATCH 1/1\] d: add d" "$TRASH/miss.out"
deps_state "$U" >"$TRASH/before"
find "$U" -path "$U/.git/logs" -prune -o -type f -print0 | sort -z |
	xargs -0 sha1sum >"$TRASH/before.files"
(cd "$U" && lore missapply --apply "$(deps_id d)")
is "$(cat "$TRASH/missapply.rc")" 1 "missing, --apply: exit 1"
check "one line says so, naming it" eval '
	test "$(grep -c "^lore-am: " "$TRASH/missapply.err")" = 1 &&
	grep -qF "lore-am: '"'"'prerequisite-message-id: <nowhere.1@example.org>'"'"' not found (" "$TRASH/missapply.err" &&
	grep -q "; nothing applied$" "$TRASH/missapply.err"'
deps_state "$U" >"$TRASH/after"
find "$U" -path "$U/.git/logs" -prune -o -type f -print0 | sort -z |
	xargs -0 sha1sum >"$TRASH/after.files"
same_file "$TRASH/after" "$TRASH/before" "the repository's state is unchanged"
same_file "$TRASH/after.files" "$TRASH/before.files" "every file of it byte for byte"
(cd "$U" && lore misswith --with-deps "$(deps_id d)")
is "$(cat "$TRASH/misswith.rc") $(wc -c <"$TRASH/misswith.out")" "1 0" \
	"missing, --with-deps: exit 1, nothing written"

# ------------------------------- a person's address in a sentence
(cd "$U" && lore person --apply "$(deps_id q)")
is "$(cat "$TRASH/person.rc")" 0 "an <address> a sentence names: --apply still exit 0"
check "with a warning that says what it may be" grep -q \
	"^lore-am: warning: the cover letter's 'The q series, based on work by Alice <alice@example.org>.' not found (.*); it may name a person, not a mail$" \
	"$TRASH/person.err"

# ---------------------------------------------------------- patchwork
(cd "$U" && lore pw "$(deps_id p)")
is "$(cat "$TRASH/pw.rc")" 0 "a patchwork id: exit 0"
check "one warning line names it" grep -qxF \
	"lore-am: warning: 'Depends-on: series-30123 (\"net/foo: the foo\")' names a patchwork series: lore-am cannot resolve it without a patchwork server" \
	"$TRASH/pw.err"

# ------------------------------------------ only in a local mailbox
(cd "$U" && lore loc -m "$TRASH/k.mbox" -L "$PI_URL/list/%s" --with-deps "$(deps_id l)")
is "$(cat "$TRASH/loc.rc")" 0 "a prerequisite in a -m mailbox only: exit 0"
is "$(subjects "$TRASH/loc.out")" "k: add k l: add l " "found there, written first"
check "the block says where it came from" grep -q \
	"k: the k series <$(deps_id k)> (mbox): first in the mbox" "$TRASH/loc.err"

# ---------------------------------------------------------- change-id
(cd "$U" && lore cid --with-deps "$(deps_id n)")
is "$(cat "$TRASH/cid.rc")" 0 "a change-id: exit 0"
check "its latest revision is taken" grep -q \
	"^  \[PATCH v2 0/1\] m: the m series <$(deps_id m2)> (lore): first in the mbox" \
	"$TRASH/cid.err"
check "found through the archive's search" grep -q \
	'"POST /list/?x=m&q=nq%3A%22change-id%3A%2020240110-m-5e1f%22' "$PI_ACCESS_LOG"
(cd "$U" && lore cid1 --with-deps "$(deps_id o)")
check "with :v1, revision 1" grep -q \
	"^  \[PATCH 0/1\] m: the m series <$(deps_id m1)> (lore): first in the mbox" \
	"$TRASH/cid1.err"
done_testing
