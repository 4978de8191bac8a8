#!/bin/bash
# -b BRANCH (b4 am's --guess-branch): -g's guess made on those branches
# only. Two branches hold the files the series starts from; -g alone
# takes the newest commit of all, -b the newest of the one named, as real
# b4 0.12 does; a name that is no branch here, or looks like an option,
# is refused in one line.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 9

R=$TRASH/repo
at() { GIT_AUTHOR_DATE="$1 12:00:00 +0000" GIT_COMMITTER_DATE="$1 12:00:00 +0000" "${@:2}"; }
git init -q "$R" && cd "$R" || exit 1
printf 'line %s\n' 1 2 3 4 5 >file.c && echo readme >README && git add . &&
at 2024-01-01 git commit -qm base && git tag base &&
git checkout -q -b old && echo old >old.txt && git add old.txt &&
at 2024-01-05 git commit -qm "old: work elsewhere" &&
git checkout -q main && echo more >>README &&
at 2024-01-08 git commit -qam "readme: more" &&
git checkout -q -b topic base && sed -i 's/line 3/line three/' file.c &&
at 2024-01-09 git commit -qam "file: spell out three" &&
git format-patch -q --thread=shallow -o "$TRASH/p" base..topic &&
git checkout -q main || exit 1
to_mbox "$TRASH/s.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH"/p/0001-*)
base_of() { sed -n 's/^ Base: \([0-9a-f]\{40\}\) (guessed.*/\1/p' "$TRASH/$1.err"; }

"$LORE_AM" -g -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/all.err"
is "$(base_of all)" "$(git rev-parse main)" "-g: the newest commit of all branches (main)"

"$LORE_AM" -g -b old -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/old.err"
is "$?:$(base_of old)" "0:$(git rev-parse old)" "-g -b old: the newest of branch old"
"$LORE_AM" --guess-branch old -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/impl.err"
is "$(base_of impl)" "$(git rev-parse old)" "--guess-branch alone guesses (-g implied)"
"$LORE_AM" -g -b old -b main -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/two.err"
is "$(base_of two)" "$(git rev-parse main)" "-b old -b main: the newest of the two"

if command -v b4 >/dev/null; then
	git config b4.attestation-policy off
	mkdir -p "$TRASH/b4out"
	b4 -n am -g -b old -m "$TRASH/s.mbox" -o "$TRASH/b4out" "$id" >/dev/null 2>"$TRASH/b4.err"
	b4base=$(sed -n 's/^ *Base: \([^ ]*\) (exact match).*/\1/p' "$TRASH/b4.err")
	is "$(git rev-parse "$b4base" 2>/dev/null)" "$(git rev-parse old)" \
		"b4 am -g -b old: the same commit ($b4base)"
else
	skip "b4 not installed"
fi

"$LORE_AM" -g -b nosuch -m "$TRASH/s.mbox" "$id" >"$TRASH/no.out" 2>"$TRASH/no.err"
is "$?:$(wc -c <"$TRASH/no.out"):$(cat "$TRASH/no.err")" \
	"2:0:lore-am: -b: 'nosuch' is not a branch or commit of this repository" \
	"-b nosuch: refused in one line"
"$LORE_AM" -g --guess-branch=--all -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/opt.err"
is "$?:$(cat "$TRASH/opt.err")" \
	"2:lore-am: -b: '--all' is not a branch or commit of this repository" \
	"-b --all: no option smuggled into git"

# a branch with nothing the series starts from within the lookback
git checkout -q --orphan lone && git rm -q -rf . && echo x >x &&
	git add x && at 2024-01-08 git commit -qm lone && git checkout -q main
"$LORE_AM" -g -b lone -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/lone.err"
is "$?" 0 "-b on a branch that holds none of the files: still exit 0"
check "... said, naming the -b branches" \
	grep -q '^ Base: failed to guess base (no commit of the last 14 days on the -b branches' "$TRASH/lone.err"
