#!/bin/bash
# -o DIR: b4's file names, the cover letter beside the mbox, atomic
# replacement of an existing file, and the same mbox as on stdout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 10

series_repo "$TRASH/repo" 2 >/dev/null
(cd "$TRASH/repo" && git checkout -q -b v2 topic && echo more >> part2.c &&
 git commit -q -am "part: more" -m "Signed-off-by: Pat Contributor <pat@example.com>")
(cd "$TRASH/repo" && git format-patch -q --thread=shallow --cover-letter -v2 --base=base \
	-o "$TRASH/p" base..v2)
cover_letter "Add the pieces, again!" "Blurb." "$TRASH/p"/*0000*
to_mbox "$TRASH/t.mbox" "$TRASH/p"/*.patch
id=$(msgid_of "$TRASH/p"/v2-0001-*)

"$LORE_AM" -m "$TRASH/t.mbox" -o "$TRASH/out/sub" "$id" > "$TRASH/stdout" 2> "$TRASH/err"
is "$?" 0 "exit 0"
is "$(wc -c < "$TRASH/stdout")" 0 "nothing on stdout with -o"
name=$(cd "$TRASH/out/sub" && ls *.mbx)
case $name in v2_????????_maintainer_add_the_pieces_again.mbx) r=0;; *) r=1;; esac
ok $r "b4's file name: $name"
check "the cover letter beside it" test -s "$TRASH/out/sub/${name%.mbx}.cover"
check "the cover keeps base-commit" grep -q '^base-commit: ' "$TRASH/out/sub/${name%.mbx}.cover"
check "the summary gives the git am command" grep -q "git am $TRASH/out/sub/$name" "$TRASH/err"
"$LORE_AM" -q -m "$TRASH/t.mbox" "$id" > "$TRASH/stdout.mbx"
same_file "$TRASH/out/sub/$name" "$TRASH/stdout.mbx" "the file holds what stdout would"

# b4 itself, on the same thread, chooses the same names
if command -v b4 >/dev/null; then
	git init -q "$TRASH/b4repo"
	mkdir -p "$TRASH/b4out"   # b4 0.12 does not create it
	(cd "$TRASH/b4repo" && git config b4.attestation-policy off &&
	 b4 -q -n am -m - -o "$TRASH/b4out" "$id" < "$TRASH/t.mbox" >/dev/null 2>&1)
	is "$(cd "$TRASH/b4out" 2>/dev/null && ls | sort | tr '\n' ' ')" \
	   "$(cd "$TRASH/out/sub" && ls | sort | tr '\n' ' ')" "the same names as b4 am -o"
else
	skip "b4 not installed"
fi

# replacing an existing file is atomic: a read-only folder makes the write
# fail and the old file stays whole
echo "old content" > "$TRASH/out/sub/$name"
chmod a-w "$TRASH/out/sub"
if [ "$(id -u)" -eq 0 ]; then
	# root ignores permissions: fill a tiny file-size limit instead
	( ulimit -f 1; "$LORE_AM" -q -m "$TRASH/t.mbox" -o "$TRASH/out/sub" "$id" ) 2> "$TRASH/full.err"
else
	"$LORE_AM" -q -m "$TRASH/t.mbox" -o "$TRASH/out/sub" "$id" 2> "$TRASH/full.err"
fi
is "$?" 74 "a failed write exits 74"
is "$(cat "$TRASH/out/sub/$name")" "old content" "and leaves the old file as it was"
chmod u+w "$TRASH/out/sub"
done_testing
