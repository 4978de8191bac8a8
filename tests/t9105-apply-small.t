#!/bin/bash
# --apply's trial run on a small tree: git am in a temporary worktree
# whose index holds only the files the series touches (and the
# .gitattributes above them), the commits then made again on the full
# tree. The commits must be byte for byte the ones plain `git am` makes
# in the work tree (renames, deletions, modes, links, odd names, an
# attribute that changes what git apply accepts), and a trial that fails
# must leave the work tree, index, refs and config exactly as they were.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 29

R=$TRASH/repo
make_repo "$R"
(cd "$R" && mkdir -p sub d &&
 printf '*.c -whitespace\n' >sub/.gitattributes &&
 printf 'int ws;\n' >sub/ws.c && printf 'int x;\n' >d/x.c &&
 for i in $(seq 20); do echo "int d$i;" >"d/d$i.c"; done &&
 printf 'f\n' >f && printf 'int q;\n' >'q"uote.c' &&
 printf 'int s;\n' >'sp ace.c' && printf 'int e;\n' >'é.c' &&
 printf 'int o;\nint p;\nint r;\n' >old.c && printf 'gone\n' >gone.c &&
 printf 'echo run\n' >run.sh &&
 git add . && git commit -qm "more files" && git tag -f base &&
 git checkout -q -b topic &&
 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com &&
 printf 'int ws2; \n' >>sub/ws.c && git commit -qam "sub: a trailing blank, allowed there" &&
 printf 'int q2;\n' >>'q"uote.c' && printf 'int s2;\n' >>'sp ace.c' &&
 printf 'int e2;\n' >>'é.c' && printf 'int l;\n' >'"lead.c' &&
 git add . && git commit -qm "names: odd ones" &&
 git mv old.c renamed.c && printf 'int o;\nint p;\nint r2;\n' >renamed.c &&
 git commit -qam "old: renamed and changed" &&
 git rm -q gone.c && chmod +x run.sh && ln -s file.c link.c && git add . &&
 git commit -qm "tree: a file gone, a mode, a link")
fmt "$R" "$TRASH/p" -M
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-sub-a-trailing-blank-allowed-there.patch")
base_files=$(git -C "$R" ls-files | wc -l)

# user REPO: a clone at base, trailing blanks refused by git apply
# (where no attribute allows them), its index settled
user() {
	rm -rf "$1" && git clone -q "$R" "$1" &&
		git -C "$1" checkout -q -b work base &&
		git -C "$1" config apply.whitespace error &&
		sleep 1 && git -C "$1" status --porcelain >/dev/null
}
# state REPO: everything a run that fails must leave as it was: HEAD,
# refs, config, the index's bytes, the work tree's files, git's folder
state() {
	(cd "$1" && git rev-parse HEAD && git symbolic-ref -q HEAD
	 git for-each-ref && cat .git/config && sha1sum .git/index &&
	 git status --porcelain --ignored && git worktree list --porcelain &&
	 ls -a .git .git/info && find . -path ./.git -prune -o -print | sort &&
	 cat .git/FETCH_HEAD .git/ORIG_HEAD 2>/dev/null)
}
export GIT_COMMITTER_DATE="1700000000 +0000"

# --- what plain git am makes in the work tree
user "$TRASH/plain"
"$LORE_AM" -m "$TRASH/thread.mbox" -o - "$id" 2>/dev/null >"$TRASH/am.mbox"
(cd "$TRASH/plain" && git am -q <"$TRASH/am.mbox")
ok $? "plain git am applies the series"
want=$(git -C "$TRASH/plain" rev-parse HEAD)
is "$(git -C "$TRASH/plain" rev-parse 'HEAD^{tree}')" "$(git -C "$R" rev-parse 'topic^{tree}')" "to the topic's tree"

# --- --apply: the same commits, git am on a small index
user "$TRASH/u1"
printf '#!/bin/sh\ngit ls-files | wc -l >>"%s"\n' "$TRASH/seen1" \
	>"$TRASH/u1/.git/hooks/pre-applypatch"
chmod +x "$TRASH/u1/.git/hooks/pre-applypatch"
(cd "$TRASH/u1" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>"$TRASH/err1")
ok $? "--apply exits 0"
is "$(git -C "$TRASH/u1" rev-parse HEAD)" "$want" "the commits are plain git am's, byte for byte"
is "$(git -C "$TRASH/u1" status --porcelain)" "" "the work tree is clean"
check "the link is a link" test -L "$TRASH/u1/link.c"
check "the mode is kept" test -x "$TRASH/u1/run.sh"
is "$(wc -l <"$TRASH/seen1")" 4 "git am's hook ran once a patch"
is "$(sort -n "$TRASH/seen1" | tail -1)" 9 \
	"git am's index held only the series' files and the attributes above them, not all $base_files"
is "$(git -C "$TRASH/u1" worktree list | wc -l)" 1 "no temporary worktree is left"
is "$(git -C "$TRASH/u1" for-each-ref | grep -c lore-am)" 0 "no ref of the trial is left"

user "$TRASH/u2"
(cd "$TRASH/u2" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply=head "$id" >/dev/null 2>&1)
ok $? "--apply=head exits 0"
is "$(git -C "$TRASH/u2" rev-parse FETCH_HEAD)" "$want" "FETCH_HEAD holds plain git am's commits"
user "$TRASH/u3"
(cd "$TRASH/u3" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply=merge "$id" >/dev/null 2>&1)
ok $? "--apply=merge exits 0"
is "$(git -C "$TRASH/u3" rev-parse HEAD^2)" "$want" "the merge's second parent is plain git am's commits"

# --- a trial that fails leaves everything as it was
# fails MODE REPO LABEL: --apply=MODE fails in REPO, which is unchanged
fails() {
	state "$2" >"$TRASH/before"
	(cd "$2" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply$1 "$id" >/dev/null 2>"$TRASH/err")
	is $? 1 "$3: exit 1"
	state "$2" >"$TRASH/after"
	same_file "$TRASH/after" "$TRASH/before" "$3: tree, index, refs and config as before"
	git -C "$2" config --get extensions.worktreeConfig >/dev/null
	is $? 1 "$3: no extensions.worktreeConfig"
}
# a file where the series adds one: git am fails at patch 2, on any tree
user "$TRASH/u4"
(cd "$TRASH/u4" && git mv d/x.c '"lead.c' && git commit -qm "in the way" &&
 git status --porcelain >/dev/null)
fails "" "$TRASH/u4" "a file the series adds is there already"
check "git's reason is given" grep -q "git am failed at patch" "$TRASH/err"
# a folder where the series adds a file
user "$TRASH/u5"
(cd "$TRASH/u5" && mkdir -p '"lead.c' && echo x >'"lead.c/in' &&
 git add . && git commit -qm "a folder in the way" && git status --porcelain >/dev/null)
fails "" "$TRASH/u5" "a folder where the series adds a file"
# without the attribute git apply refuses the trailing blank
user "$TRASH/u6"
(cd "$TRASH/u6" && git rm -q sub/.gitattributes && git commit -qm "no attributes" &&
 git status --porcelain >/dev/null)
fails "" "$TRASH/u6" "an attribute that is gone"
check "the patch is named" grep -q 'at patch 0001 "sub: a trailing blank, allowed there"' "$TRASH/err"
# a leading folder that is a file in the base
user "$TRASH/u7"
(cd "$TRASH/u7" && git rm -q -r sub && echo file >sub && git add sub &&
 git commit -qm "sub is a file" && git status --porcelain >/dev/null)
fails "" "$TRASH/u7" "a file where the series' folder goes"
done_testing
